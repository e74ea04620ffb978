"""The notebooks in ``notebooks/``: committed without outputs, and each runs top to bottom.

Each notebook is executed in a fresh ``python3`` kernel started with this test's interpreter
(``sys.executable``, so the editable ``clfeval`` and the test extras are importable), whatever
kernelspecs the machine has installed: the test writes ipykernel's own spec into a private
``JUPYTER_PATH`` directory, which Jupyter searches before the user's and the environment's.
The kernel's working directory is a temporary directory, so files a notebook writes land there.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest
import tomllib
from ipykernel.kernelspec import write_kernel_spec
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
EXPECTED = {
    "01_quickstart.ipynb",
    "02_multiclass_averaging.ipynb",
    "03_curves_and_calibration.ipynb",
    "04_sql_duckdb.ipynb",
    "05_grouped_comparison.ipynb",
    "06_is_model_b_better.ipynb",
}


def _code_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [cell for cell in nb.cells if cell.cell_type == "code"]


def test_every_notebook_is_collected() -> None:
    """The parametrized tests below cannot pass vacuously on an empty or renamed folder."""
    assert {p.name for p in NOTEBOOKS} >= EXPECTED


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3"
    cells = _code_cells(nb)
    assert cells, f"{path.name} has no code cell"
    dirty = [
        (i, cell.get("id"))
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        and (cell.outputs or cell.execution_count is not None or "execution" in cell.metadata)
    ]
    assert not dirty, f"{path.name}: cells with outputs or execution counts {dirty}"


@pytest.fixture(scope="module")
def jupyter_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Jupyter data directory whose ``kernels/python3`` starts ``sys.executable``."""
    root = tmp_path_factory.mktemp("jupyter")
    write_kernel_spec(root / "kernels" / "python3")
    return root


@pytest.fixture
def private_kernel(jupyter_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point Jupyter at the private kernelspec and keep runtime and IPython files in tmp."""
    monkeypatch.setenv("JUPYTER_PATH", str(jupyter_path))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert spec.argv[0] == sys.executable, spec.argv
    work = tmp_path / "work"
    work.mkdir()
    return work


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, private_kernel: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    before = sorted(NOTEBOOK_DIR.iterdir())
    client = NotebookClient(
        nb,
        timeout=180,
        kernel_name="python3",
        resources={"metadata": {"path": str(private_kernel)}},
    )
    try:
        client.execute()
    except CellExecutionError as err:
        pytest.fail(f"{path.name}: a cell raised\n{err}", pytrace=False)

    cells = _code_cells(nb)
    assert [c.execution_count for c in cells] == list(range(1, len(cells) + 1))
    errors = [o for c in cells for o in c.outputs if o.output_type == "error"]
    assert not errors, f"{path.name}: {[e.ename for e in errors]}"
    # warnings (from clfeval, Polars, Altair, ...) print to stderr in a kernel
    stderr = [
        o.text for c in cells for o in c.outputs if o.output_type == "stream" and o.name == "stderr"
    ]
    assert not stderr, f"{path.name} wrote to stderr:\n" + "\n".join(stderr)
    assert sorted(NOTEBOOK_DIR.iterdir()) == before, "a notebook wrote into notebooks/"


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
