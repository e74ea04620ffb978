"""Shared fixtures: the Polars engines every frame-level test runs on."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # `from strategies import ...` in every mode

from strategies import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """``"eager"`` (DataFrame), ``"lazy"`` (LazyFrame, in-memory collect) or ``"streaming"``."""
    return request.param


# --- a PostgreSQL server of the suite's own ------------------------------------------------


def _pg_bin() -> Path | None:
    """The newest Debian PostgreSQL server binaries (``.ci/postgres-setup.sh`` installs them)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parent.parent.name
    )
    return found[-1].parent if found else None


@pytest.fixture(scope="session")
def postgres():
    """A connection (psycopg, autocommit) to a PostgreSQL server the suite starts itself: a
    new cluster in a temporary directory, a Unix socket there and no TCP port, run as the
    ``postgres`` user when the tests run as root; stopped at the end of the session."""
    import subprocess
    import tempfile

    bin_dir = _pg_bin()
    if bin_dir is None:
        if os.environ.get("CI"):  # .ci/postgres-setup.sh installs it: missing there is a failure
            pytest.fail("PostgreSQL is not installed: .ci/postgres-setup.sh should have done it")
        pytest.skip("the PostgreSQL tests need Debian's postgresql: run .ci/postgres-setup.sh")
    psycopg = pytest.importorskip("psycopg")
    home = Path(tempfile.mkdtemp(prefix="clfeval-pg-"))  # not under pytest's 0700 root dirs
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(home, user="postgres")
    data = home / "data"
    subprocess.run(
        [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
         "--no-sync", "-E", "UTF8", "--locale=C"],
        check=True, capture_output=True,
    )  # fmt: skip
    options = f"-k {home} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
    ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-t", "120"]
    subprocess.run([*ctl, "-o", options, "-l", str(home / "log"), "start"], check=True,
                   capture_output=True)  # fmt: skip
    try:
        con = psycopg.connect(host=str(home), user="postgres", dbname="postgres", autocommit=True)
        yield con
        con.close()
    finally:
        subprocess.run([*ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def spark(tmp_path_factory: pytest.TempPathFactory):
    """One local Spark session per test process (every Spark test file shares it: a second
    session in the process would be the same one, and stopping it would stop both)."""
    if shutil.which("java") is None:
        if os.environ.get("CI"):  # .ci/spark-setup.sh installs Java: missing there is a failure
            pytest.fail("java is not installed: .ci/spark-setup.sh should have done it")
        pytest.skip("Spark needs Java 17: run .ci/spark-setup.sh")
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("clfeval-tests")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(tmp_path_factory.mktemp("spark-warehouse")))
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.showConsoleProgress", "false")
        # Tiny inputs: whole-stage code generation and adaptive planning cost more than they save.
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.adaptive.enabled", "false")
        # Short-lived JVM: the C1 compiler only and a serial GC start and run ~2x faster here.
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
