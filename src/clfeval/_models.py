"""Comparing models on the same rows: ``models=`` on the frame functions.

A wide frame holds one prediction column per model (``score_a``, ``score_b``); ``models=``
names them, as a list of columns or a mapping ``{model name: column}``, and the function
returns one result per model, stacked, with a ``model`` column first: the frame that a long
table with ``by="model"`` gives. For functions that read both a predicted label and a score
(``metrics``), a model may map to ``{"yhat": column, "score": column}``.

:func:`comparable` adds this to a function whose signature lists ``models=``: the function
runs once per model on that model's columns (each run checks its own columns, so a message
names the column at fault), and the results are concatenated. A loop over models, never over
rows: each run is the function's own single pass.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import polars as pl

from clfeval._options import group_columns
from clfeval.exceptions import InputError

__all__ = ["MODEL", "Models", "comparable"]

MODEL = "model"  # the output column naming the model, as by="model" on a long frame
Models = Sequence[str] | Mapping[str, str | Mapping[str, str]] | None
F = TypeVar("F", bound=Callable[..., Any])


def _models_error(message: str, hint: str) -> InputError:
    return InputError(message, role="models", rule="models", hint=hint)


def _columns(name: Any, spec: Any, roles: Sequence[str]) -> dict[str, str]:
    """One model's columns by role; a bare column fills the first role."""
    if isinstance(spec, str):
        return {roles[0]: spec}
    if isinstance(spec, Mapping) and spec and all(isinstance(v, str) for v in spec.values()):
        unknown = [r for r in spec if r not in roles]
        if not unknown:
            return dict(spec)
        raise _models_error(
            f"model {name!r} gives {unknown[0]!r}; its columns can be {list(roles)}",
            f"e.g. models={{{name!r}: {{{roles[0]!r}: 'col'}}}}",
        )
    raise _models_error(
        f"model {name!r} must name a column, got {spec!r}",
        f"pass a column name, or a mapping of {list(roles)} to columns",
    )


def model_columns(models: Any, roles: Sequence[str]) -> dict[str, dict[str, str]]:
    """``{model name: {role: column}}`` from a list of columns or a mapping of names."""
    if isinstance(models, Mapping):
        items = list(models.items())
    elif isinstance(models, Sequence) and not isinstance(models, str):
        items = [(c, c) for c in models]
    else:
        raise _models_error(
            f"models must be a list of columns or a mapping {{name: column}}, got {models!r}",
            "e.g. models=['score_a', 'score_b'] or models={'a': 'score_a', 'b': 'score_b'}",
        )
    if not items:
        raise _models_error("models names no model", "list at least one prediction column")
    out: dict[str, dict[str, str]] = {}
    for name, spec in items:
        if not isinstance(name, str) or not name:
            raise _models_error(
                f"model names must be non-empty strings, got {name!r}",
                "name each model with text, e.g. {'a': 'score_a'}",
            )
        if name in out:
            raise _models_error(f"model {name!r} is listed twice", "give each model once")
        out[name] = _columns(name, spec, roles)
    return out


def comparable(*roles: str) -> Callable[[F], F]:
    """Let ``fn(data, y, ..., models=...)`` run once per model on the columns of ``roles``."""

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            models = kwargs.pop("models", None)
            call = signature.bind(*args, **kwargs)
            given = [r for r in roles if call.arguments.get(r) is not None]
            if models is None:
                if not given:
                    raise _models_error(
                        f"{fn.__name__} needs {' or '.join(f'{r}=' for r in roles)} or models=",
                        f"pass the prediction column as {roles[0]}=, or one per model as "
                        "models=[...]",
                    )
                return fn(*args, **kwargs)
            if given:
                raise _models_error(
                    f"models= replaces {given[0]}=: give one of them",
                    f"name every model's column in models=, or pass {given[0]}= alone",
                )
            if MODEL in group_columns(call.arguments.get("by")):
                raise InputError(
                    f"group column {MODEL!r} collides with the column models= adds",
                    role="by",
                    column=MODEL,
                    rule="by_name",
                    hint="group a long frame with by='model', or compare a wide one with "
                    "models=; rename the column to use both",
                )
            parts = []
            for name, columns in model_columns(models, roles).items():
                out = fn(**{**call.arguments, **columns})
                parts.append(out.select(pl.lit(name).alias(MODEL), pl.all()))
            return pl.concat(parts, how="vertical_relaxed")

        return run  # type: ignore[return-value]

    return decorate
