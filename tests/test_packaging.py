"""A plain ``pip install .`` has everything the package imports, and CI runs the README as written.

The walk below reads every import in ``src/clfeval`` (module level and inside functions) and
every ``.to_numpy()`` call, and checks each third-party module against ``pyproject.toml``:
a module imported at run time must be a runtime dependency, or an optional extra that is
imported only inside a function or a ``try`` (so ``import clfeval`` works without it).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "clfeval"
# import name -> distribution name, where they differ
DISTRIBUTION = {"vl_convert": "vl-convert-python", "sklearn": "scikit-learn"}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_names(requirements: list[str]) -> set[str]:
    return {_norm(re.split(r"[ <>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _imports() -> list[tuple[str, str, bool]]:
    """(file, top-level module, imported lazily) for every third-party import in src/."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        lazy_nodes: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Try):
                lazy_nodes |= {id(n) for n in ast.walk(node) if n is not node}
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                lazy_nodes |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top and top not in sys.stdlib_module_names and top != "clfeval":
                    found.append((path.name, top, id(node) in lazy_nodes))
        if ".to_numpy(" in text:
            found.append((path.name, "numpy", True))
    return found


def test_the_walk_sees_the_known_imports() -> None:
    """The walk is not vacuous: it finds polars at module level and altair inside functions."""
    seen = {(top, lazy) for _, top, lazy in _imports()}
    assert ("polars", False) in seen
    assert ("altair", True) in seen


def test_every_runtime_import_is_declared() -> None:
    project = _project()
    runtime = _requirement_names(project["dependencies"])
    extras = {
        name: _requirement_names(reqs)
        for name, reqs in project["optional-dependencies"].items()
        if name != "test"
    }
    optional = set().union(*extras.values()) if extras else set()
    problems = []
    for file, top, lazy in _imports():
        dist = _norm(DISTRIBUTION.get(top, top))
        if dist in runtime:
            continue
        if dist in optional and lazy:
            continue
        where = "an optional extra imported at module level" if dist in optional else "undeclared"
        problems.append(f"{file}: {top} ({where})")
    assert not problems, problems


def _quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start$(.*?)^## ", readme, re.M | re.S)
    assert section is not None, "README.md has no '## Quick start' section"
    blocks = re.findall(r"```bash\n(.*?)```", section.group(1), re.S)
    return [line.strip() for block in blocks for line in block.strip().splitlines()]


def test_readme_has_two_quick_start_commands() -> None:
    commands = _quick_start_commands()
    assert len(commands) == 2, commands
    demo, tests = commands
    assert "pip install -q -e ." in demo
    assert "[test]" not in demo
    assert demo.endswith("clfeval demo")
    assert "pytest" in tests


def test_ci_runs_the_quick_start_commands_in_order() -> None:
    """.ci/run runs both commands as written, the demo first (in a venv it made itself)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    lines = [line.strip() for line in ci.splitlines()]
    demo, tests = _quick_start_commands()
    assert demo in lines
    assert tests in lines
    assert lines.index(demo) < lines.index(tests)
    removal = [i for i, line in enumerate(lines) if line == "rm -rf .venv"]
    assert removal, "the demo must start from a fresh venv"
    assert removal[0] < lines.index(demo), "the venv is removed before the demo"
