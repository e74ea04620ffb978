"""``clfeval demo``: the report of ``clfeval.datasets.predictions()`` (two models, 20,000
cases) by model, and its HTML page (default ``clfeval-demo.html``).
"""

from __future__ import annotations

import argparse

from clfeval.cli._console import Progress, emit
from clfeval.cli._parser import digits_option
from clfeval.cli._paths import check_page_path, write_page


def run(args: argparse.Namespace) -> int:
    import clfeval as ce
    from clfeval import datasets

    digits = digits_option(args)
    out = args.html if args.html is not None else "clfeval-demo.html"
    path = check_page_path(out, [])
    progress = Progress()
    df = datasets.predictions()
    progress(f"generated clfeval.datasets.predictions() ({df.height:,} rows)")
    rep = ce.report(df, "y", "yhat", score="score", by="model", digits=digits)
    progress("report")
    emit(str(rep))
    page = ce.report_html(
        df,
        "y",
        "yhat",
        score="score",
        by="model",
        digits=digits,
        title="clfeval demo: two models, 20,000 cases",
    )
    write_page(check_page_path(out, [], probe=False), page.to_html())
    progress(f"html {path}")
    emit(f"\nThe HTML report (charts included, opens offline) is in {path.resolve()}")
    return 0
