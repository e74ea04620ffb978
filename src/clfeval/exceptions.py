"""The one error type clfeval raises for bad input."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    """Bad input: names the column, its role, the bad value and the fix.

    ``str(err)`` is the message, then a blank line and ``Hint: ...`` when a hint is given.
    The fields are kept as attributes so callers (and tests) can inspect them.

    Examples
    --------
    >>> err = InputError("column 'label' not found", column="label", role="y",
    ...                  rule="missing_column", hint="the frame has ['y', 'p']")
    >>> print(err)
    column 'label' not found
    <BLANKLINE>
    Hint: the frame has ['y', 'p']
    """

    def __init__(
        self,
        message: str,
        *,
        column: str | None = None,
        role: str | None = None,
        rule: str | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.column = column
        self.role = role
        self.rule = rule
        self.hint = hint
        super().__init__(message if hint is None else f"{message}\n\nHint: {hint}")
