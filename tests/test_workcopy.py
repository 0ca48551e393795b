"""tools/workcopy.py: the learner's own copy of the workbook in mywork/ (make lab, make reset)."""

import datetime
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("workcopy", ROOT / "tools" / "workcopy.py")
workcopy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(workcopy)

SHIPPED = {
    "notebooks/00_welcome.ipynb": "welcome",
    "notebooks/08_prefetch.ipynb": "lesson 08",
    "exercises/08_prefetch_exercises.ipynb": "exercises 08",
    "solutions/08_prefetch_exercises.ipynb": "answers 08",
}


def quiet(*args):
    pass


@pytest.fixture
def repo(tmp_path):
    """A repository with two lessons, one exercise notebook and its solution."""
    for name, text in SHIPPED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def files(folder):
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*.ipynb"))


def test_sync_copies_lessons_and_exercises_but_not_solutions(repo):
    copied = workcopy.sync(repo, log=quiet)
    assert copied == ["notebooks/00_welcome.ipynb", "notebooks/08_prefetch.ipynb",
                      "exercises/08_prefetch_exercises.ipynb"]
    assert files(repo / "mywork") == sorted(copied)
    assert (repo / "mywork/exercises/08_prefetch_exercises.ipynb").read_text() == "exercises 08"


def test_sync_gives_notebooks_the_data_and_work_folders_they_expect(repo):
    workcopy.sync(repo, log=quiet)
    link = repo / "mywork" / "minidata"
    assert link.is_symlink() and link.readlink() == pathlib.Path("../minidata")
    (repo / "minidata").mkdir()  # made later, e.g. by `make minidata`: the link finds it
    (repo / "minidata" / "iris.csv").write_text("x")
    assert (repo / "mywork/notebooks/../minidata/iris.csv").read_text() == "x"
    assert (repo / "mywork" / "workdir").is_dir()
    assert not (repo / "mywork" / "workdir").is_symlink()  # the learner's files stay in mywork


def test_sync_never_overwrites_a_learners_notebook(repo):
    workcopy.sync(repo, log=quiet)
    mine = repo / "mywork/exercises/08_prefetch_exercises.ipynb"
    mine.write_text("my answers")
    (repo / "exercises/08_prefetch_exercises.ipynb").write_text("a newer shipped version")
    assert workcopy.sync(repo, log=quiet) == []
    assert mine.read_text() == "my answers"


def test_sync_adds_only_the_notebooks_a_git_pull_brought(repo):
    workcopy.sync(repo, log=quiet)
    (repo / "mywork/notebooks/08_prefetch.ipynb").write_text("my notes")
    (repo / "notebooks/09_interleave.ipynb").write_text("lesson 09")
    lines = []
    assert workcopy.sync(repo, log=lines.append) == ["notebooks/09_interleave.ipynb"]
    assert (repo / "mywork/notebooks/08_prefetch.ipynb").read_text() == "my notes"
    assert lines == [f"added to {repo / 'mywork'}: notebooks/09_interleave.ipynb"]


def test_sync_puts_back_a_notebook_the_learner_deleted(repo):
    workcopy.sync(repo, log=quiet)
    (repo / "mywork/notebooks/00_welcome.ipynb").unlink()
    assert workcopy.sync(repo, log=quiet) == ["notebooks/00_welcome.ipynb"]


def test_sync_leaves_an_existing_minidata_folder_alone(repo):
    (repo / "mywork" / "minidata").mkdir(parents=True)
    workcopy.sync(repo, log=quiet)
    assert (repo / "mywork" / "minidata").is_dir()
    assert not (repo / "mywork" / "minidata").is_symlink()


def test_reset_restores_the_shipped_notebook_and_keeps_the_learners_as_a_backup(repo):
    workcopy.sync(repo, log=quiet)
    mine = repo / "mywork/exercises/08_prefetch_exercises.ipynb"
    mine.write_text("my answers")
    lines = []
    when = datetime.datetime(2026, 3, 4, 5, 6, 7)
    backup = workcopy.reset("exercises/08_prefetch_exercises.ipynb", repo, now=when,
                            log=lines.append)
    assert mine.read_text() == "exercises 08"
    assert backup == (repo / "mywork/.backup/20260304-050607/"
                      "exercises/08_prefetch_exercises.ipynb")
    assert backup.read_text() == "my answers"
    assert str(backup) in lines[0]  # the learner is told where their version went


def test_two_resets_in_the_same_second_keep_both_backups(repo):
    workcopy.sync(repo, log=quiet)
    mine = repo / "mywork/notebooks/08_prefetch.ipynb"
    when = datetime.datetime(2026, 3, 4, 5, 6, 7)
    mine.write_text("first try")
    first = workcopy.reset("notebooks/08_prefetch.ipynb", repo, now=when, log=quiet)
    mine.write_text("second try")
    second = workcopy.reset("notebooks/08_prefetch.ipynb", repo, now=when, log=quiet)
    assert first != second
    assert (first.read_text(), second.read_text()) == ("first try", "second try")


def test_reset_of_a_notebook_missing_from_mywork_just_copies_it(repo):
    assert workcopy.reset("notebooks/00_welcome.ipynb", repo, log=quiet) is None
    assert (repo / "mywork/notebooks/00_welcome.ipynb").read_text() == "welcome"


@pytest.mark.parametrize("spelling", ["mywork/exercises/08_prefetch_exercises.ipynb",
                                      "./exercises/08_prefetch_exercises.ipynb",
                                      "08_prefetch_exercises.ipynb"])
def test_reset_accepts_the_path_in_mywork_or_a_unique_file_name(repo, spelling):
    assert workcopy.resolve(spelling, repo) == "exercises/08_prefetch_exercises.ipynb"


@pytest.mark.parametrize("notebook, words", [
    ("", "say which notebook to restore"),
    ("solutions/08_prefetch_exercises.ipynb", "NOTEBOOK=solutions/08_prefetch_exercises.ipynb "
                                              "is not a shipped notebook"),
    ("exercises/99_nothing.ipynb", "NOTEBOOK=exercises/99_nothing.ipynb is not"),
])
def test_reset_refuses_a_missing_or_unknown_notebook_and_lists_the_valid_ones(repo, notebook,
                                                                            words):
    with pytest.raises(workcopy.WorkcopyError) as error:
        workcopy.reset(notebook, repo, log=quiet)
    message = str(error.value)
    assert words in message
    listed = [line.strip() for line in message.splitlines() if line.startswith("  ")]
    assert listed == ["notebooks/00_welcome.ipynb", "notebooks/08_prefetch.ipynb",
                      "exercises/08_prefetch_exercises.ipynb"]
    assert not (repo / "mywork").exists()  # a refused reset changes nothing


def test_the_command_line_reports_errors_on_stderr_with_a_nonzero_status(repo, capsys):
    assert workcopy.main(["--root", str(repo), "reset"]) == 2
    assert "make reset NOTEBOOK=" in capsys.readouterr().err
    assert workcopy.main(["--root", str(repo), "sync"]) == 0
    assert "made your own copy" in capsys.readouterr().out
