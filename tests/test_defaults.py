"""One default per option, on every surface: ``clfeval._options.DEFAULTS`` is the source.

The walk covers every public function of ``clfeval`` and ``clfeval.sql``, the ``.clf``
namespace, the generated SQL (``clfeval.sql.query``), the DuckDB macros' signatures (parsed
from the SQL files) and the command line's parser. Curves keep scikit-learn's own
``drop_intermediate`` per curve (ROC True, PR and DET False), on every surface too.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import clfeval as ce
from clfeval import _options, sql
from clfeval.cli._parser import build_parser, digits_option

DEFAULTS = _options.DEFAULTS
CURVES = {"roc_curve": True, "pr_curve": False, "det_curve": False}
SCORE_AVERAGED = {"auroc", "average_precision"}  # averages over classes: macro by default


def _public() -> list[tuple[str, Callable[..., Any]]]:
    found = [(name, getattr(ce, name)) for name in ce.__all__]
    found += [(f"sql.{name}", getattr(sql, name)) for name in sql.__all__]
    namespace = pl.DataFrame({"y": [0]}).clf
    found += [
        (f"clf.{name}", getattr(namespace, name))
        for name in dir(namespace)
        if not name.startswith("_") and callable(getattr(namespace, name))
    ]
    return [(n, f) for n, f in found if inspect.isfunction(f) or inspect.ismethod(f)]


def _expected(function: str, option: str) -> Any:
    base = function.split(".")[-1]
    if option == "average" and base in SCORE_AVERAGED:
        return DEFAULTS["score_average"]
    if option == "drop_intermediate":
        return CURVES.get(base)  # None: the generated SQL takes each curve's own default
    return DEFAULTS[option]


def test_the_walk_is_not_vacuous() -> None:
    names = {n for n, _ in _public()}
    assert {"metrics", "f1", "auroc", "sql.roc_curve", "clf.report", "sql.query"} <= names


@pytest.mark.parametrize(("name", "function"), _public(), ids=[n for n, _ in _public()])
def test_python_defaults(name: str, function: Callable[..., Any]) -> None:
    for option, parameter in inspect.signature(function).parameters.items():
        if parameter.default is inspect.Parameter.empty:
            continue
        if option in DEFAULTS or option == "drop_intermediate":
            expected = _expected(name, option)
            got = parameter.default
            assert got == expected, (name, option, got)
            assert type(got) is type(expected), (name, option, got)


def _macro_defaults() -> dict[str, dict[str, str]]:
    """macro name -> {parameter: default as SQL text}, from the SQL files."""
    text = re.sub(r"--[^\n]*", "", sql.text())
    out = {}
    for name, params in re.findall(r"CREATE OR REPLACE MACRO (clf_\w+)\((.*?)\) AS", text, re.S):
        out[name] = dict(re.findall(r"(\w+) := ('[^']*'|[^,\s]+)", params))
    return out


SQL_LITERAL = {
    "average": "'binary'",
    "zero_division": "0.0",
    "pos_label": "1",
    "beta": "1.0",
    "n_bins": "10",
    "strategy": "'uniform'",
}


# multiclass aggregates whose two-class value does not depend on a positive class
POS_UNUSED = {"clf_mcc", "clf_balanced_accuracy", "clf_cohen_kappa"}


def test_sql_macro_defaults() -> None:
    macros = _macro_defaults()
    assert {"clf_metrics", "clf_roc_curve", "clf_precision", "clf_calibration"} <= set(macros)
    for option, literal in SQL_LITERAL.items():  # the table of literals follows DEFAULTS
        value = DEFAULTS[option]
        assert literal == (f"'{value}'" if isinstance(value, str) else str(value)), option
    checked = 0
    for macro, params in macros.items():
        for option, default in params.items():
            base = macro.removeprefix("clf_").removesuffix("_multiclass")
            base = base.removesuffix("_ovr").removesuffix("_ovo")
            if option == "average" and base in SCORE_AVERAGED:  # clf_auroc_multiclass
                assert default == f"'{DEFAULTS['score_average']}'", (macro, default)
            elif option == "multi_class":
                assert default == f"'{DEFAULTS['multi_class']}'", (macro, default)
            elif option == "k":
                assert default == str(DEFAULTS["k"]), (macro, default)
            elif option == "pos_label" and macro in POS_UNUSED:  # given, it raises
                assert default == "NULL", (macro, default)
            elif option == "drop_intermediate":
                assert default == str(CURVES[base]).lower(), (macro, default)
            elif option in SQL_LITERAL:
                assert default == SQL_LITERAL[option], (macro, option, default)
            else:
                continue
            checked += 1
    assert checked > 40  # every macro with these options was compared


def test_generated_sql_defaults() -> None:
    pytest.importorskip("sqlglot")
    from clfeval.sqlgen import query

    params = inspect.signature(query).parameters
    assert params["average"].default == DEFAULTS["average"]
    assert params["zero_division"].default == DEFAULTS["zero_division"]
    assert params["pos_label"].default == DEFAULTS["pos_label"]
    assert params["n_bins"].default == DEFAULTS["n_bins"]
    assert params["drop_intermediate"].default is None  # scikit-learn's per curve, as CURVES


def test_cli_defaults() -> None:
    args = build_parser().parse_args(["report", "p.parquet", "--y", "y", "--yhat", "p"])
    assert args.missing == DEFAULTS["missing"]
    assert args.nonfinite == DEFAULTS["nonfinite"]
    assert digits_option(args) == DEFAULTS["digits"]
    assert args.average is None  # not given: the library's default, binary (a note if unusable)
