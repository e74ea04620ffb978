"""The score and probability capabilities of the generated SQL: thresholds, curves, areas,
log loss, Brier, calibration."""

from __future__ import annotations

import sys

from clfeval._metrics import THRESHOLD_METRICS, Counts, binary_formulas
from clfeval.sqlgen._tree import _c, _case, _dbl, _f, _n, _null, _Sql, _SqlAlgebra, _union, exp

EPS = sys.float_info.epsilon  # numpy.finfo(float64).eps: scikit-learn's log-loss clip
PT = ("_clf_s", "_clf_tp", "_clf_fp", "_clf_npos", "_clf_nneg", "_clf_i")  # a curve point
RATES = THRESHOLD_METRICS  # the thresholds table's metrics, as in Polars


class ScoreParts:
    """The builder's score and probability capabilities (a mixin of
    :class:`clfeval.sqlgen._tree.Base`)."""

    # -- score capabilities ---------------------------------------------------------------

    def score_source(self, y: str, score: str, *, curve: bool = True) -> None:
        """_clf_tot: per distinct score, its positive and negative weight (dp, dn), the
        running tp and fp from the highest score down, its rank i and the totals.

        ``curve``: leave out zero-weight rows, as scikit-learn does before it picks thresholds;
        areas keep them (they add nothing), so a group whose weights are all 0 stays, as null.
        """
        s = _dbl(_c(score))
        is_pos = _c(y).eq(self.pos.copy())
        where = self.valid(y, score, nan=s.copy())
        self.guard(where.copy())
        if self.weight is not None and curve:
            where = exp.and_(where, _c(self.weight).neq(0))
        pos, neg = (
            _case((is_pos, self.w()), default=self.zero()),
            _case((is_pos.copy(), self.zero()), default=self.w()),
        )
        self.cte(
            "_clf_ssrc",
            self.sel(self.table, ("_clf_s", s), ("_clf_pos", pos), ("_clf_neg", neg), where=where),
        )
        self.score_points("_clf_ssrc")

    def score_points(self, src: str, prefix: str = "_clf") -> None:
        """{prefix}_tot from the rows of ``src`` (_clf_s, _clf_pos, _clf_neg weights): per
        partition (the groups, and per class with :meth:`by_also`) and distinct score."""
        sums = [
            ("_clf_dp", self.count(exp.Sum(this=_c("_clf_pos")))),
            ("_clf_dn", self.count(exp.Sum(this=_c("_clf_neg")))),
        ]
        self.cte(f"{prefix}_pts", self.sel(src, "_clf_s", *sums, group=["_clf_s"]))
        running = [
            (
                f"_clf_{k}",
                self.count(self.win(exp.Sum(this=_c(d)), "_clf_s", running=True)),
            )
            for k, d in (("tp", "_clf_dp"), ("fp", "_clf_dn"))
        ]
        self.cte(
            f"{prefix}_cum",
            self.sel(
                f"{prefix}_pts",
                "_clf_s",
                "_clf_dp",
                "_clf_dn",
                *running,
                ("_clf_i", self.win(exp.RowNumber(), "_clf_s")),
            ),
        )
        totals = [
            ("_clf_npos", self.win(exp.Max(this=_c("_clf_tp")))),
            ("_clf_nneg", self.win(exp.Max(this=_c("_clf_fp")))),
        ]
        self.cte(
            f"{prefix}_tot",
            self.sel(
                f"{prefix}_cum",
                "_clf_s",
                "_clf_dp",
                "_clf_dn",
                "_clf_tp",
                "_clf_fp",
                "_clf_i",
                *totals,
            ),
        )

    def thresholds(self) -> exp.Select:
        tp, fp, P, N = _c("_clf_tp"), _c("_clf_fp"), _c("_clf_npos"), _c("_clf_nneg")
        counts = [
            ("threshold", _c("_clf_s")),
            ("tp", tp),
            ("fp", fp),
            ("fn", P - tp),
            ("tn", N - fp),
        ]
        self.cte(
            "_clf_thr",
            self.sel(
                "_clf_tot", "_clf_i", *counts, "_clf_npos", "_clf_nneg", ("_clf_pp", _dbl(tp + fp))
            ),
        )
        tp, P, N, pp = (_Sql(_dbl(_c(k))) for k in ("tp", "_clf_npos", "_clf_nneg", "_clf_pp"))
        counts = Counts(tp=tp, pred=pp, support=P, total=P + N)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, RATES)
        rates = [values[name].node for name in RATES]
        body = self.sel("_clf_thr", "threshold", "tp", "fp", "fn", "tn", *zip(RATES, rates))
        return self.finish(body, "_clf_i")

    def keep(self, src: str, *, second: bool) -> str:
        """scikit-learn's drop_intermediate survivors: the first, the last and the corners."""
        x = lambda name, f=None: self.win(f(this=_c(name)), "_clf_i", desc=False) if f else _c(name)  # noqa: E731
        edge = _null(x("_clf_tp", exp.Lag)) | _null(x("_clf_tp", exp.Lead))
        if second:  # ROC: np.diff(v, 2) != 0 for tp or fp, i.e. (next - v) - (v - prev) != 0
            bends = [
                ((x(v, exp.Lead) - x(v)) - (x(v) - x(v, exp.Lag))).neq(0)
                for v in ("_clf_tp", "_clf_fp")
            ]
            keep = exp.or_(edge, *bends)
        else:  # PR and DET: tp differs from the previous or the next point
            keep = exp.or_(
                edge,
                x("_clf_tp").neq(x("_clf_tp", exp.Lag)),
                x("_clf_tp", exp.Lead).neq(x("_clf_tp")),
            )
        self.cte(f"{src}_k", self.sel(src, *PT, ("_clf_keep", keep)))
        return f"{src}_k"

    def start_row(self) -> exp.Select:
        """The point at threshold +inf (tp = fp = 0) that ROC and DET start from."""
        zeros = [
            ("_clf_s", self.fconst(float("inf"))),
            ("_clf_tp", self.count(_n(0))),
            ("_clf_fp", self.count(_n(0))),
        ]
        return self.sel(
            "_clf_tot",
            *zeros,
            "_clf_npos",
            "_clf_nneg",
            ("_clf_i", _n(0)),
            where=_c("_clf_i").eq(1),
        )

    def points(self, src: str, keep: bool) -> exp.Select:
        return self.sel(src, *PT, where=_c("_clf_keep") if keep else None)

    def roc_curve(self, keep: bool) -> exp.Select:
        self.cte(
            "_clf_roc",
            _union(
                self.points(self.keep("_clf_tot", second=True) if keep else "_clf_tot", keep),
                self.start_row(),
            ),
        )
        rates = [
            ("fpr", self.div(_c("_clf_fp"), _c("_clf_nneg"))),
            ("tpr", self.div(_c("_clf_tp"), _c("_clf_npos"))),
        ]
        return self.finish(self.sel("_clf_roc", ("threshold", _c("_clf_s")), *rates), "_clf_i")

    def pr_curve(self, keep: bool) -> exp.Select:
        src = self.keep("_clf_tot", second=False) if keep else "_clf_tot"
        tp, fp = _c("_clf_tp"), _c("_clf_fp")
        points = self.sel(
            src,
            ("threshold", _c("_clf_s")),
            ("precision", self.div(tp, tp + fp, _f(0))),
            ("recall", self.div(tp, _c("_clf_npos"), _f(1))),  # scikit-learn: 1 without positives
            ("_clf_o", -_c("_clf_i")),
            where=_c("_clf_keep") if keep else None,
        )
        end = self.sel("_clf_tot", _dbl(exp.null()), _f(1), _f(0), _n(0), where=_c("_clf_i").eq(1))
        self.cte("_clf_prc", _union(points, end))
        return self.finish(self.sel("_clf_prc", "threshold", "precision", "recall"), "_clf_o")

    def det_curve(self, keep: bool) -> exp.Select:
        self.cte("_clf_det", _union(self.start_row(), self.points("_clf_tot", False)))
        self.cte(
            "_clf_detk",
            self.points(self.keep("_clf_det", second=False) if keep else "_clf_det", keep),
        )
        near = [("_clf_nfp", self.win(exp.Lead(this=_c("_clf_fp")), "_clf_i", desc=False))]
        near += [("_clf_ptp", self.win(exp.Lag(this=_c("_clf_tp")), "_clf_i", desc=False))]
        self.cte("_clf_detn", self.sel("_clf_detk", *PT, *near))
        # From the last point with fp = 0 to the first point with tp = P, both included.
        fp, tp, nfp, ptp, P = (
            _c(k) for k in ("_clf_fp", "_clf_tp", "_clf_nfp", "_clf_ptp", "_clf_npos")
        )
        span = exp.Paren(this=fp.neq(0) | _null(nfp) | nfp.copy().neq(0)).and_(
            exp.Paren(this=tp.neq(P) | _null(ptp) | ptp.copy().neq(P.copy()))
        )
        rates = [
            ("fpr", self.div(_c("_clf_fp"), _c("_clf_nneg"))),
            ("fnr", self.div(_c("_clf_npos") - _c("_clf_tp"), _c("_clf_npos"))),
        ]
        body = self.sel("_clf_detn", ("threshold", _c("_clf_s")), *rates, where=span)
        return self.finish(body, exp.Ordered(this=_c("_clf_i"), desc=True, nulls_first=False))

    def score_select(
        self, *names: str, prefix: str = "_clf", max_fpr: float | None = None
    ) -> exp.Select:
        """AUROC: trapezoids over distinct scores (Mann-Whitney, ties half), McClish's
        standardised partial area with ``max_fpr``; AP: step sum. Also _clf_npos (the
        positive weight, a class's support per class) for the averages."""
        dn, dp, tp, fp = (_dbl(_c(k)) for k in ("_clf_dn", "_clf_dp", "_clf_tp", "_clf_fp"))
        # each factor divided by its total before the product, so huge weights cannot overflow
        width = self.div(dn, _dbl(_c("_clf_nneg")))
        height = self.div(_f(2) * tp - dp, _dbl(_c("_clf_npos")))
        sums = [
            ("_clf_area", exp.Sum(this=width * height)),
            ("_clf_ap", exp.Sum(this=dp.copy() * self.div(tp.copy(), tp.copy() + fp, _f(0)))),
            ("_clf_npos", _dbl(exp.Max(this=_c("_clf_npos")))),
            ("_clf_nneg", _dbl(exp.Max(this=_c("_clf_nneg")))),
        ]
        partial = max_fpr is not None and max_fpr != 1
        if partial:
            sums.append(("_clf_parea", exp.Sum(this=self.partial_segment(float(max_fpr)))))
        self.cte(f"{prefix}_area", self.sel(f"{prefix}_tot", *sums, group=[]))
        P, N = _c("_clf_npos"), _c("_clf_nneg")
        area = _c("_clf_area") / _f(2)
        if partial:  # McClish: 0.5 for a random ranking, 1 for a perfect one
            m = self.fconst(float(max_fpr))
            lo = self.fconst(0.5 * float(max_fpr) * float(max_fpr))
            area = _f(1) + (_c("_clf_parea") - lo) / (m - lo.copy())
            area = self.fconst(0.5) * exp.Paren(this=area)
        values = {
            "auroc": _case(
                (exp.or_(P.eq(0), N.eq(0)), _dbl(exp.null())), default=area
            ),  # null with one class
            # null without positives (scikit-learn: 0.0), as clf_average_precision
            "average_precision": self.div(_c("_clf_ap"), P.copy()),
            "_clf_npos": P.copy(),
            "_clf_nneg": N.copy(),
        }
        return self.sel(f"{prefix}_area", *((n, values[n]) for n in names))

    def partial_segment(self, m: float) -> exp.Expr:
        """The area of one ROC segment left of fpr = m, from the previous point (x0, y0) to
        this one (x, y): in full when x <= m, up to m (the height at m interpolated, as
        np.interp) when it crosses m, else 0. The previous point is this one less its own
        steps (dn, dp)."""
        P, N = _dbl(_c("_clf_npos")), _dbl(_c("_clf_nneg"))
        tp, fp, dp, dn = (_dbl(_c(k)) for k in ("_clf_tp", "_clf_fp", "_clf_dp", "_clf_dn"))
        x, y = self.div(fp, N), self.div(tp, P)
        x0, y0 = self.div(fp.copy() - dn, N.copy()), self.div(tp.copy() - dp, P.copy())
        mm = self.fconst(m)
        at_m = self.div(y.copy() - y0.copy(), x.copy() - x0.copy()) * (mm - x0.copy()) + y0.copy()
        full = (x.copy() - x0.copy()) * (y.copy() + y0.copy()) / _f(2)
        cut = (mm.copy() - x0.copy()) * (y0.copy() + at_m) / _f(2)
        return _case((x <= mm.copy(), full), (x0 <= mm.copy(), cut), default=_f(0))

    # -- probability capabilities ---------------------------------------------------------

    def prob_source(self, y: str, proba: str) -> None:
        p = _dbl(_c(proba))
        yb = _case((_c(y).eq(self.pos.copy()), _n(1)), default=_n(0))
        cols = [("_clf_yb", yb), ("_clf_pr", p), ("_clf_w", _dbl(self.w()))]
        where = self.valid(y, proba, nan=p.copy())
        self.cte("_clf_psrc", self.sel(self.table, *cols, where=where))
        self.guard(where.copy(), proba=p.copy())

    def clip(self, e: exp.Expr) -> exp.Expr:
        """scikit-learn's clip of a probability to [eps, 1 - eps] before the log."""
        lo, hi = self.fconst(EPS), self.fconst(1.0 - EPS)
        return _case((e < lo, lo.copy()), (e.copy() > hi, hi.copy()), default=e.copy())

    def prob_select(self, *names: str) -> exp.Select:
        p, yb, w = _c("_clf_pr"), _c("_clf_yb"), _c("_clf_w")
        clip = self.clip
        losses = {
            "log_loss": _case(
                (yb.eq(1), -exp.Ln(this=clip(p))), default=-exp.Ln(this=clip(_f(1) - p))
            ),
            "brier": (yb - p) * (yb.copy() - p.copy()),
        }
        items = [(n, self.div(exp.Sum(this=w * losses[n]), exp.Sum(this=w.copy()))) for n in names]
        return self.sel("_clf_psrc", *items, group=[])

    def calibration(self, n_bins: int) -> exp.Select:
        # numpy.searchsorted(linspace(0, 1, n_bins + 1)[1:-1], p): an edge value goes to the
        # lower bin; the edges are i * (1 / n_bins), computed as numpy does.
        p, step = _c("_clf_pr"), 1.0 / n_bins
        whens = [(p <= self.fconst(i * step), _n(i - 1)) for i in range(1, n_bins)]
        binid = _case(*whens, default=_n(n_bins - 1)) if whens else _n(0)
        self.cte(
            "_clf_bins", self.sel("_clf_psrc", ("_clf_bin", binid), "_clf_pr", "_clf_yb", "_clf_w")
        )
        w = _c("_clf_w")

        def total() -> exp.Expr:
            return exp.Sum(this=_c("_clf_w"))

        body = self.sel(
            "_clf_bins",
            ("bin", exp.cast(_c("_clf_bin"), "BIGINT")),
            ("mean_predicted", self.div(exp.Sum(this=w * p), total())),
            ("fraction_positive", self.div(exp.Sum(this=w.copy() * _c("_clf_yb")), total())),
            ("count", self.count(total())),
            group=["_clf_bin"],
            having=total() > 0,
        )
        return self.finish(body, "bin")
