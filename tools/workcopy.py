"""Keep the learner's own copy of the workbook in mywork/, so the shipped notebooks stay clean.

    python tools/workcopy.py sync              copy the shipped notebooks mywork/ lacks
    python tools/workcopy.py reset NOTEBOOK    put one shipped notebook back, keeping a backup

`make lab` runs `sync` before it starts JupyterLab in mywork/; `make reset NOTEBOOK=...` runs
`reset`. Only the standard library is used, so both work before .venv exists.

What sync makes (all of it git-ignored, since mywork/ is):

    mywork/notebooks/*.ipynb   copies of notebooks/*.ipynb (the lessons)
    mywork/exercises/*.ipynb   copies of exercises/*.ipynb (blank exercises)
    mywork/minidata            a symlink to ../minidata: notebooks read ../minidata/
    mywork/workdir/            a folder of its own: notebooks write ../workdir/

A file that already exists in mywork/ is never overwritten, by sync or anything else here
except `reset` on that one file, and `reset` first moves the learner's version to
mywork/.backup/. So a `git pull` that brings new lessons only adds files.
"""

import argparse
import datetime
import os
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
WORK = "mywork"
SHIPPED = ("notebooks", "exercises")  # solutions/ stays out: the answers are not handed out
BACKUP = ".backup"


class WorkcopyError(Exception):
    """A request this tool refuses; the message says what to do instead."""


def shipped(root=ROOT):
    """The shipped notebooks, relative to the repository: `notebooks/00_welcome.ipynb`, ..."""
    root = pathlib.Path(root)
    return [path.relative_to(root).as_posix()
            for folder in SHIPPED for path in sorted((root / folder).glob("*.ipynb"))]


def _link(link, target, log):
    """Make `link` a relative symlink to `target` unless something is already there."""
    if link.is_symlink() or link.exists():
        return
    try:
        link.symlink_to(target, target_is_directory=True)
    except OSError as error:  # e.g. Windows without developer mode
        log(f"note: could not link {link} to {target} ({error}); notebooks that read "
            f"{target} will not find it")


def sync(root=ROOT, work=None, log=print):
    """Copy every shipped notebook that mywork/ lacks; return the copied relative paths.

    Creates mywork/ and its folders on first use. Existing files are left as they are, even
    when the shipped notebook is newer: they are the learner's work.
    """
    root = pathlib.Path(root)
    work = pathlib.Path(work) if work else root / WORK
    first_run = not work.exists()
    copied = []
    for name in shipped(root):
        target = work / name
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / name, target)
        copied.append(name)
    # The notebooks find their data and write their files relative to their own folder.
    _link(work / "minidata", pathlib.Path("..") / "minidata", log)
    (work / "workdir").mkdir(parents=True, exist_ok=True)
    if first_run:
        log(f"made your own copy of the workbook in {work}: your work is saved there")
    elif copied:
        log(f"added to {work}: {', '.join(copied)}")
    return copied


def resolve(notebook, root=ROOT):
    """The shipped notebook (relative path) that `notebook` names, or WorkcopyError.

    Accepts `exercises/08_prefetch_exercises.ipynb`, the same under `mywork/`, or a bare file
    name when only one shipped notebook has it.
    """
    names = shipped(root)
    listing = "\n".join(f"  {name}" for name in names)
    if not notebook or not notebook.strip():
        raise WorkcopyError("say which notebook to restore, e.g. "
                            "make reset NOTEBOOK=exercises/08_prefetch_exercises.ipynb\n"
                            f"the shipped notebooks are:\n{listing}")
    wanted = pathlib.PurePath(notebook.strip()).as_posix()
    if wanted.startswith("./"):
        wanted = wanted[2:]
    if wanted.startswith(WORK + "/"):
        wanted = wanted[len(WORK) + 1:]
    if wanted in names:
        return wanted
    same_name = [name for name in names if name.rsplit("/", 1)[-1] == wanted]
    if len(same_name) == 1:
        return same_name[0]
    raise WorkcopyError(f"NOTEBOOK={notebook} is not a shipped notebook; choose one of:\n"
                        f"{listing}")


def reset(notebook, root=ROOT, work=None, now=None, log=print):
    """Restore one notebook in mywork/ from the shipped copy; return the backup path or None.

    The learner's version is moved to mywork/.backup/<time>/<folder>/<name> first, so nothing is
    lost without a trace.
    """
    root = pathlib.Path(root)
    work = pathlib.Path(work) if work else root / WORK
    name = resolve(notebook, root)
    target = work / name
    backup = None
    if target.exists():
        stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
        backup, count = work / BACKUP / stamp / name, 1
        while backup.exists():  # two resets within a second must not lose the first backup
            count += 1
            backup = work / BACKUP / f"{stamp}-{count}" / name
        backup.parent.mkdir(parents=True, exist_ok=True)
        os.replace(target, backup)
        log(f"your version is kept in {backup}")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(root / name, target)
    log(f"restored {target} from {name}")
    return backup


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("sync", help="copy the shipped notebooks that mywork/ lacks")
    restore = commands.add_parser("reset", help="restore one notebook, keeping a backup")
    restore.add_argument("notebook", nargs="?", default="",
                         help="e.g. exercises/08_prefetch_exercises.ipynb")
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        if args.command == "sync":
            sync(args.root)
        else:
            reset(args.notebook, args.root)
    except WorkcopyError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
