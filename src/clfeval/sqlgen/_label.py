"""The label capabilities of the generated SQL: counts, confusion, report, metrics."""

from __future__ import annotations

from collections.abc import Sequence

from clfeval import _metrics
from clfeval._metrics import Counts, binary_formulas
from clfeval.sqlgen._tree import (
    PRF,
    _c,
    _case,
    _dbl,
    _f,
    _id,
    _item,
    _n,
    _null,
    _Sql,
    _SqlAlgebra,
    _union,
    exp,
)

AVERAGED = _metrics.names(averaged=True)
# the label metrics of clfeval.metrics, all of which portable SQL computes
LABEL_METRICS = _metrics.names(family="label", in_metrics=True)


class LabelParts:
    """The builder's label capabilities (a mixin of :class:`clfeval.sqlgen._tree.Base`)."""

    # -- label capabilities ---------------------------------------------------------------

    def label_source(self, y: str, yhat: str) -> None:
        """_clf_lab: per group and label, tp and the true and predicted weight."""
        self.cte(
            "_clf_src",
            self.sel(
                self.table,
                ("_clf_y", _c(y)),
                ("_clf_p", _c(yhat)),
                ("_clf_w", self.w()),
                where=self.valid(y, yhat),
            ),
        )
        self.guard(self.valid(y, yhat))
        hit = _case((_c("_clf_y").eq(_c("_clf_p")), _c("_clf_w")), default=self.zero())
        z = self.zero
        truth = self.sel(
            "_clf_src",
            ("_clf_label", _c("_clf_y")),
            ("_clf_true", _c("_clf_w")),
            ("_clf_pred", z()),
            ("_clf_tp", hit),
        )
        pred = self.sel(
            "_clf_src",
            ("_clf_label", _c("_clf_p")),
            ("_clf_true", z()),
            ("_clf_pred", _c("_clf_w")),
            ("_clf_tp", z()),
        )
        self.cte("_clf_long", _union(truth, pred))  # each row: once as truth, once as prediction
        sums = [(k, self.count(exp.Sum(this=_c(k)))) for k in ("_clf_tp", "_clf_pred", "_clf_true")]
        self.cte("_clf_lab", self.sel("_clf_long", "_clf_label", *sums, group=["_clf_label"]))

    def counts(self) -> exp.Select:
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        n = self.count(self.win(exp.Sum(this=_c("_clf_true"))))
        fp, fn = pred - tp, true - tp
        cols = [("label", _c("_clf_label")), ("tp", tp), ("fp", fp), ("fn", fn)]
        body = self.sel(
            "_clf_lab", *cols, ("tn", n - tp - fp - fn), ("support", true)
        )  # sklearn: n - tp - fp - fn
        return self.finish(body, "label")

    def confusion(self) -> exp.Select:
        """Every pair of the group's labels (a self-join on null-safe group keys), plus rows."""
        lab = lambda alias: exp.Table(this=_id("_clf_lab"), alias=exp.TableAlias(this=_id(alias)))  # noqa: E731
        cols = [
            ("_clf_y", _c("_clf_label", "_clf_a")),
            ("_clf_p", _c("_clf_label", "_clf_b")),
            ("_clf_w", self.zero()),
        ]
        pairs = exp.select(*self.g("_clf_a"), *map(_item, cols)).from_(lab("_clf_a"))
        on = [exp.NullSafeEQ(this=_c(g, "_clf_a"), expression=_c(g, "_clf_b")) for g in self.groups]
        pairs.append(
            "joins",
            exp.Join(this=lab("_clf_b"), on=exp.and_(*on))
            if on
            else exp.Join(this=lab("_clf_b"), kind="CROSS"),
        )
        self.cte("_clf_cells", _union(self.sel("_clf_src", "_clf_y", "_clf_p", "_clf_w"), pairs))
        cols = [
            ("actual", _c("_clf_y")),
            ("predicted", _c("_clf_p")),
            ("count", self.count(exp.Sum(this=_c("_clf_w")))),
        ]
        body = self.sel("_clf_cells", *cols, group=["_clf_y", "_clf_p"])
        return self.finish(body, "actual", "predicted")

    def per_class(self, names: Sequence[str] = PRF) -> None:
        """_clf_per: per class, the registry's formula of each averaged metric in ``names``
        over its one-vs-rest counts (f1 = 2 tp / (true + pred) as scikit-learn), and the
        group total ``_clf_n``."""
        n = self.win(exp.Sum(this=_c("_clf_true")))
        counts = self.counts_of("_clf_tp", "_clf_pred", "_clf_true", n)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, names)
        rates = [
            *((f"_clf_{m}", values[m].node) for m in names),
            ("_clf_n", n.copy()),
            ("_clf_o", self.win(exp.RowNumber(), "_clf_label", desc=False)),
        ]
        self.cte(
            "_clf_per",
            self.sel("_clf_lab", "_clf_label", "_clf_tp", "_clf_pred", "_clf_true", *rates),
        )
        self.averaged = list(names)

    @staticmethod
    def counts_of(tp: str, pred: str, true: str, total: str | exp.Expr) -> Counts:
        """Counts of the registry's formulas, as DOUBLE columns (or an expression total)."""
        col = lambda k: _Sql(_dbl(_c(k) if isinstance(k, str) else k))  # noqa: E731
        return Counts(tp=col(tp), pred=col(pred), support=col(true), total=col(total))

    def class_agg(self, pos: exp.Expr | None) -> None:
        """_clf_agg per group: micro sums, macro means, weighted sums, balanced accuracy, MCC sums."""
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        items = [(f"_clf_s{k}", exp.Sum(this=_c(f"_clf_{k}"))) for k in ("tp", "pred", "true", "n")]
        items.append(("_clf_bn", exp.Max(this=_c("_clf_n"))))  # the group total
        if pos is not None:

            def pick(k: str) -> exp.Expr:
                return _case((_c("_clf_label").eq(pos.copy()), _c(f"_clf_{k}")), default=_n(0))

            items += [(f"_clf_b{k}", exp.Sum(this=pick(k))) for k in ("tp", "pred", "true")]
        for m in self.averaged:
            col = _c(f"_clf_{m}")
            items += [
                (f"_clf_m{m}", exp.Avg(this=col)),
                (f"_clf_wn{m}", exp.Sum(this=col * _dbl(true))),
                (f"_clf_wd{m}", exp.Sum(this=_case((_null(col).not_(), _dbl(true))))),
            ]
        items += [
            ("_clf_balanced", exp.Avg(this=_case((true > 0, _dbl(tp) / _dbl(true))))),
            ("_clf_tdotp", exp.Sum(this=_dbl(true) * _dbl(pred))),
            ("_clf_pdotp", exp.Sum(this=_dbl(pred) * _dbl(pred))),
            ("_clf_tdott", exp.Sum(this=_dbl(true) * _dbl(true))),
        ]
        self.cte("_clf_agg", self.sel("_clf_per", *items, group=[]))

    def weighted(self, m: str) -> exp.Expr:
        """scikit-learn's _nanaverage with support weights (a plain mean if they sum to 0)."""
        den = exp.Coalesce(this=_c(f"_clf_wd{m}"), expressions=[_f(0)])
        return _case((den.eq(0), _c(f"_clf_m{m}")), default=_c(f"_clf_wn{m}") / _c(f"_clf_wd{m}"))

    def micro(self, prefix: str, names: Sequence[str] = PRF) -> list[exp.Expr]:
        """The averaged metrics over pooled counts: the positive class's (``b``, binary) or
        every class's summed (``s``, micro; the summed totals make the summed tn)."""
        total = "_clf_bn" if prefix == "b" else "_clf_sn"
        counts = self.counts_of(*(f"_clf_{prefix}{k}" for k in ("tp", "pred", "true")), total)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, names)
        return [values[m].node for m in names]

    def report(self) -> exp.Select:
        self.per_class()
        self.class_agg(None)
        text, null = exp.DataType.build("VARCHAR"), _dbl(exp.null())
        cols = ("label", "precision", "recall", "f1", "support")
        per = [
            exp.cast(_c("_clf_label"), text),
            "_clf_precision",
            "_clf_recall",
            "_clf_f1",
            "_clf_true",
        ]
        rows = [
            self.sel(
                "_clf_per", ("_clf_k", _n(0)), "_clf_o", *((c, _item(v)) for c, v in zip(cols, per))
            )
        ]
        macro = [_c(f"_clf_m{m}") for m in ("precision", "recall", "f1")]
        summaries = {
            "accuracy": [null, null.copy(), self.micro("s")[2]],
            "macro avg": macro,
            "weighted avg": [self.weighted(m) for m in ("precision", "recall", "f1")],
        }
        for k, (name, values) in enumerate(summaries.items(), start=1):
            label = exp.cast(exp.Literal.string(name), text)
            rows.append(
                self.sel("_clf_agg", _n(k), _n(0), label, *values, self.count(_c("_clf_strue")))
            )
        self.cte("_clf_rows", _union(*rows))
        return self.finish(self.sel("_clf_rows", *cols), "_clf_k", "_clf_o")

    def mcc(
        self, c: exp.Expr, n: exp.Expr, tdotp: exp.Expr, pdotp: exp.Expr, tdott: exp.Expr
    ) -> exp.Expr:
        """scikit-learn's multiclass MCC from class sums; 0 when a marginal is constant."""
        prod = (n * n - pdotp) * (n.copy() * n.copy() - tdott)
        return _case(
            (prod.eq(0), _f(0)), default=(c * n.copy() - tdotp) / exp.Sqrt(this=prod.copy())
        )

    def _per_join(self, left: exp.Expr, alias: str, on: exp.Expr | None) -> exp.Join:
        """JOIN _clf_per AS alias on null-safe group keys (and ``on``)."""
        right = exp.Table(this=_id("_clf_per"), alias=exp.TableAlias(this=_id(alias)))
        keys = [exp.NullSafeEQ(this=_c(g, left), expression=_c(g, alias)) for g in self.groups]
        conds = [*keys, *([on] if on is not None else [])]
        return (
            exp.Join(this=right, on=exp.and_(*conds))
            if conds
            else exp.Join(this=right, kind="CROSS")
        )

    def kappa(self, weights: str | None) -> exp.Select:
        """Cohen's kappa per group, as scikit-learn: 1 - sum(d O) / sum(d E), O the confusion
        matrix, E = outer(true, pred) / n, d(i, j) the disagreement of the classes at positions
        i and j of the group's sorted classes: 1 if i != j (None), |i - j| ('linear'),
        (i - j)^2 ('quadratic'). Null when sum(d E) is 0."""

        def d(i: exp.Expr, j: exp.Expr) -> exp.Expr:
            if weights is None:
                return _case((i.eq(j), _f(0)), default=_f(1))
            diff = _dbl(i - j.copy())
            return exp.Abs(this=diff) if weights == "linear" else diff * diff.copy()

        cells = self.sel(
            "_clf_src", "_clf_y", "_clf_p", ("_clf_w", exp.Sum(this=_c("_clf_w"))),
            group=["_clf_y", "_clf_p"],
        )  # fmt: skip
        self.cte("_clf_cells", cells)
        src = exp.Table(this=_id("_clf_cells"), alias=exp.TableAlias(this=_id("_clf_x")))
        observed = exp.select(
            *self.g("_clf_x"),
            exp.alias_(
                _dbl(
                    exp.Sum(
                        this=_dbl(_c("_clf_w", "_clf_x"))
                        * d(_c("_clf_o", "_clf_a"), _c("_clf_o", "_clf_b"))
                    )
                ),
                "_clf_do",
            ),
        ).from_(src)
        observed.append(
            "joins",
            self._per_join(
                "_clf_x", "_clf_a", _c("_clf_label", "_clf_a").eq(_c("_clf_y", "_clf_x"))
            ),
        )
        observed.append(
            "joins",
            self._per_join(
                "_clf_x", "_clf_b", _c("_clf_label", "_clf_b").eq(_c("_clf_p", "_clf_x"))
            ),
        )
        if self.groups:
            observed = observed.group_by(*self.g("_clf_x"))
        self.cte("_clf_kobs", observed)
        per = exp.Table(this=_id("_clf_per"), alias=exp.TableAlias(this=_id("_clf_a")))
        expected = exp.select(
            *self.g("_clf_a"),
            exp.alias_(
                exp.Sum(
                    this=_dbl(_c("_clf_true", "_clf_a"))
                    * _dbl(_c("_clf_pred", "_clf_b"))
                    * d(_c("_clf_o", "_clf_a"), _c("_clf_o", "_clf_b"))
                ),
                "_clf_de",
            ),
            exp.alias_(exp.Max(this=_dbl(_c("_clf_n", "_clf_a"))), "_clf_kn"),
        ).from_(per)
        expected.append("joins", self._per_join("_clf_a", "_clf_b", None))
        if self.groups:
            expected = expected.group_by(*self.g("_clf_a"))
        self.cte("_clf_kexp", expected)
        both = exp.Table(this=_id("_clf_kexp"), alias=exp.TableAlias(this=_id("_clf_e")))
        keys = [
            exp.NullSafeEQ(this=_c(g, "_clf_e"), expression=_c(g, "_clf_k")) for g in self.groups
        ]
        obs = exp.Table(this=_id("_clf_kobs"), alias=exp.TableAlias(this=_id("_clf_k")))
        value = _f(1) - self.div(
            _c("_clf_do", "_clf_k") * _c("_clf_kn", "_clf_e"), _c("_clf_de", "_clf_e")
        )
        out = exp.select(*self.g("_clf_e"), exp.alias_(value, "cohen_kappa")).from_(both)
        out.append(
            "joins",
            exp.Join(this=obs, on=exp.and_(*keys)) if keys else exp.Join(this=obs, kind="CROSS"),
        )
        return out

    def metrics(self, y, yhat, score, proba, average, names, kappa_weights=None) -> exp.Select:
        parts: list[exp.Select] = []
        label_names = [n for n in names if n in LABEL_METRICS]
        if label_names:
            self.label_source(y, yhat)
            averaged = [n for n in label_names if n in AVERAGED]
            self.per_class(averaged)
            self.class_agg(self.pos if average == "binary" else None)
            if average in ("binary", "micro"):
                rates = self.micro("b" if average == "binary" else "s", averaged)
            elif average == "macro":
                rates = [_c(f"_clf_m{m}") for m in averaged]
            else:
                rates = [self.weighted(m) for m in averaged]
            sums = [
                _dbl(_c(k))
                for k in ("_clf_stp", "_clf_spred", "_clf_tdotp", "_clf_pdotp", "_clf_tdott")
            ]
            values = {
                "accuracy": self.div(_c("_clf_stp"), _c("_clf_strue")),
                "balanced_accuracy": _c("_clf_balanced"),
                "mcc": self.mcc(*sums),
                **dict(zip(averaged, rates)),
            }
            simple = [n for n in label_names if n != "cohen_kappa"]
            if simple:
                parts.append(self.sel("_clf_agg", *((n, values[n]) for n in simple)))
            if "cohen_kappa" in label_names:
                parts.append(self.kappa(kappa_weights))
        ranked = [n for n in names if n in ("auroc", "average_precision")]
        if ranked:
            self.score_source(y, score, curve=False)
            parts.append(self.score_select(*ranked))
        probability = [n for n in names if n in ("log_loss", "brier")]
        if probability:
            self.prob_source(y, proba)
            parts.append(self.prob_select(*probability))
        if len(parts) == 1:
            return self.finish(parts[0])
        # One row per group and part; UNION ALL + MAX merges them (no null-unsafe join).
        padded = []
        for k, part in enumerate(parts):
            self.cte(f"_clf_part{k}", part)
            own = {a.alias for a in part.expressions}
            padded.append(
                self.sel(
                    f"_clf_part{k}", *(n if n in own else (n, _dbl(exp.null())) for n in names)
                )
            )
        self.cte("_clf_parts", _union(*padded))
        return self.finish(
            self.sel("_clf_parts", *((n, exp.Max(this=_c(n))) for n in names), group=[])
        )
