"""Find the students in a submissions folder and the key notebook each notebook answers.

A submissions folder holds one entry per student: a folder (the student is the folder's name)
with their notebooks, or a single notebook (the student is the file's stem). Any name works,
in any script: `张伟`, `Zoë` and `Zoé` are three students with three rows and three feedback
files.
"""

import hashlib
import re
import unicodedata

from .key import ASSIGNMENT, tagged_check_id


def find_submissions(folder):
    """[(student, [notebook paths], notes)] for every entry of the submissions folder."""
    import pathlib

    entries = []
    for entry in sorted(pathlib.Path(folder).iterdir()):
        if entry.name.startswith((".", "_")):
            continue
        if entry.is_symlink():
            entries.append((shown_name(entry.stem if entry.suffix == ".ipynb" else entry.name),
                            [], [f"{shown_name(entry.name)} is a link, not a submission; it "
                                 "was not graded"]))
            continue
        if entry.is_dir():
            files, links = _notebooks_in(entry)
            notes = [f"{shown_name(str(link.relative_to(entry)))} is a link, not a notebook; "
                     "it was not graded" for link in links]
            if not files and not links:
                notes.append("no .ipynb file in the folder")
            entries.append((shown_name(entry.name), files, notes))
        elif entry.suffix == ".ipynb":
            entries.append((shown_name(entry.stem), [entry], []))
        else:
            entries.append((shown_name(entry.stem), [],
                            [f"{shown_name(entry.name)} is not a notebook (.ipynb)"]))
    return _distinct(entries)


def _notebooks_in(folder):
    """(notebooks, links) under a student's folder. A link is never read: a submission that
    links to the key (`../../solutions/...`) or to another student's notebook would otherwise
    be graded as that file, and a link to any other file would show its first line in the
    note saying it is not JSON. Links to folders are not followed."""
    files, links, todo = [], [], [folder]
    while todo:
        for path in sorted(todo.pop().iterdir()):
            if path.name == ".ipynb_checkpoints":
                continue
            if path.is_symlink():
                if path.suffix == ".ipynb":
                    links.append(path)
            elif path.is_dir():
                todo.append(path)
            elif path.suffix == ".ipynb" and path.is_file():
                files.append(path)
    return sorted(files), sorted(links)


def shown_name(name):
    r"""A name as the gradebook, the feedback and the logs show it: a byte that is not UTF-8 in
    a file name (Python keeps it as a lone surrogate, which no UTF-8 file can hold: writing
    the gradebook would fail for the whole class) is written `\xff`, and so are control
    characters and line breaks (a newline in a name would start a forged line in the
    instructor's log).

    >>> shown_name("Zo\u00eb"), shown_name("a\udcffb"), shown_name("ada\nbob")
    ('Zoë', 'a\\xffb', 'ada\\nbob')
    """
    out = []
    for ch in name:
        if 0xDC80 <= ord(ch) <= 0xDCFF:  # os.fsdecode's stand-in for the byte ord(ch) - 0xDC00
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        elif unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            out.append(ascii(ch)[1:-1])
        else:
            out.append(ch)
    return "".join(out)


def _distinct(entries):
    """`ada/` and `ada.ipynb` are two entries: number the second so both get a row."""
    seen, result = {}, []
    for student, files, notes in entries:
        name = student
        if name in seen:
            seen[student] += 1
            name = f"{student} ({seen[student]})"
            notes = [*notes, f"a second entry named {student!r}; graded as {name!r}"]
        seen.setdefault(name, 1)
        result.append((name, files, notes))
    return result


def folder_name(student):
    """A file-system-safe, collision-free name for a student's work folder.

    Readable ASCII where the name has it, then a hash of the exact name, so names that differ
    only in letters outside ASCII (`Zoë`, `Zoé`, `张伟`) still get folders of their own.

    >>> folder_name("Zoë") != folder_name("Zoé")
    True
    >>> folder_name("ada lovelace")
    'ada_lovelace-...'
    """
    ascii_part = unicodedata.normalize("NFKD", student).encode("ascii", "ignore").decode()
    readable = re.sub(r"[^A-Za-z0-9_.-]+", "_", ascii_part).strip("._")[:40] or "student"
    digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{readable}-{digest}"


def feedback_name(student, taken):
    """The feedback file's name: the student's own name when the file system can hold it and no
    other student's name folds to the same file on a case-insensitive disk; else a safe name."""
    safe = (student not in (".", "..") and "/" not in student and "\\" not in student
            and "\0" not in student and not student.startswith(".")
            and all(unicodedata.category(ch)[0] != "C" for ch in student))
    name = f"{student}.md" if safe else f"{folder_name(student)}.md"
    if name.casefold() in taken:
        name = f"{folder_name(student)}.md"
    taken.add(name.casefold())
    return name


def cell_ids(nb):
    ids = set()
    for cell in nb.cells:
        ids.add(cell.get("id"))
        ids.add(tagged_check_id(cell))
    return ids - {None}


def assignments_named_in(nb):
    """The assignment numbers a notebook's check ids name ({"08"}), or, when it has none, the
    number in the name of the source it was built from."""
    found = {ASSIGNMENT.match(cid).group(1) for cid in cell_ids(nb) if ASSIGNMENT.match(cid)}
    source = str(nb.get("metadata", {}).get("feedline", {}).get("source", ""))
    match = re.search(r"/(\d{2})_[^/]*$", source)
    return found or ({match.group(1)} if match else set())


def match_key(path, nb, key):
    """(the key notebook a submitted notebook answers or None, a note saying why not)."""
    for key_nb in key:
        if path.stem == key_nb.name:
            return _unless_another(path, nb, key_nb, key)
    ids = cell_ids(nb)
    best = max(key, key=lambda k: len(ids & cell_ids(k.nb)))
    if ids & cell_ids(best.nb):
        return best, None
    named = assignments_named_in(nb)
    if named:
        return None, _another_assignment(path, named, key)
    if len(key) == 1:
        return key[0], None
    return None, f"{path.name} matches no notebook of the key"


def _unless_another(path, nb, key_nb, key):
    """A file named like the key whose cells come from another assignment is not an answer."""
    named = assignments_named_in(nb)
    if named and key_nb.assignment not in named and not (cell_ids(nb) & cell_ids(key_nb.nb)):
        return None, _another_assignment(path, named, key)
    return key_nb, None


def _another_assignment(path, named, key):
    expected = ", ".join(key_nb.name for key_nb in key)
    looks = ", ".join(f"exercises {number}" for number in sorted(named))
    return (f"{path.name} looks like {looks}, not what was asked ({expected}); "
            "it was not graded")
