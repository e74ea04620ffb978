"""The package's layout: imports point one way, and the chart and page modules stay small.

Every ``clfeval`` import counts, at module level or inside a function (a function-level import
only hides a cycle until the function runs). The modules of the chart and page layers are
kept under ~600 lines, split by chart family or page (``clfeval.charts``, ``clfeval.pages``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
MODULES = {
    ".".join(p.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__"): p
    for p in sorted(SRC.rglob("*.py"))
}
MAX_LINES = 600
SMALL = [
    name
    for name in MODULES
    if name.startswith(("clfeval.charts", "clfeval.pages")) or name == "clfeval._frames"
]


def imports(name: str) -> set[str]:
    """The clfeval modules ``name`` imports, anywhere in its body."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


def test_the_module_list_is_real() -> None:
    assert {"clfeval", "clfeval.charts", "clfeval.pages.report", "clfeval._frames"} <= set(MODULES)
    assert "clfeval.charts._data" in imports("clfeval.charts._curves")


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components of the import graph: none has two modules."""
    graph = {name: imports(name) for name in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in graph:
        if name not in index:
            visit(name)
    assert cycles == []


def test_charts_draw_frames_and_compute_nothing() -> None:
    """Chart functions take the frames clfeval returns: only ``df.clf.plot`` (``_plot``)
    computes them, and no chart or page module imports the package itself."""
    for name in SMALL:
        assert "clfeval" not in imports(name), name
        if name.startswith("clfeval.charts") and name != "clfeval.charts._plot":
            assert not any(m.startswith("clfeval.pages") for m in imports(name)), name


@pytest.mark.parametrize("name", SMALL)
def test_chart_and_page_modules_stay_small(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it by chart family or page"
