"""Every check of a plain argument (no data needed), and the one default of each option.

Each function raises :class:`InputError` naming the argument and showing the bad value, or
returns the value in its canonical form. Every surface calls these same functions: the Polars
expressions and frame functions, ``.clf``, ``clfeval.sql``, the generated SQL and the CLI, so
one bad option gets one message wherever it is passed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from typing import Any

from clfeval.exceptions import InputError

AVERAGES = ("binary", "micro", "macro", "weighted", None)
MAX_BINS = 1_000  # calibration and ECE bins; also the CLI's and the SQL macros' limit
MAX_DIGITS = 15  # a float64 has 15-17 significant digits
MAX_CUTS = 100_000  # thresholds(n=): cut points per group
MAX_LABELS = 10_000  # labels=: a confusion matrix of that many classes has 10^8 cells
MAX_BOOT = 100_000  # n_boot=: bootstrap replicates (a percentile needs a few thousand at most)
MAX_SEED = 2**63 - 1  # seed=: a BIGINT in SQL

# One default per option, read by every surface (functions, expressions, clfeval.sql, macros,
# generated SQL, CLI). Curves with a different scikit-learn default name it themselves.
DEFAULTS: dict[str, Any] = {
    "average": "binary",
    "zero_division": 0.0,
    "pos_label": 1,
    "missing": "raise",
    "nonfinite": "raise",
    "beta": 1.0,
    "n_bins": 10,
    "strategy": "uniform",
    "digits": 2,
    "k": 2,
    "multi_class": "ovr",
    "score_average": "macro",
    "adjusted": False,
    "kappa_weights": None,
    "max_fpr": None,
    "n_boot": 1_000,
    "seed": 0,
    "level": 0.95,
    "ddof": 1,
}


def _fail(role: str, message: str, hint: str, rule: str = "option") -> InputError:
    return InputError(message, role=role, rule=rule, hint=hint)


def _is_real(value: Any) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def choice(role: str, value: Any, allowed: Sequence[Any], hint: str) -> Any:
    """``value`` if it is one of ``allowed`` (compared by type too: ``True`` is not ``1``)."""
    if not any(value is a or (type(value) is type(a) and value == a) for a in allowed):
        raise _fail(role, f"{role}={value!r} is not one of {list(allowed)!r}", hint)
    return value


def average(value: Any, allowed: Sequence[Any] = AVERAGES) -> Any:
    return choice(
        "average",
        value,
        allowed,
        "'binary' scores the class pos_label, 'macro' is the plain mean over classes, "
        "'weighted' weights them by support, 'micro' pools the counts, None gives one value "
        "per class",
    )


def zero_division(value: Any) -> float | None:
    """0.0, 1.0 or None (null): what a ratio with a zero denominator becomes."""
    if value is None:
        return None
    if _is_real(value) and value in (0, 1):
        return float(value)
    hint = "None makes an undefined ratio null, and nulls are left out of macro averages"
    if _is_real(value) and math.isnan(value):
        hint = "pass None for null (clfeval never returns NaN; scikit-learn's np.nan is None)"
    raise _fail("zero_division", f"zero_division={value!r} is not 0.0, 1.0 or None", hint)


def mode(role: str, value: Any) -> str:
    """``missing=`` / ``nonfinite=``: "raise" or "drop"."""
    what = "a null" if role == "missing" else "a NaN or infinite score"
    return choice(role, value, ("raise", "drop"), f"'drop' leaves out rows with {what}")


def flag(role: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _fail(role, f"{role}={value!r} is not True or False", f"pass {role}=True or False")
    return value


def class_value(role: str, value: Any) -> Any:
    """A class given as an argument (``pos_label``, an entry of ``labels``): a plain scalar."""
    if isinstance(value, bool | str) or _is_int(value):
        return value
    if _is_real(value) and math.isfinite(value):
        return value
    raise _fail(
        role,
        f"{role}={value!r} cannot be a class",
        "classes are integers, booleans, strings or finite floats, like the values of y",
        rule="pos_label" if role == "pos_label" else "labels",
    )


def labels(value: Any) -> list[Any] | None:
    """None, or a non-empty list of distinct classes."""
    if value is None:
        return None
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise _fail(
            "labels",
            f"labels={value!r} is not a list of classes",
            "pass a list such as labels=[1, 0], or None for every class in the data",
            rule="labels",
        )
    if len(value) > MAX_LABELS:
        raise _fail(
            "labels",
            f"labels= lists {len(value):,} classes, more than {MAX_LABELS:,}",
            "list the classes you want reported (the per-class work grows with their number)",
            rule="labels",
        )
    out = [class_value("labels", v) for v in value]
    if not out:
        raise _fail(
            "labels",
            "labels=[] lists no class",
            "pass at least one class, or labels=None for every class in the data",
            rule="labels_empty",
        )
    if any(isinstance(v, bool) for v in out) and not all(isinstance(v, bool) for v in out):
        out = [int(v) if isinstance(v, bool) else v for v in out]  # True, 0 -> 1, 0 (Python's)
    seen: list[Any] = []
    for v in out:
        if any(v == s for s in seen):  # 1 and 1.0 (and True) are one class in the data
            raise _fail(
                "labels",
                f"labels lists {v!r} twice",
                "list each class once, in the order you want them",
                rule="labels_duplicate",
            )
        seen.append(v)
    return out


def beta(value: Any) -> float:
    """F-beta's β: a number >= 0 (0 gives precision, inf recall)."""
    if not _is_real(value) or math.isnan(value) or value < 0:
        raise _fail(
            "beta",
            f"beta={value!r} is not a number >= 0",
            "beta > 1 weighs recall more, beta < 1 precision (0 is precision, inf recall)",
        )
    return float(value)


KAPPA_WEIGHTS = (None, "linear", "quadratic")


def kappa_weights(value: Any, role: str = "kappa_weights") -> str | None:
    """Cohen's kappa weights: None, "linear" or "quadratic" (``weights=`` on the expression,
    ``kappa_weights=`` where other options share the call)."""
    return choice(
        role,
        value,
        KAPPA_WEIGHTS,
        "cohen_kappa's weights: how far apart two classes are in the class order",
    )


def positive_int(role: str, value: Any, *, low: int = 1, high: int, hint: str) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise _fail(role, f"{role}={value!r} is not an integer from {low} to {high:,}", hint)
    return int(value)


def n_bins(value: Any) -> int:
    return positive_int(
        "n_bins", value, high=MAX_BINS, hint="n_bins is the number of probability bins"
    )


def digits(value: Any) -> int:
    return positive_int(
        "digits", value, low=0, high=MAX_DIGITS, hint="digits is the decimals shown"
    )


def k(value: Any) -> int:
    return positive_int(
        "k", value, high=2**31, hint="k is how many of the highest-scored classes count as a hit"
    )


def fraction(role: str, value: Any, *, open_low: bool = True, hint: str) -> float | None:
    """None, or a number in (0, 1] (``[0, 1]`` with ``open_low=False``)."""
    if value is None:
        return None
    ok = _is_real(value) and not math.isnan(value) and value <= 1
    ok = ok and (value > 0 if open_low else value >= 0)
    if not ok:
        interval = "(0, 1]" if open_low else "[0, 1]"
        raise _fail(role, f"{role}={value!r} is not a number in {interval}", hint)
    return float(value)


def max_fpr(value: Any) -> float | None:
    return fraction(
        "max_fpr", value, hint="max_fpr is the false positive rate where the partial area stops"
    )


def metric_names(value: Any, known: Sequence[str], role: str = "metrics") -> list[str]:
    """A non-empty list of distinct metric names, each one of ``known``."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _fail(
            role,
            f"{role}={value!r} is not a list of metric names",
            f"pass a list such as {role}=['f1']; choose from {list(known)}",
        )
    names = list(value)
    if not names:
        raise _fail(role, f"{role}=[] names no metric", f"choose from {list(known)}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or name not in known:
            raise InputError(
                f"unknown metric {name!r} in {role}=",
                role=role,
                rule="unknown_metric",
                hint=f"choose from {list(known)}",
            )
        if name in names[:i]:
            raise _fail(role, f"{role} lists {name!r} twice", "list each metric once")
    return names


def column_name(role: str, value: Any) -> str:
    if not isinstance(value, str) or not value:
        raise InputError(
            f"{role} must be a column name, got {value!r}",
            role=role,
            rule="column_type",
            hint="pass the column's name as a non-empty string",
        )
    return value


def group_columns(
    by: Any,
    *,
    roles: Mapping[str, str] | None = None,
    outputs: Sequence[str] = (),
    role: str = "by",
) -> list[str]:
    """``by`` as a list of distinct column names that collide with no role and no output.

    A group column named like a column the call reads (``y``, ``yhat``...) or like a column
    of the result (``label``, ``tp``, ``accuracy``...) would be overwritten or ambiguous.
    """
    if by is None:
        return []
    names = [by] if isinstance(by, str) else by
    if not isinstance(names, Sequence):
        raise InputError(
            f"{role}={by!r} is not a column name or a list of them",
            role=role,
            rule="column_type",
            hint="pass by='model' or by=['model', 'region']",
        )
    names = [column_name(role, n) for n in names]
    for i, name in enumerate(names):
        problem = None
        if name in names[:i]:
            problem = "is listed twice"
        elif roles and name in roles.values():
            other = next(r for r, c in roles.items() if c == name)
            problem = f"collides with the {other} column"
        elif name in outputs:
            problem = "collides with an output column of the same name"
        elif name.startswith("__clf_"):
            problem = "uses the prefix '__clf_', reserved for clfeval's working columns"
        if problem is not None:
            raise InputError(
                f"group column {name!r} {problem}",
                column=name,
                role=role,
                rule="by_name",
                hint="group by distinct columns that are neither read by the call nor named "
                "like its output columns; rename one (df.rename({...}))",
            )
    return names


def level(role: str, value: Any) -> float:
    """A confidence level (``ci=``, ``level=``): a number strictly between 0 and 1."""
    if not _is_real(value) or math.isnan(value) or not 0 < value < 1:
        raise _fail(
            role,
            f"{role}={value!r} is not a number in (0, 1)",
            f"{role} is the confidence level of the intervals, e.g. {role}=0.95",
            rule="level",
        )
    return float(value)


def n_boot(value: Any) -> int:
    """Bootstrap replicates: an integer from 1 to :data:`MAX_BOOT`."""
    return positive_int(
        "n_boot",
        value,
        high=MAX_BOOT,
        hint="n_boot is the number of bootstrap replicates; 1,000 to 10,000 give stable "
        "95% percentile intervals",
    )


def seed(value: Any) -> int:
    """The random seed of the bootstrap: an integer from 0 to 2**63 - 1."""
    return positive_int(
        "seed",
        value,
        low=0,
        high=MAX_SEED,
        hint="the same seed gives the same replicates, in Polars and in DuckDB",
    )


def compared(role: str, value: Any, truth: Any = None) -> list[str]:
    """The columns of a paired comparison: a list of at least two distinct column names,
    none of them the truth column ``truth``."""
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _fail(
            role,
            f"{role}={value!r} is not a list of columns to compare",
            f"pass two or more columns of the same rows, e.g. {role}=['model_a', 'model_b']",
            rule="compare",
        )
    names = [column_name(role, v) for v in value]
    if len(names) < 2:
        raise _fail(
            role,
            f"{role}={names!r} names fewer than 2 columns; a comparison needs two",
            "pass the reference column first, then each column to compare with it",
            rule="compare",
        )
    if len(set(names)) < len(names):
        raise _fail(
            role, f"{role}={names!r} lists a column twice", "list each column once", rule="compare"
        )
    if truth is not None and truth in names:
        raise _fail(
            role,
            f"{role}={names!r} lists the truth column {truth!r}",
            "compare the columns of two or more models; the truth is y",
            rule="compare",
        )
    return names


# --- decisions: target prevalence, costs, decision-curve thresholds, folds ------------------

MAX_GRID = 10_000  # decision_curve(thresholds=): threshold probabilities per group


def _share(value: Any) -> bool:
    return _is_real(value) and math.isfinite(value) and 0 < value < 1


def prevalence(value: Any, *, column: bool = True, mapping: bool = True) -> Any:
    """None; a number in (0, 1) (the target share of ``pos_label``); a column name holding
    it per group (``column``); or a mapping ``{class: share}`` of shares in [0, 1] that sum
    to 1 (``mapping``: a target class distribution). Returns the canonical form."""
    hint = (
        "pass the share of pos_label in the population you care about, e.g. prevalence=0.01"
        + (", a column name holding it per group" if column else "")
        + (", or {class: share} with shares summing to 1" if mapping else "")
    )
    if value is None:
        return None
    if _is_real(value):
        if not _share(value):
            raise _fail("prevalence", f"prevalence={value!r} is not a number in (0, 1)", hint)
        return float(value)
    if isinstance(value, str) and column:
        if not value:
            raise _fail("prevalence", "prevalence='' is not a column name", hint)
        return value
    if isinstance(value, Mapping) and mapping:
        if not value:
            raise _fail("prevalence", "prevalence={} gives no class share", hint)
        out: dict[Any, float] = {}
        for k, v in value.items():
            class_value("prevalence", k)
            if not (_is_real(v) and math.isfinite(v) and 0 <= v <= 1):
                raise _fail(
                    "prevalence",
                    f"prevalence gives class {k!r} the share {v!r}, not in [0, 1]",
                    hint,
                )
            out[k] = float(v)
        total = math.fsum(out.values())
        if abs(total - 1.0) > 1e-9:
            raise _fail(
                "prevalence", f"the shares of prevalence={value!r} sum to {total!r}, not 1", hint
            )
        return out
    raise _fail("prevalence", f"prevalence={value!r} is not a number in (0, 1)", hint)


def cost(role: str, value: Any, *, optional: bool = True) -> float | None:
    """A cost or benefit per row: None (when ``optional``) or a finite number >= 0."""
    if value is None and optional:
        return None
    if not (_is_real(value) and math.isfinite(value) and value >= 0):
        raise _fail(
            role,
            f"{role}={value!r} is not a finite number >= 0",
            "costs and benefits are per row, in one unit (e.g. cost_fp=1, cost_fn=20); "
            "a benefit is given as benefit_tp / benefit_tn, never as a negative cost",
        )
    return float(value)


def costs(
    cost_fp: Any, cost_fn: Any, benefit_tp: Any = 0.0, benefit_tn: Any = 0.0
) -> tuple[float, float, float, float] | None:
    """The four per-row values of a binary decision, or None when no cost is given.

    ``cost_fp`` and ``cost_fn`` go together; the benefits default to 0."""
    if cost_fp is None and cost_fn is None:
        if benefit_tp not in (0, None) or benefit_tn not in (0, None):
            cost("benefit_tp", benefit_tp)
            cost("benefit_tn", benefit_tn)
            raise _fail(
                "cost_fp",
                "benefit_tp / benefit_tn need cost_fp= and cost_fn=",
                "pass cost_fp= and cost_fn= (0 is a valid cost)",
            )
        return None
    for role, value in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if value is None:
            other = "cost_fn" if role == "cost_fp" else "cost_fp"
            raise _fail(
                role,
                f"{other}= is given but {role}= is not",
                "pass both cost_fp= and cost_fn= (0 is a valid cost)",
            )
    return (
        cost("cost_fp", cost_fp, optional=False),  # type: ignore[return-value]
        cost("cost_fn", cost_fn, optional=False),
        cost("benefit_tp", 0.0 if benefit_tp is None else benefit_tp, optional=False),
        cost("benefit_tn", 0.0 if benefit_tn is None else benefit_tn, optional=False),
    )


def cost_matrix(value: Any) -> dict[Any, dict[Any, float]]:
    """A multiclass cost matrix ``{actual: {predicted: cost}}``: costs finite and >= 0;
    a pair left out costs 0."""
    hint = "pass {actual: {predicted: cost}}, e.g. {'a': {'b': 1.0}, 'b': {'a': 5.0}}"
    if not isinstance(value, Mapping) or not value:
        raise _fail(
            "costs", f"costs={value!r} is not a mapping {{actual: {{predicted: cost}}}}", hint
        )
    out: dict[Any, dict[Any, float]] = {}
    for actual, row in value.items():
        class_value("costs", actual)
        if not isinstance(row, Mapping):
            raise _fail(
                "costs", f"costs[{actual!r}]={row!r} is not a mapping {{predicted: cost}}", hint
            )
        out[actual] = {}
        for predicted, c in row.items():
            class_value("costs", predicted)
            out[actual][predicted] = cost(f"costs[{actual!r}][{predicted!r}]", c, optional=False)  # type: ignore[assignment]
    return out


def threshold_grid(value: Any, role: str = "thresholds") -> list[float]:
    """Threshold probabilities of a decision curve: default 0.01, 0.02, ..., 0.99; else a
    list of distinct numbers in (0, 1), returned sorted. ``role="prevalences"``: the grid of
    a prevalence curve, by default 199 points evenly spaced in log-odds from 0.001 to 0.999."""
    if value is None and role == "prevalences":
        lo = math.log(0.001 / 0.999)  # logit(0.001); the grid is symmetric about 0.5
        return [1 / (1 + math.exp(-(lo - 2 * lo * i / 198))) for i in range(199)]
    if value is None:
        return [i / 100 for i in range(1, 100)]
    hint = (
        "threshold probabilities t lie in (0, 1) (the odds t / (1 - t) weigh a false positive)"
        if role == "thresholds"
        else "prevalences are shares of pos_label in (0, 1)"
    )
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
        raise _fail("thresholds", f"thresholds={value!r} is not a list of numbers", hint)
    if not value:
        raise _fail("thresholds", "thresholds=[] lists no threshold", hint)
    if len(value) > MAX_GRID:
        raise _fail(
            "thresholds", f"thresholds= lists {len(value):,} values, more than {MAX_GRID:,}", hint
        )
    for t in value:
        if not _share(t):
            raise _fail("thresholds", f"thresholds holds {t!r}, not a number in (0, 1)", hint)
    grid = sorted(float(t) for t in value)
    if len(set(grid)) < len(grid):
        raise _fail("thresholds", "thresholds lists a value twice", "list each threshold once")
    return grid


def ddof(value: Any) -> int:
    """The delta degrees of freedom of the standard deviation over folds: 0 or 1."""
    if not _is_int(value) or value not in (0, 1):
        raise _fail(
            "ddof",
            f"ddof={value!r} is not 0 or 1",
            "ddof=1 (the default) is the sample standard deviation over folds; 0 divides by k",
        )
    return int(value)
