"""Where the command line may write, so that output never lands on input.

An HTML page goes only to a ``.html``/``.htm`` name that is no input file, nor inside an
input directory, and replaces only a page clfeval wrote (it carries the generator marker);
it is written to a temporary file and renamed, so a failure leaves the old file whole.
Standard output may not be an input file. ``sql --install`` writes only into a DuckDB
database file or a new path.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from clfeval.cli._errors import input_error

HTML_SUFFIXES = (".html", ".htm")
HTML_MARKER = b'<meta name="generator" content="clfeval">'
DUCKDB_MAGIC = (8, b"DUCK")  # a DuckDB database file: 8 checksum bytes, then "DUCK"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return a.resolve() == b.resolve()


def _inside(path: Path, directory: Path) -> bool:
    try:
        path.resolve().relative_to(directory.resolve())
    except ValueError:
        return False
    return True


def input_paths(args: argparse.Namespace) -> list[Path]:
    """Every existing file or directory the command reads (glob patterns expanded)."""
    paths: list[str] = []
    if getattr(args, "path", None):
        paths += glob.glob(args.path) if any(ch in args.path for ch in "*?[") else [args.path]
    if getattr(args, "db", None):
        paths.append(args.db)
    return [Path(p) for p in paths if os.path.lexists(p)]


def _is_clfeval_page(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            head = f.read(8192)
    except OSError:
        return False
    return HTML_MARKER in head


def check_page_path(out: str, inputs: Sequence[Path], *, probe: bool = True) -> Path:
    """Where an HTML page may be written: a .html/.htm name that is no input and is either
    new or a page clfeval wrote before."""
    if not out.strip():
        raise input_error(
            "--html is empty", role="html", hint="name the page, e.g. --html report.html"
        )
    path = Path(out)
    if path.suffix.lower() not in HTML_SUFFIXES:
        raise input_error(
            f"--html {out!r} does not end in .html or .htm",
            role="html",
            hint="clfeval writes its page only to a .html or .htm name, so that it can never "
            f"overwrite a data file; e.g. --html {path.stem or 'report'}.html",
        )
    for src in inputs:
        if os.path.lexists(path) and _same_file(path, src):
            raise input_error(
                f"--html {out!r} is the input {str(src)!r}: writing the page there would "
                "destroy the data",
                role="html",
                hint="choose another name for the page",
            )
        if src.is_dir() and _inside(path, src):
            raise input_error(
                f"--html {out!r} is inside the input directory {str(src)!r}",
                role="html",
                hint="write the page outside the dataset, or the next read would meet it",
            )
    if os.path.lexists(path):
        if path.is_dir():
            raise input_error(
                f"--html {out!r} is a directory", role="html", hint="name a file in it instead"
            )
        if not path.is_file():
            raise input_error(
                f"--html {out!r} exists and is not a regular file",
                role="html",
                hint="choose another name for the page",
            )
        if not _is_clfeval_page(path):
            raise input_error(
                f"--html {out!r} already exists and is not a page clfeval wrote, so it is "
                "left alone",
                role="html",
                hint='clfeval replaces only its own pages (they carry <meta name="generator" '
                'content="clfeval">); remove the file yourself or choose another name',
            )
    parent = path.parent
    if not parent.is_dir():
        raise input_error(
            f"the directory {str(parent)!r} of --html {out!r} does not exist",
            role="html",
            hint="create it first, or write the page into an existing directory",
        )
    if probe:  # fail now, not after the work: create (and remove) the temporary file
        tmp = _temporary(path)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except OSError as err:
            raise input_error(
                f"cannot write --html {out!r}: {err.strerror or err}",
                role="html",
                hint="check that the directory is writable and the name not too long",
            ) from None
        with contextlib.suppress(OSError):
            tmp.unlink()
    return path


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_page(path: Path, page: str) -> Path:
    """Write ``page`` to a temporary file beside ``path``, then rename it over ``path``: a
    failure (disk full, interrupted) leaves whatever was at ``path`` whole."""
    tmp = _temporary(path)
    created = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        created = True
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, path)
    except OSError as err:
        if created:
            with contextlib.suppress(OSError):
                tmp.unlink()
        raise input_error(
            f"cannot write --html {str(path)!r}: {err.strerror or err}",
            role="html",
            hint="check that the directory is writable and the disk has room",
        ) from None
    return path


def check_stdout(inputs: Sequence[Path]) -> None:
    """``clfeval report p.csv ... >> p.csv`` would write the report into the data."""
    try:
        out = os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for src in inputs:
        with contextlib.suppress(OSError):
            if os.path.samestat(out, os.stat(src)):
                raise input_error(
                    f"standard output is the input file {str(src)!r}",
                    role="path",
                    hint="redirect the output to another file (a '>' redirection has already "
                    "emptied the input)",
                )


def is_duckdb_file(path: Path) -> bool:
    offset, magic = DUCKDB_MAGIC
    try:
        with open(path, "rb") as f:
            head = f.read(offset + len(magic))
    except OSError:
        return False
    return head[offset:] == magic


def check_install_target(target: str) -> bool:
    """Refuse an ``sql --install`` target that is not a DuckDB database file or a new path
    in an existing directory; return whether the database is new."""
    if not target.strip() or target.strip().lower().startswith(":memory:"):
        raise input_error(
            f"--install {target!r} is no database file: the macros would be lost when "
            "clfeval exits",
            role="install",
            hint="pass a DuckDB database file, or a new path to create one",
        )
    path = Path(target)
    new = not os.path.lexists(path)
    if not new:
        if path.is_dir():
            raise input_error(
                f"--install {target!r} is a directory", role="install", hint="pass a file"
            )
        if not is_duckdb_file(path):
            raise input_error(
                f"--install {target!r} exists and is not a DuckDB database file, so it is "
                "left alone",
                role="install",
                hint="pass a DuckDB database file, or a new path to create one (clfeval never "
                "writes into other files)",
            )
    elif not path.parent.is_dir():
        raise input_error(
            f"the directory {str(path.parent)!r} of --install {target!r} does not exist",
            role="install",
            hint="create it first",
        )
    return new
