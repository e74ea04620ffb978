"""The label capabilities of the generated SQL: counts, confusion, report, metrics."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clfeval import _metrics
from clfeval._metrics import Counts, binary_formulas
from clfeval.sqlgen._classes import Classes
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

    def per_class(
        self, names: Sequence[str] = PRF, src: str = "_clf_lab", name: str = "_clf_per"
    ) -> None:
        """CTE ``name`` (_clf_per): per class of ``src``, the registry's formula of each
        averaged metric in ``names`` over its one-vs-rest counts (f1 = 2 tp / (true + pred)
        as scikit-learn), the group total ``_clf_n`` and the class's position ``_clf_o``
        (sorted; the listed classes of :meth:`listed_classes` bring both along)."""
        listed = src != "_clf_lab"
        n = _c("_clf_n") if listed else self.win(exp.Sum(this=_c("_clf_true")))
        counts = self.counts_of("_clf_tp", "_clf_pred", "_clf_true", n)
        values = binary_formulas(_SqlAlgebra(self), counts, self.zd, self.beta, names)
        rates = [
            *((f"_clf_{m}", values[m].node) for m in names),
            ("_clf_n", n.copy()),
            (
                "_clf_o",
                _c("_clf_o") if listed else self.win(exp.RowNumber(), "_clf_label", desc=False),
            ),
        ]
        self.cte(
            name,
            self.sel(src, "_clf_label", "_clf_tp", "_clf_pred", "_clf_true", *rates),
        )
        self.averaged = list(names)

    def listed_classes(self, labels: Sequence[exp.Expr]) -> None:
        """_clf_lst (each class of labels= and its position) and _clf_labl: per group, the
        listed classes in that order with their counts from _clf_lab (zeros when absent) and
        the group total over every class, as scikit-learn's labels= (clfeval._counts)."""
        rows = [
            exp.select(exp.alias_(label.copy(), "_clf_label", quoted=True),
                       exp.alias_(_n(i), "_clf_o", quoted=True))
            for i, label in enumerate(labels, start=1)
        ]  # fmt: skip
        self.cte("_clf_lst", _union(*rows))
        self.cte(
            "_clf_grp", self.sel("_clf_lab", ("_clf_n", exp.Sum(this=_c("_clf_true"))), group=[])
        )
        zero = self.zero
        counts = [
            (k, exp.Coalesce(this=_c(k, "_clf_x"), expressions=[zero()]))
            for k in ("_clf_tp", "_clf_pred", "_clf_true")
        ]
        body = exp.select(
            *self.g("_clf_g"), _c("_clf_label", "_clf_l"), _c("_clf_o", "_clf_l"),
            *(exp.alias_(v, k, quoted=True) for k, v in counts), _c("_clf_n", "_clf_g"),
        ).from_(exp.Table(this=_id("_clf_grp"), alias=exp.TableAlias(this=_id("_clf_g"))))  # fmt: skip
        lst = exp.Table(this=_id("_clf_lst"), alias=exp.TableAlias(this=_id("_clf_l")))
        body.append("joins", exp.Join(this=lst, kind="CROSS"))
        keys = [
            exp.NullSafeEQ(this=_c(g, "_clf_g"), expression=_c(g, "_clf_x")) for g in self.groups
        ]
        lab = exp.Table(this=_id("_clf_lab"), alias=exp.TableAlias(this=_id("_clf_x")))
        on = exp.and_(*keys, _c("_clf_label", "_clf_x").eq(_c("_clf_label", "_clf_l")))
        body.append("joins", exp.Join(this=lab, side="LEFT", on=on))
        self.cte("_clf_labl", body)

    @staticmethod
    def counts_of(tp: str, pred: str, true: str, total: str | exp.Expr) -> Counts:
        """Counts of the registry's formulas, as DOUBLE columns (or an expression total)."""
        col = lambda k: _Sql(_dbl(_c(k) if isinstance(k, str) else k))  # noqa: E731
        return Counts(tp=col(tp), pred=col(pred), support=col(true), total=col(total))

    def class_agg(self, pos: exp.Expr | None, adjusted: bool = False, listed: bool = False) -> None:
        """_clf_agg per group: micro sums, macro means, weighted sums, balanced accuracy (with
        the number of classes it averages when ``adjusted``), MCC sums; ``listed``: _clf_aggl,
        the sums, means and weighted sums of the averaged metrics over the listed classes
        (_clf_perl)."""
        tp, pred, true = _c("_clf_tp"), _c("_clf_pred"), _c("_clf_true")
        items = [(f"_clf_s{k}", exp.Sum(this=_c(f"_clf_{k}"))) for k in ("tp", "pred", "true", "n")]
        if not listed:
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
        if listed:
            self.cte("_clf_aggl", self.sel("_clf_perl", *items, group=[]))
            return
        items += [
            ("_clf_balanced", exp.Avg(this=_case((true > 0, _dbl(tp) / _dbl(true))))),
            *([("_clf_nbal", exp.Count(this=_case((true.copy() > 0, _n(1)))))] if adjusted else []),
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

    def _join(
        self, table: str, left: str, alias: str, on: exp.Expr | None, keys: bool = True
    ) -> exp.Join:
        """JOIN table AS alias on null-safe group keys with ``left`` (unless not ``keys``) and
        ``on``; a CROSS JOIN when there is no condition."""
        right = exp.Table(this=_id(table), alias=exp.TableAlias(this=_id(alias)))
        conds = [exp.NullSafeEQ(this=_c(g, left), expression=_c(g, alias)) for g in self.groups]
        conds = [*(conds if keys else []), *([on] if on is not None else [])]
        if not conds:
            return exp.Join(this=right, kind="CROSS")
        return exp.Join(this=right, on=exp.and_(*conds))

    def kappa(self, weights: str | None, listed: bool = False) -> exp.Select:
        """Cohen's kappa per group, as scikit-learn: 1 - sum(d O) / sum(d E), O the confusion
        matrix, E = outer(true, pred) / n, d(i, j) the disagreement of the classes at positions
        i and j: 1 if i != j (None), |i - j| ('linear'), (i - j)^2 ('quadratic'). The classes
        and positions are the group's sorted classes (_clf_per), or with ``listed`` those of
        labels= (_clf_lst), the rows of other classes left out. Null when sum(d E) is 0."""

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
        # each cell whose two classes are counted, at their positions i and j
        positions = "_clf_lst" if listed else "_clf_per"
        src = exp.Table(this=_id("_clf_cells"), alias=exp.TableAlias(this=_id("_clf_x")))
        at = exp.select(
            *self.g("_clf_x"),
            exp.alias_(_c("_clf_o", "_clf_a"), "_clf_i", quoted=True),
            exp.alias_(_c("_clf_o", "_clf_b"), "_clf_j", quoted=True),
            exp.alias_(_dbl(_c("_clf_w", "_clf_x")), "_clf_w", quoted=True),
        ).from_(src)
        for alias, column in (("_clf_a", "_clf_y"), ("_clf_b", "_clf_p")):
            on = _c("_clf_label", alias).eq(_c(column, "_clf_x"))
            at.append("joins", self._join(positions, "_clf_x", alias, on, keys=not listed))
        self.cte("_clf_kpos", at)
        w = _c("_clf_w")
        observed = [
            ("_clf_do", exp.Sum(this=w * d(_c("_clf_i"), _c("_clf_j")))),
            ("_clf_kn", exp.Sum(this=w.copy())),
        ]
        self.cte("_clf_kobs", self.sel("_clf_kpos", *observed, group=[]))
        for name, side in (("_clf_kt", "_clf_i"), ("_clf_kp", "_clf_j")):  # the margins
            margin = self.sel(
                "_clf_kpos", ("_clf_o", _c(side)), ("_clf_m", exp.Sum(this=_c("_clf_w"))),
                group=[side],
            )  # fmt: skip
            self.cte(name, margin)
        expected = exp.select(
            *self.g("_clf_t"),
            exp.alias_(
                exp.Sum(
                    this=_c("_clf_m", "_clf_t")
                    * _c("_clf_m", "_clf_q")
                    * d(_c("_clf_o", "_clf_t"), _c("_clf_o", "_clf_q"))
                ),
                "_clf_de",
                quoted=True,
            ),
        ).from_(exp.Table(this=_id("_clf_kt"), alias=exp.TableAlias(this=_id("_clf_t"))))
        expected.append("joins", self._join("_clf_kp", "_clf_t", "_clf_q", None))
        if self.groups:
            expected = expected.group_by(*self.g("_clf_t"))
        self.cte("_clf_kexp", expected)
        value = _f(1) - self.div(
            _c("_clf_do", "_clf_k") * _c("_clf_kn", "_clf_k"), _c("_clf_de", "_clf_e")
        )
        # every group of the rows, also one whose rows are all of unlisted classes (null)
        if self.groups:
            self.cte("_clf_kgrp", self.sel("_clf_lab", group=[]))
        else:
            self.cte("_clf_kgrp", exp.select(exp.alias_(_n(1), "_clf_one", quoted=True)))
        out = exp.select(*self.g("_clf_z"), exp.alias_(value, "cohen_kappa", quoted=True))
        out = out.from_(exp.Table(this=_id("_clf_kgrp"), alias=exp.TableAlias(this=_id("_clf_z"))))
        for table, alias in (("_clf_kexp", "_clf_e"), ("_clf_kobs", "_clf_k")):
            join = self._join(table, "_clf_z", alias, None)
            join.set("kind", None)
            join.set("side", "LEFT")
            join.set("on", join.args.get("on") or exp.true())
            out.append("joins", join)
        return out

    def metrics(
        self,
        y: str,
        yhat: str | None,
        score: str | Classes | None,
        proba: str | Classes | None,
        names: Sequence[str],
        opts: dict[str, Any],
    ) -> exp.Select:
        """Each metric of ``names`` per group (one part per family, merged); ``score`` and
        ``proba`` are a column, or per-class columns (:mod:`clfeval.sqlgen._classes`)."""
        average, labels = opts["average"], opts["labels"]
        parts: list[exp.Select] = []
        label_names = [n for n in names if n in LABEL_METRICS]
        if label_names:
            self.label_source(y, yhat)
            averaged = [n for n in label_names if n in AVERAGED]
            # labels= picks the classes the ratios average over ('binary' reads pos_label
            # only) and the classes of kappa; accuracy, balanced accuracy and MCC use all
            listed = labels is not None and average != "binary" and bool(averaged)
            self.per_class([] if listed else averaged)
            self.class_agg(self.pos if average == "binary" else None, opts["adjusted"])
            if labels is not None and (listed or "cohen_kappa" in label_names):
                self.listed_classes(labels)
            if listed:
                self.per_class(averaged, src="_clf_labl", name="_clf_perl")
                self.class_agg(None, listed=True)
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
            balanced = _c("_clf_balanced")
            if opts["adjusted"]:  # chance (1/k for the k classes of y) rescaled to 0
                chance = self.div(_f(1), _c("_clf_nbal"))
                balanced = self.div(balanced - chance, _f(1) - chance.copy())
            values = {
                "accuracy": self.div(_c("_clf_stp"), _c("_clf_strue")),
                "balanced_accuracy": balanced,
                "mcc": self.mcc(*sums),
                **dict(zip(averaged, rates)),
            }
            every = [
                n for n in label_names if n != "cohen_kappa" and not (listed and n in averaged)
            ]
            if every:
                parts.append(self.sel("_clf_agg", *((n, values[n]) for n in every)))
            if listed:
                parts.append(self.sel("_clf_aggl", *((n, values[n]) for n in averaged)))
            if "cohen_kappa" in label_names:
                parts.append(self.kappa(opts["kappa_weights"], listed=labels is not None))
        ranked = [n for n in names if n in ("auroc", "average_precision")]
        if ranked and isinstance(score, list):
            parts += self.class_ranked(y, score, ranked, opts["score_average"], opts["multi_class"])
        elif ranked:
            self.score_source(y, score, curve=False)
            parts.append(self.score_select(*ranked, max_fpr=opts["max_fpr"]))
        probability = [n for n in names if n in ("log_loss", "brier")]
        if probability and isinstance(proba, list):
            self.class_source("_clf_cpsrc", y, proba, proba=True)
            parts.append(self.class_prob_select("_clf_cpsrc", len(proba), probability))
        elif probability:
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
