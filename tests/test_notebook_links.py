"""No notebook points a learner to a notebook that does not exist.

Every cell of the jupytext sources (workbook/) and of the built notebooks (notebooks/,
solutions/, exercises/), and the README, is read for three kinds of reference:

* a markdown link to a notebook, `[exercises 08](../exercises/08_prefetch_exercises.ipynb)`,
  resolved from the folder the notebook is built into;
* a notebook named in prose, `exercises/08_prefetch_exercises.ipynb` (from the repository's root)
  or `08_prefetch.ipynb` (a notebook of that name anywhere in the workbook);
* a lesson or an exercise notebook named by number: "lesson 10", "lessons 10 and 11",
  "exercises 09". Lesson numbers need a source `workbook/notebooks/NN_*.py`, exercise numbers
  a source `workbook/solutions/NN_*.py`. Exercise notebooks are numbered with two digits, so
  "exercises 2 and 3" (one digit) means exercises inside a notebook and is not checked.

A bad reference is reported as `file: cell N: text`; fix the text, or add the notebook.
"""

import importlib.util
import pathlib
import re

import jupytext
import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("build_notebooks",
                                               ROOT / "tools" / "build_notebooks.py")
build_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_notebooks)

BUILT = ("notebooks", "solutions", "exercises")
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
NAMED = re.compile(r"(?<![\w/.-])((?:\.{1,2}/)*(?:[\w-]+/)*\d{2}_\w+\.ipynb)\b")
NUMBER = r"\d{1,2}"
BY_NUMBER = re.compile(rf"\b(lessons?|exercises)\s+({NUMBER}(?:\s*(?:,|and|or|to|–|-)\s*"
                       rf"{NUMBER})*)\b", re.IGNORECASE)


class Workbook:
    """What exists: notebook files (repository-relative) and lesson and exercise numbers."""

    def __init__(self, root):
        root = pathlib.Path(root)
        self.root = root
        sources = build_notebooks.sources(root)
        self.files = {path.relative_to(root).as_posix()
                      for folder in BUILT for path in (root / folder).glob("*.ipynb")}
        # A notebook that a source will build counts too: the sync test checks it is built.
        self.files |= {target.relative_to(root).as_posix() for source in sources
                       for target in build_notebooks.targets(source, root).values()
                       if target is not None}
        self.names = {name.rsplit("/", 1)[-1] for name in self.files}
        self.lessons = {int(path.name[:2]) for path in (root / "workbook/notebooks").glob("*.py")
                        if path.name[:2].isdigit()}
        self.exercises = {int(path.name[:2])
                          for path in (root / "workbook/solutions").glob("*.py")
                          if path.name[:2].isdigit()}

    def has(self, path):
        """True when a repository-relative path names an existing (or built) notebook."""
        parts = []
        for part in pathlib.PurePosixPath(path).parts:
            if part == "..":
                if not parts:
                    return False  # outside the repository
                parts.pop()
            elif part != ".":
                parts.append(part)
        return "/".join(parts) in self.files


def bad_references(text, folders, workbook):
    """The references in one cell's text that name no existing notebook.

    `folders` are the repository-relative folders the cell's notebook lives in (a solution
    source lives in solutions/ and exercises/); links are resolved from each of them.
    """
    bad = []
    for match in LINK.finditer(text):
        target = match.group(1).split("#")[0].split("?")[0]
        if "://" in target or target.startswith("mailto:") or not target.endswith(".ipynb"):
            continue
        if not all(workbook.has(f"{folder}/{target}" if folder else target)
                   for folder in folders):
            bad.append(match.group(1))
    prose = LINK.sub("]()", text)  # links were checked above
    for match in NAMED.finditer(prose):
        name = match.group(1)
        if "/" in name:
            path = re.sub(r"^(?:\.{1,2}/)+", "", name).removeprefix("mywork/")
            ok = workbook.has(path)
        else:
            ok = name in workbook.names
        if not ok:
            bad.append(name)
    for match in BY_NUMBER.finditer(prose):
        kind, numbers = match.group(1).lower(), re.findall(NUMBER, match.group(2))
        if kind.startswith("lesson"):
            missing = [n for n in numbers if int(n) not in workbook.lessons]
        else:
            missing = [n for n in numbers if len(n) == 2 and int(n) not in workbook.exercises]
        if missing:
            bad.append(match.group(0))
    return bad


def cells(path):
    """The text of each cell of a notebook or a jupytext source, numbered like the builder."""
    if path.suffix == ".py":
        nb = jupytext.reads(path.read_text(encoding="utf-8"), fmt="py:percent")
    else:
        nb = nbformat.read(str(path), as_version=4)
    return [(number, cell.source) for number, cell in enumerate(nb.cells)]


def documents(root=ROOT):
    """[(path, folders its links resolve from)] for every source and built notebook."""
    found = []
    for source in build_notebooks.sources(root):
        folders = sorted({target.parent.relative_to(root).as_posix() for target in
                          build_notebooks.targets(source, root).values() if target is not None})
        found.append((source, folders))
    for folder in BUILT:
        found += [(path, [folder]) for path in sorted((root / folder).glob("*.ipynb"))]
    return found


def report(path, folders, workbook, root=ROOT):
    where = path.relative_to(root).as_posix()
    return [f"{where}: cell {number}: {text}" for number, source in cells(path)
            for text in bad_references(source, folders, workbook)]


DOCUMENTS = documents()


@pytest.fixture(scope="module")
def workbook():
    return Workbook(ROOT)


@pytest.mark.parametrize("path, folders", DOCUMENTS,
                         ids=[path.relative_to(ROOT).as_posix() for path, _ in DOCUMENTS])
def test_a_notebook_refers_only_to_notebooks_that_exist(path, folders, workbook):
    problems = report(path, folders, workbook)
    assert not problems, ("references to notebooks that do not exist (reword the text, or add "
                          "the notebook):\n" + "\n".join(problems))


def test_the_readme_links_only_to_notebooks_that_exist(workbook):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    problems = [f"README.md: {target}" for target in bad_references(text, [""], workbook)
                if not BY_NUMBER.fullmatch(target)]  # "lessons 00, 01, 07, 08" lists what is
    assert not problems, "\n".join(problems)


# --- the rules themselves, on a small made-up workbook ---------------------------------------

@pytest.fixture
def small(tmp_path):
    """Lessons 07 and 08, exercises 08; nothing built yet."""
    for name in ("workbook/notebooks/07_measuring.py", "workbook/notebooks/08_prefetch.py",
                 "workbook/solutions/08_prefetch_exercises.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("# %% [markdown]\n# text\n")
    return Workbook(tmp_path)


def test_a_link_is_resolved_from_the_folder_the_notebook_is_built_into(small):
    text = "[next](08_prefetch.ipynb), [practise](../exercises/08_prefetch_exercises.ipynb)"
    assert bad_references(text, ["notebooks"], small) == []
    assert bad_references("[x](08_prefetch.ipynb)", ["solutions", "exercises"], small) == [
        "08_prefetch.ipynb"]


def test_a_link_to_a_missing_notebook_is_reported(small):
    text = ("[exercises 07](../exercises/07_measuring_exercises.ipynb) and "
            "[old](../exercises/08_prefetch.ipynb#top)")
    assert bad_references(text, ["notebooks"], small) == [
        "../exercises/07_measuring_exercises.ipynb", "../exercises/08_prefetch.ipynb#top",
        "exercises 07"]


def test_web_links_and_links_to_other_files_are_not_checked(small):
    text = "[ui](https://example.org/10_x.ipynb) [data](../minidata/README.md)"
    assert bad_references(text, ["notebooks"], small) == []


def test_a_notebook_named_in_prose_must_exist(small):
    text = ("`make reset NOTEBOOK=exercises/08_prefetch_exercises.ipynb`, "
            "`mywork/notebooks/08_prefetch.ipynb`, `09_interleave.ipynb`, "
            "`exercises/08_prefetch.ipynb`")
    assert bad_references(text, ["notebooks"], small) == ["09_interleave.ipynb",
                                                          "exercises/08_prefetch.ipynb"]


@pytest.mark.parametrize("text, bad", [
    ("as in lesson 07", []),
    ("run in parallel (lesson 10)", ["lesson 10"]),
    ("parallel map and caching, Lessons 10 and 11", ["Lessons 10 and 11"]),
    ("lessons 07, 08 and 12", ["lessons 07, 08 and 12"]),
    ("see exercises 08", []),
    ("see exercises 09", ["exercises 09"]),
    ("exercises 2 and 3 practise the same idea", []),  # exercises inside this notebook
    ("Check exercise 4: ...", []),
])
def test_lessons_and_exercises_named_by_number_must_exist(small, text, bad):
    assert bad_references(text, ["notebooks"], small) == bad


def test_each_bad_reference_names_its_file_and_cell(tmp_path):
    source = tmp_path / "workbook/notebooks/08_prefetch.py"
    source.parent.mkdir(parents=True)
    source.write_text("# %% [markdown]\n# # 08\n\n# %%\nx = 1\n\n# %% [markdown]\n"
                      "# Faster still: lesson 10.\n")
    problems = report(source, ["notebooks"], Workbook(tmp_path), root=tmp_path)
    assert problems == ["workbook/notebooks/08_prefetch.py: cell 2: lesson 10"]
