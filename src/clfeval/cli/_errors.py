"""The command line's errors: a usage problem, and the ``InputError`` of a bad value.

Both end as one line on stderr (see :func:`clfeval.cli.main`); nothing here prints.
"""

from __future__ import annotations


class UsageError(Exception):
    """A command-line usage problem (from argparse, or a bad combination of options)."""

    def __init__(self, message: str, prog: str | None = None) -> None:
        super().__init__(message)
        self.prog = prog


def input_error(
    message: str, *, role: str | None = None, column: str | None = None, hint: str | None = None
) -> Exception:
    from clfeval.exceptions import InputError

    return InputError(message, role=role, column=column, rule="cli", hint=hint)


def first_line(err: BaseException) -> str:
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__
