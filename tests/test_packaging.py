"""The project's set-up files agree with each other."""

import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _name(requirement):
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower()


def environment_dependencies(text):
    """(conda packages, pip packages) named in an environment.yml's `dependencies:` section.

    Conda packages are the `  - name` items; pip packages the items nested under `  - pip:`.
    `python`, `pip` itself and pip options such as `-e .` are left out.
    """
    conda, pip, section, in_pip = set(), set(), None, False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith(" "):
            section, in_pip = line.split(":")[0], False
            continue
        if section != "dependencies":
            continue
        item = re.match(r"^( *)- (.+)$", line)
        if not item:
            continue
        indent, value = len(item.group(1)), item.group(2).strip()
        if indent == 2:
            in_pip = value == "pip:"
            if not in_pip and _name(value) not in {"python", "pip"}:
                conda.add(_name(value))
        elif in_pip and not value.startswith("-"):
            pip.add(_name(value))
    return conda, pip


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    wanted |= {_name(r) for extra in project["optional-dependencies"].values() for r in extra}
    conda, pip = environment_dependencies((ROOT / "environment.yml").read_text())
    assert not conda & pip, f"listed both for conda and for pip: {sorted(conda & pip)}"
    listed = conda | pip
    assert listed == wanted, (f"only in pyproject: {sorted(wanted - listed)}; "
                              f"only in environment.yml: {sorted(listed - wanted)}")


def test_environment_yml_installs_feedline_itself_with_pip():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^  - pip:\n(?:      .*\n)*      - -e \.$", text, re.MULTILINE)


def test_the_readme_names_the_packages_that_come_from_pip_for_conda_users():
    _, pip = environment_dependencies((ROOT / "environment.yml").read_text())
    readme = (ROOT / "README.md").read_text()
    conda_part = readme[readme.index("environment.yml"):]
    missing = [name for name in sorted(pip) if f"`{name}`" not in conda_part.split("\n\n")[0]]
    assert not missing, f"say in the README, next to environment.yml, that {missing} come from pip"


def test_environment_parser_tells_conda_and_pip_packages_apart():
    text = ("name: x\nchannels:\n  - conda-forge\ndependencies:\n  - python>=3.10\n  - pip\n"
            "  - numpy>=1.24\n  - pip:\n      # why\n      - pyfarmhash>=0.4\n      - -e .\n"
            "variables:\n  - not-a-package\n")
    assert environment_dependencies(text) == ({"numpy"}, {"pyfarmhash"})


def test_ci_script_runs_make_test_and_stops_on_failure():
    script = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in script and "make test" in script
