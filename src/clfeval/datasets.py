"""Example data: the worked examples of the lessons clfeval was built from, and generated data.

- :func:`patients`: 20 patients, a score per patient and the label at threshold 0.5.
- :func:`triage`: 200 patients sorted into low / medium / high risk (a 3-class matrix).
- :func:`predictions`: two models scoring the same cases in three regions (binary, large).
- :func:`predictions_multiclass`: the same layout with three classes and one probability
  column per class.

Everything is built in memory (no files, no downloads) and is deterministic: the generated
frames draw their random numbers from ``random.Random(seed)``, so a seed gives the same rows
on every platform and Python version.
"""

from __future__ import annotations

import random

import polars as pl

__all__ = [
    "TRIAGE_CLASSES",
    "patients",
    "predictions",
    "predictions_multiclass",
    "triage",
]

# Seed 003 §2: 20 patients referred to a specialist, sorted by the model's score; 1 = sick.
_PATIENT_SCORE = [0.95, 0.90, 0.85, 0.80, 0.75, 0.70, 0.65, 0.60, 0.55, 0.45,
                  0.40, 0.35, 0.30, 0.25, 0.20, 0.15, 0.10, 0.08, 0.05, 0.02]  # fmt: skip
_PATIENT_Y = [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]

#: The class order of :func:`triage` and :func:`predictions_multiclass`.
TRIAGE_CLASSES = ("low", "medium", "high")
# Seed 003 §12: rows are the truth, columns the prediction, both in TRIAGE_CLASSES order.
_TRIAGE_MATRIX = ((110, 9, 1), (8, 46, 6), (2, 8, 10))

_MODELS = ("logistic", "boosted")
# region, share of the cases, shift of the log-odds of being positive
_REGIONS = (("north", 0.5, 0.0), ("south", 0.3, 0.45), ("west", 0.2, -0.5))


def patients() -> pl.DataFrame:
    """The 20 patients of the lesson: ``id``, ``y`` (1 = sick), ``score``, ``yhat = score >= 0.5``.

    Ten are sick and ten healthy; at the threshold 0.5 the counts are TP 7, FN 3, FP 2,
    TN 8 (accuracy 0.75, precision 7/9, recall 0.7). Rows are sorted by score, highest
    first; ``id`` runs ``P01`` to ``P20``. No value is null.

    Returns
    -------
    pl.DataFrame
        ``id`` (String), ``y`` (Int64), ``score`` (Float64), ``yhat`` (Int64).

    Examples
    --------
    >>> df = patients()
    >>> df.shape, df["y"].sum(), df["yhat"].sum()
    ((20, 4), 10, 9)
    """
    return pl.DataFrame(
        {
            "id": [f"P{i:02d}" for i in range(1, 21)],
            "y": _PATIENT_Y,
            "score": _PATIENT_SCORE,
        },
        schema={"id": pl.String, "y": pl.Int64, "score": pl.Float64},
    ).with_columns((pl.col("score") >= 0.5).cast(pl.Int64).alias("yhat"))


def triage() -> pl.DataFrame:
    """The triage example: 200 patients, true and predicted risk level, one row per patient.

    The confusion matrix (rows actual, columns predicted, order low, medium, high) is
    ``[[110, 9, 1], [8, 46, 6], [2, 8, 10]]``: accuracy 166/200 = 0.83, macro F1 0.735.
    Both columns are ``pl.Enum(TRIAGE_CLASSES)``, so reports list the classes in risk order
    rather than alphabetically. Rows are grouped by (actual, predicted) in matrix order.

    Returns
    -------
    pl.DataFrame
        ``y`` and ``yhat``, both ``Enum(["low", "medium", "high"])``.

    Examples
    --------
    >>> df = triage()
    >>> df.height, (df["y"] == df["yhat"]).sum()
    (200, 166)
    """
    y: list[str] = []
    yhat: list[str] = []
    for actual, row in zip(TRIAGE_CLASSES, _TRIAGE_MATRIX):
        for predicted, count in zip(TRIAGE_CLASSES, row):
            y += [actual] * count
            yhat += [predicted] * count
    enum = pl.Enum(TRIAGE_CLASSES)
    return pl.DataFrame({"y": y, "yhat": yhat}, schema={"y": enum, "yhat": enum})


def _check_size(n: int, seed: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an integer, got {seed!r}")


def _cases(n: int, rng: random.Random) -> pl.DataFrame:
    """``id``, ``region``, the region's shift, a standard normal feature ``x``, a uniform ``u``."""
    cut_south = _REGIONS[0][1]
    cut_west = cut_south + _REGIONS[1][1]
    regions = []
    shifts = []
    for _ in range(n):
        r = rng.random()
        name, _, shift = _REGIONS[0 if r < cut_south else 1 if r < cut_west else 2]
        regions.append(name)
        shifts.append(shift)
    x = [rng.gauss(0.0, 1.0) for _ in range(n)]
    u = [rng.random() for _ in range(n)]
    return pl.DataFrame(
        {"id": range(n), "region": regions, "shift": shifts, "x": x, "u": u},
        schema={
            "id": pl.Int64,
            "region": pl.String,
            "shift": pl.Float64,
            "x": pl.Float64,
            "u": pl.Float64,
        },
    )


def _sigmoid(z: pl.Expr) -> pl.Expr:
    return 1.0 / (1.0 + (-z).exp())


def predictions(n: int = 20_000, seed: int = 0) -> pl.DataFrame:
    """Two models scoring the same ``n`` cases in three regions: ``2 * n`` rows, long format.

    Each case has a true probability ``p = sigmoid(-1.15 + shift(region) + 1.5 x)`` with
    ``x ~ N(0, 1)``; its label ``y`` is drawn from ``p`` (about 30% positive: north 31%,
    south 39%, west 23%; regions hold about 50/30/20% of the cases). Each model reports a
    score on the log-odds scale of ``p`` plus noise, rounded to 4 decimals (so scores tie,
    as real model outputs do): ``logistic`` is shrunk and noisier (AUROC about 0.79),
    ``boosted`` sharper (about 0.81); both are roughly calibrated. ``yhat`` is
    ``score >= 0.5``. No value is null; the same ``seed`` gives the same rows.

    Parameters
    ----------
    n
        Number of cases; the frame has one row per case and model.
    seed
        Seed of ``random.Random``.

    Returns
    -------
    pl.DataFrame
        ``model`` (String: logistic, boosted), ``id`` (Int64, the case), ``region``
        (String: north, south, west), ``y`` (Int64, 0/1), ``score`` (Float64 in [0, 1]),
        ``yhat`` (Int64), ordered by model then id.

    Examples
    --------
    >>> df = predictions(1_000, seed=1)
    >>> df.shape, sorted(df["model"].unique())
    ((2000, 6), ['boosted', 'logistic'])
    """
    _check_size(n, seed)
    rng = random.Random(seed)
    cases = _cases(n, rng)
    noise = {m: [rng.gauss(0.0, 1.0) for _ in range(n)] for m in _MODELS}
    z = -1.15 + pl.col("shift") + 1.5 * pl.col("x")
    cases = cases.with_columns((pl.col("u") < _sigmoid(z)).cast(pl.Int64).alias("y"))
    # model log-odds: slope on the true log-odds, offset, noise sd
    spec = {"logistic": (0.8, -0.2, 0.5), "boosted": (1.0, 0.0, 0.35)}
    frames = []
    for model in _MODELS:
        slope, offset, sd = spec[model]
        logit = slope * z + offset + sd * pl.Series("noise", noise[model])
        frames.append(
            cases.select(
                pl.lit(model).alias("model"),
                "id",
                "region",
                "y",
                _sigmoid(logit).round(4).alias("score"),
            )
        )
    return pl.concat(frames).with_columns((pl.col("score") >= 0.5).cast(pl.Int64).alias("yhat"))


def predictions_multiclass(n: int = 20_000, seed: int = 0) -> pl.DataFrame:
    """Two models assigning ``n`` cases to low / medium / high risk: ``2 * n`` rows, long format.

    The true class probabilities are ``softmax(0, -0.9 + 1.2 x, -2.6 + 2.0 x)`` over
    (low, medium, high) with ``x ~ N(0, 1)`` (about 60/30/10% of the cases); ``y`` is drawn
    from them. Each model's probabilities are the softmax of its own noisy version of those
    log-odds (``boosted`` less noisy than ``logistic``), so the three columns ``p_low``,
    ``p_medium``, ``p_high`` sum to 1 (to rounding error, about 1e-16) in every row.
    ``yhat`` is the class with the highest probability (the first on a tie). No value is
    null; the same ``seed`` gives the same rows.

    Parameters
    ----------
    n
        Number of cases; the frame has one row per case and model.
    seed
        Seed of ``random.Random``.

    Returns
    -------
    pl.DataFrame
        ``model``, ``id``, ``region`` as in :func:`predictions`; ``y`` and ``yhat`` as
        ``Enum(["low", "medium", "high"])``; ``p_low``, ``p_medium``, ``p_high`` (Float64).

    Examples
    --------
    >>> df = predictions_multiclass(500)
    >>> df.select(pl.sum_horizontal("p_low", "p_medium", "p_high").sub(1).abs().max()).item() < 1e-12
    True
    """
    _check_size(n, seed)
    rng = random.Random(seed)
    cases = _cases(n, rng)
    noise = {
        (m, k): [rng.gauss(0.0, 1.0) for _ in range(n)] for m in _MODELS for k in TRIAGE_CLASSES
    }
    x = pl.col("x")
    true_logits = {"low": pl.lit(0.0), "medium": -0.9 + 1.2 * x, "high": -2.6 + 2.0 * x}
    total = pl.sum_horizontal([e.exp() for e in true_logits.values()])
    p_low = true_logits["low"].exp() / total
    p_medium = true_logits["medium"].exp() / total
    enum = pl.Enum(TRIAGE_CLASSES)
    u = pl.col("u")
    y = (
        pl.when(u < p_low)
        .then(pl.lit("low"))
        .when(u < p_low + p_medium)
        .then(pl.lit("medium"))
        .otherwise(pl.lit("high"))
        .cast(enum)
    )
    cases = cases.with_columns(y.alias("y"))
    spec = {"logistic": (0.8, 0.6), "boosted": (1.0, 0.35)}  # slope, noise sd
    cols = [f"p_{k}" for k in TRIAGE_CLASSES]
    frames = []
    for model in _MODELS:
        slope, sd = spec[model]
        logits = [
            slope * true_logits[k] + sd * pl.Series(f"noise_{k}", noise[model, k])
            for k in TRIAGE_CLASSES
        ]
        top = pl.max_horizontal(logits)  # subtract the max so exp never overflows
        exps = [(lg - top).exp() for lg in logits]
        frames.append(
            cases.select(
                pl.lit(model).alias("model"),
                "id",
                "region",
                "y",
                *[(e / pl.sum_horizontal(exps)).alias(c) for e, c in zip(exps, cols)],
            )
        )
    out = pl.concat(frames)
    best = pl.max_horizontal(cols)
    yhat = pl.when(pl.col(cols[0]) == best).then(pl.lit(TRIAGE_CLASSES[0]))
    for c, k in zip(cols[1:], TRIAGE_CLASSES[1:]):
        yhat = yhat.when(pl.col(c) == best).then(pl.lit(k))
    return out.with_columns(yhat.cast(enum).alias("yhat"))
