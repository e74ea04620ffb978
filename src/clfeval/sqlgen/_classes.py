"""Per-class scores in the generated SQL: one-vs-rest and one-vs-one (Hand & Till) AUROC,
one-vs-rest average precision, multiclass log loss and Brier score, as clfeval.auroc,
average_precision, log_loss and brier compute them from ``{label: column}``.

The rows read are those whose y is one of the classes, with every score present (a NaN
counts as null) and a weight. One-vs-rest unpivots the k score columns into one row per
(row, class) and runs the binary plan (distinct scores, running sums) partitioned by class
too; micro averaging runs it on the unpivoted rows as one problem. One-vs-one joins each
(row, class) to the classes of the other side of its pair.
"""

from __future__ import annotations

from clfeval.sqlgen._tree import _c, _case, _dbl, _f, _id, _n, _null, _union, exp

Classes = list[tuple[exp.Expr, str]]  # (the class as a literal, its score column), in order


class ClassParts:
    """The builder's per-class score metrics (a mixin of :class:`clfeval.sqlgen._tree.Base`)."""

    def class_source(self, name: str, y: str, classes: Classes, *, proba: bool) -> None:
        """CTE ``name``: groups, _clf_yk (the 1-based position of y's class), _clf_w and the
        scores _clf_p1 ... _clf_pk as DOUBLE. With ``proba``, a group holding a value
        outside [0, 1] is flagged (its numbers come out null, as the expressions')."""
        scores = [_dbl(_c(column)) for _, column in classes]
        where = self.valid(y, *(column for _, column in classes), nan=[s.copy() for s in scores])
        self.guard(where.copy(), proba=[s.copy() for s in scores] if proba else None)
        position = _case(
            *((_c(y).eq(label.copy()), _n(i)) for i, (label, _) in enumerate(classes, start=1))
        )
        listed = _c(y).isin(*(label.copy() for label, _ in classes))
        items = [("_clf_yk", position), ("_clf_w", self.w())]
        items += [(f"_clf_p{i}", s) for i, s in enumerate(scores, start=1)]
        self.cte(name, self.sel(self.table, *items, where=exp.and_(where, listed)))

    def class_ranked(
        self, y: str, classes: Classes, names: list[str], average: str, multi_class: str
    ) -> list[exp.Select]:
        """AUROC (one-vs-rest, or one-vs-one) and average precision (one-vs-rest) per group,
        one part per plan."""
        self.class_source("_clf_csrc", y, classes, proba=False)
        self.class_long("_clf_csrc", len(classes))
        parts = []
        if "auroc" in names and multi_class == "ovo":
            parts.append(self.ovo(len(classes), average))
            names = [n for n in names if n != "auroc"]
        if names:
            parts.append(self.ovr(names, average))
        return parts

    def class_long(self, src: str, k: int) -> None:
        """_clf_clong: one row per (row, class k): the class's score and the row's weight as
        positive (y is k) or negative."""
        rows = []
        for i in range(1, k + 1):
            hit = _c("_clf_yk").eq(_n(i))
            rows.append(
                self.sel(
                    src,
                    ("_clf_k", _n(i)),
                    "_clf_yk",
                    ("_clf_s", _c(f"_clf_p{i}")),
                    ("_clf_pos", _case((hit, _c("_clf_w")), default=self.zero())),
                    ("_clf_neg", _case((hit.copy(), self.zero()), default=_c("_clf_w"))),
                )
            )
        self.cte("_clf_clong", _union(*rows))

    def class_average(self, src: str, names: list[str], support: str, average: str) -> exp.Select:
        """The per-class (or per-pair) values of ``src`` averaged per group: the mean of the
        non-null ones ('macro'), or weighted by ``support`` ('weighted'; null when the
        classes left have no support), as clfeval._score.combine."""
        items = []
        for name in names:
            value = _c(name)
            if average == "macro":
                items.append((name, exp.Avg(this=value)))
                continue
            kept = exp.Sum(this=_case((_null(value).not_(), _dbl(_c(support)))))
            items.append((name, self.div(exp.Sum(this=value.copy() * _dbl(_c(support))), kept)))
        return self.sel(src, *items, group=[])

    def ovr(self, names: list[str], average: str) -> exp.Select:
        """One-vs-rest AUROC and average precision from _clf_clong."""
        if average == "micro":  # every (row, class) pair in one binary problem
            self.score_points("_clf_clong", "_clf_mic")
            return self.score_select(*names, prefix="_clf_mic")
        with self.by_also("_clf_k"):
            self.score_points("_clf_clong", "_clf_ovr")
            self.cte("_clf_ovrv", self.score_select(*names, "_clf_npos", prefix="_clf_ovr"))
        return self.class_average("_clf_ovrv", names, "_clf_npos", average)

    def ovo(self, k: int, average: str) -> exp.Select:
        """Hand & Till: per pair of classes a and b, the mean of AUROC(a against b, scored by
        a's column) and AUROC(b against a, by b's), over the rows of the two classes; then
        averaged over the pairs (weighted: by the pair's weight)."""
        self.cte(
            "_clf_cls",
            _union(
                *(exp.select(exp.alias_(_n(j), "_clf_j", quoted=True)) for j in range(1, k + 1))
            ),
        )
        # each (row, class k) meets every other class j: as a positive when y is k, as a
        # negative of the pair (k, j) when y is j
        k_, j_, yk = _c("_clf_k"), _c("_clf_j"), _c("_clf_yk")
        on = exp.and_(
            j_.neq(k_), exp.Paren(this=exp.or_(yk.eq(k_.copy()), yk.copy().eq(j_.copy())))
        )
        pairs = self.sel("_clf_clong", "_clf_k", "_clf_j", "_clf_s", "_clf_pos", "_clf_neg")
        self.cte("_clf_olong", pairs.join(exp.Table(this=_id("_clf_cls")), on=on))
        with self.by_also("_clf_k", "_clf_j"):
            self.score_points("_clf_olong", "_clf_ovo")
            self.cte(
                "_clf_ovov", self.score_select("auroc", "_clf_npos", "_clf_nneg", prefix="_clf_ovo")
            )
        first = _case((_c("_clf_k") < _c("_clf_j"), _c("_clf_k")), default=_c("_clf_j"))
        second = _case((_c("_clf_k") < _c("_clf_j"), _c("_clf_j")), default=_c("_clf_k"))
        both = self.sel(
            "_clf_ovov", ("_clf_a", first), ("_clf_b", second), "auroc",
            ("_clf_both", _c("_clf_npos") + _c("_clf_nneg")),
        )  # fmt: skip
        self.cte("_clf_ovob", both)
        value = _case(
            (exp.Count(this=_c("auroc")).eq(2), exp.Sum(this=_c("auroc")) / _f(2)),
            default=_dbl(exp.null()),
        )  # null when a class of the pair is missing
        self.cte(
            "_clf_pairs",
            self.sel(
                "_clf_ovob", ("auroc", value), ("_clf_both", exp.Max(this=_c("_clf_both"))),
                group=["_clf_a", "_clf_b"],
            ),
        )  # fmt: skip
        return self.class_average("_clf_pairs", ["auroc"], "_clf_both", average)

    def class_prob_select(self, src: str, k: int, names: list[str]) -> exp.Select:
        """Multiclass log loss (−log of the clipped probability of y's class) and Brier score
        (Σ_c (1[y = c] − p_c)², halved for two classes, as scikit-learn), weighted means."""
        yk, w = _c("_clf_yk"), _dbl(_c("_clf_w"))
        own = _case(*((yk.eq(_n(i)), self.clip(_c(f"_clf_p{i}"))) for i in range(1, k + 1)))
        gaps = []
        for i in range(1, k + 1):
            gap = _case((yk.eq(_n(i)), _f(1)), default=_f(0)) - _c(f"_clf_p{i}")
            gaps.append(gap * gap.copy())
        squares = gaps[0]
        for gap in gaps[1:]:
            squares = squares + gap
        if k < 3:
            squares = squares * self.fconst(0.5)
        losses = {"log_loss": -exp.Ln(this=own), "brier": squares}
        items = [
            (n, self.div(exp.Sum(this=w.copy() * losses[n]), exp.Sum(this=w.copy()))) for n in names
        ]
        return self.sel(src, *items, group=[])
