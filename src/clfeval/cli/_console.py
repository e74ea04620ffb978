"""What the command line writes to its streams: output that ends quietly when its reader
goes away, notes and progress on stderr, and the one error line.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

from clfeval.cli._errors import input_error

PROG = "clfeval"


class Progress:
    """``[1.2s] stage`` lines on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = bool(getattr(sys.stderr, "isatty", lambda: False)())
        self.start = time.perf_counter()

    def __call__(self, stage: str) -> None:
        if self.enabled:
            print(f"[{time.perf_counter() - self.start:.1f}s] {stage}", file=sys.stderr, flush=True)


class Stdout:
    """Set when the reader of standard output went away (the rest is dropped quietly)."""

    closed = False


def emit(text: str) -> None:
    """Write to standard output; a reader that went away ends the output quietly."""
    if Stdout.closed:
        return
    out = sys.stdout
    if out is None:
        raise input_error(
            "standard output is closed", role="stdout", hint="run clfeval with a standard output"
        )
    try:
        out.write(text if text.endswith("\n") else text + "\n")
        out.flush()
    except BrokenPipeError:
        silence_stdout()
    except UnicodeEncodeError as err:
        raise input_error(
            f"standard output ({out.encoding}) cannot encode {err.object[err.start : err.end]!r}",
            role="stdout",
            hint="use a UTF-8 locale, or set PYTHONIOENCODING=utf-8",
        ) from None


def silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that no later flush (the interpreter's at
    exit included) meets the closed pipe again."""
    Stdout.closed = True
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def print_note(text: str) -> None:
    print(f"{PROG}: note: {one_line(text)}", file=sys.stderr)


def one_line(text: str, limit: int = 1000) -> str:
    """One line: whitespace collapsed, control characters escaped (a column name from a
    file must not drive the terminal), at most ``limit`` characters."""
    text = " ".join(str(text).split())
    text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fail(message: str, hint: str | None = None) -> int:
    line = f"{PROG}: error: {one_line(message)}"
    if hint:
        line += f" (hint: {one_line(hint)})"
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            try:
                print(line, file=sys.stderr, flush=True)
            except UnicodeEncodeError:
                print(line.encode("ascii", "backslashreplace").decode(), file=sys.stderr)
    return 2
