"""The project's set-up files agree with each other."""

import pathlib
import re
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _name(requirement):
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower()


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    wanted |= {_name(r) for extra in project["optional-dependencies"].values() for r in extra}
    listed, in_dependencies = set(), False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if not line.startswith(" "):
            in_dependencies = line.startswith("dependencies:")
        match = re.match(r"^  - ([A-Za-z0-9_.\-]+)", line)
        if in_dependencies and match and match.group(1) not in {"python", "pip"}:
            listed.add(match.group(1).lower())
    assert listed == wanted, (f"only in pyproject: {sorted(wanted - listed)}; "
                              f"only in environment.yml: {sorted(listed - wanted)}")


def test_ci_script_runs_make_test_and_stops_on_failure():
    script = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in script and "make test" in script
