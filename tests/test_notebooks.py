"""The notebooks in ``notebooks/``: committed executed, their charts visible anywhere, and fresh.

Each notebook is committed with its outputs, so that it reads on GitHub or nbviewer without
running. Its charts come through the ``"clfeval"`` Altair renderer: the Vega-Lite spec, which
JupyterLab and VS Code draw with the Vega they ship, and an SVG image of it for every viewer
that does not; nothing refers to a network. The slow test executes each notebook in a fresh
kernel and checks that the committed outputs are what the code gives today, up to what
changes from run to run (execution timings, memory addresses) and the SVG's glyph positions
(which depend on the machine's fonts; the SVG is drawn from the spec, which is compared).

The kernel is a fresh ``python3`` started with this test's interpreter (``sys.executable``,
so the test extras are importable) with this repository's ``src`` first on ``PYTHONPATH``,
whatever kernelspecs the machine has installed: the test writes ipykernel's own spec into a
private ``JUPYTER_PATH`` directory, which Jupyter searches before the user's and the
environment's. The kernel's working directory is a temporary directory, so files a notebook
writes land there.

To refresh the committed outputs after a change: ``python tests/test_notebooks.py --update``.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
import tomllib
from ipykernel.kernelspec import write_kernel_spec
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = {
    "01_quickstart.ipynb",
    "02_multiclass_averaging.ipynb",
    "03_curves_and_calibration.ipynb",
    "04_sql_duckdb.ipynb",
    "05_grouped_comparison.ipynb",
    "06_is_model_b_better.ipynb",
}
VEGALITE = "application/vnd.vegalite.v6+json"
SVG = "image/svg+xml"
MAX_BYTES = 1_500_000  # a notebook file stays small enough to review and to load in a viewer
ADDRESS = re.compile(r" at 0x[0-9a-f]+")


def _code_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def _outputs(nb: nbformat.NotebookNode) -> list:
    return [o for cell in _code_cells(nb) for o in cell.outputs]


def test_every_notebook_is_collected() -> None:
    """The parametrized tests below cannot pass vacuously on an empty or renamed folder."""
    assert {p.name for p in NOTEBOOKS} >= EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_executed_with_charts_that_show_offline(path: Path) -> None:
    """Every code cell ran, in order, without an error; every chart carries its Vega-Lite
    spec and a static SVG of it; no output loads anything from a network."""
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    cells = _code_cells(nb)
    assert cells, f"{path.name} has no code cell"
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    assert not [o for o in _outputs(nb) if o.output_type == "error"]
    assert not [c for c in cells if "execution" in c.metadata], "timings are committed"
    charts = [o for o in _outputs(nb) if VEGALITE in o.get("data", {})]
    assert charts, f"{path.name} shows no chart"
    for out in charts:
        svg = out["data"].get(SVG, "")
        assert svg.startswith("<svg")
        assert svg.rstrip().endswith("</svg>")
        assert svg.count("<path") + svg.count("<line") >= 5  # marks, not an empty frame
        assert "<script" not in svg
    text = json.dumps(list(_outputs(nb)))
    for fetched in ("cdn.jsdelivr", "unpkg.com", "<script src", "require.config"):
        assert fetched not in text, f"{path.name} output fetches {fetched}"
    assert path.stat().st_size < MAX_BYTES


def normalized(nb: nbformat.NotebookNode) -> list:
    """What the code cells show, without what changes from run to run."""
    out = []
    for cell in _code_cells(nb):
        shown = []
        for o in cell.outputs:
            o = copy.deepcopy(dict(o))
            o.pop("metadata", None)
            o.pop("execution_count", None)
            data = o.get("data")
            if data is not None:
                data = dict(data)
                if SVG in data:  # drawn from the spec below; glyph positions follow the fonts
                    data[SVG] = "<svg>"
                if "text/plain" in data:
                    data["text/plain"] = ADDRESS.sub(" at 0x?", "".join(data["text/plain"]))
                o["data"] = data
            if "text" in o:
                o["text"] = "".join(o["text"])
            last = shown[-1] if shown else {}
            if o.get("output_type") == "stream" == last.get("output_type") and o.get(
                "name"
            ) == last.get("name"):  # one print may arrive in two messages: one text
                last["text"] += o["text"]
                continue
            shown.append(o)
        out.append((cell.source, shown))
    return out


def execute(nb: nbformat.NotebookNode, work: Path) -> nbformat.NotebookNode:
    """``nb`` run top to bottom in a fresh kernel whose working directory is ``work``."""
    client = NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(work)}},
    )
    client.execute()
    for cell in _code_cells(nb):
        cell.metadata.pop("execution", None)
    return nb


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Jupyter data directory whose ``kernels/python3`` starts ``sys.executable``."""
    root = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(root / "kernels" / "python3")
    return root


def kernel_environment(jupyter: Path, scratch: Path) -> dict[str, str]:
    """The environment for a private kernel that imports this repository's clfeval."""
    path = os.pathsep.join(p for p in (str(ROOT / "src"), os.environ.get("PYTHONPATH")) if p)
    return {
        "JUPYTER_PATH": str(jupyter),
        "JUPYTER_RUNTIME_DIR": str(scratch / "runtime"),
        "IPYTHONDIR": str(scratch / "ipython"),
        "PYTHONPATH": path,
    }


@pytest.fixture
def private_kernel(jupyter_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point Jupyter at the private kernelspec and keep runtime and IPython files in tmp."""
    for name, value in kernel_environment(jupyter_path, tmp_path).items():
        monkeypatch.setenv(name, value)
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[0] == sys.executable, spec.argv
    work = tmp_path / "work"
    work.mkdir()
    return work


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_and_its_committed_outputs_are_fresh(
    path: Path, private_kernel: Path
) -> None:
    committed = nbformat.read(path, as_version=4)
    before = sorted(NOTEBOOK_DIR.iterdir())
    try:
        ran = execute(copy.deepcopy(committed), private_kernel)
    except CellExecutionError as err:
        pytest.fail(f"{path.name}: a cell raised\n{err}", pytrace=False)
    cells = _code_cells(ran)
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    # warnings (from clfeval, Polars, Altair, ...) print to stderr in a kernel
    stderr = [o.text for o in _outputs(ran) if o.output_type == "stream" and o.name == "stderr"]
    assert not stderr, f"{path.name} wrote to stderr:\n" + "\n".join(stderr)
    assert sorted(NOTEBOOK_DIR.iterdir()) == before, "a notebook wrote into notebooks/"
    import clfeval

    assert Path(clfeval.__file__).is_relative_to(ROOT / "src")  # this checkout's, as the kernel's
    stale = [
        i
        for i, (old, new) in enumerate(zip(normalized(committed), normalized(ran), strict=True))
        if old != new
    ]
    assert not stale, (
        f"{path.name}: the committed outputs of code cells {stale} differ from a fresh run; "
        "refresh them with `python tests/test_notebooks.py --update`"
    )


def _requirement_names(requirements: list[str]) -> set[str]:
    return {
        re.split(r"[<>=!~\[ ;]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements
    }


# what a notebook imports, by the distribution that provides it
DISTRIBUTIONS = {"sklearn": "scikit-learn", "clfeval": None}


def test_notebooks_need_only_the_notebooks_extra() -> None:
    """Every module a notebook imports is the standard library's, a runtime dependency or in
    the ``notebooks`` extra the README tells a user to install; the test extra, which runs them
    here, holds that extra."""
    project = tomllib.loads((NOTEBOOK_DIR.parent / "pyproject.toml").read_text())["project"]
    runtime = _requirement_names(project["dependencies"])
    extra = _requirement_names(project["optional-dependencies"]["notebooks"])
    assert extra <= _requirement_names(project["optional-dependencies"]["test"])
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for cell in _code_cells(nb):
            for module in re.findall(r"^\s*(?:import|from)\s+(\w+)", cell.source, re.MULTILINE):
                if module in sys.stdlib_module_names:
                    continue
                dist = DISTRIBUTIONS.get(module, module)
                assert dist is None or dist in runtime | extra, f"{path.name} imports {module}"


def update(paths: list[Path]) -> None:
    """Execute each notebook in a private kernel and commit its outputs in place."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_kernel_spec(root / "jupyter" / "kernels" / "python3")
        os.environ.update(kernel_environment(root / "jupyter", root))
        for path in paths:
            work = root / "work" / path.stem
            work.mkdir(parents=True)
            nb = execute(nbformat.read(path, as_version=4), work)
            nbformat.write(nb, path)
            print(f"{path.name}: {path.stat().st_size / 1e3:.0f} kB")


if __name__ == "__main__":
    if sys.argv[1:2] != ["--update"]:
        sys.exit("usage: python tests/test_notebooks.py --update [NOTEBOOK ...]")
    update([Path(p).resolve() for p in sys.argv[2:]] or NOTEBOOKS)
