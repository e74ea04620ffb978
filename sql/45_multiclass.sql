-- clfeval SQL layer, file 45: the rest of the score and probability family as aggregate macros:
-- clf_ks, clf_ece (binary), and the multiclass forms over a LIST of per-class scores:
-- clf_auroc_ovr, clf_auroc_ovo, clf_average_precision_ovr, clf_log_loss_multiclass,
-- clf_brier_multiclass, clf_ece_multiclass and clf_top_k_accuracy.
-- Python twin: clfeval._score (auroc, average_precision, ks, top_k_accuracy) and clfeval._prob
-- (log_loss, brier, ece) given per-class scores. Conventions: see 00_helpers.sql.
--
--   SELECT model, clf_auroc_ovr(label, [p_a, p_b, p_c], labels := ['a', 'b', 'c']) FROM preds GROUP BY model;
--
-- scores is a LIST (or ARRAY) expression: element i is the score (probability) of labels[i].
-- A row is left out when y, the weight or one of the first len(labels) elements is NULL (a
-- short list included) or NaN, and when y is not one of labels. A class absent from a group's
-- rows has no one-vs-rest value (NULL, as in Polars): it is left out of the macro and weighted
-- averages (its support is 0), and a one-vs-one pair with an absent class likewise.
--
-- Naming: one name cannot take both a scalar and a list cleanly. DuckDB macros overload only
-- by argument count; a CASE on the bound type of p does pick one body, but DuckDB computes the
-- aggregates of the dead branch all the same (a list-only cast then fails on a scalar p, and
-- the binary clf_log_loss became 8x slower in a test); masking every aggregate of both bodies
-- with FILTER (WHERE <type test>) works, but would rewrite the binary bodies. So the
-- multiclass forms carry a suffix: _ovr / _ovo for the ranking metrics (the strategy is part
-- of the metric), _multiclass for the per-row probability metrics; clf_top_k_accuracy is
-- multiclass only. average := NULL (one value per class in Python) is refused: an aggregate
-- macro returns one DOUBLE.
--
-- Cost: the group's rows are gathered once (list() of {c: class index, s: scores, w: weight});
-- each one-vs-rest class is then one list_transform and the binary macro of 40_prob.sql;
-- 'weighted' adds one pass per class for the supports, one-vs-one one list_filter per pair.
-- Log loss, Brier and top-k are plain sums over the rows (no list of the group).

-- --- type and option checks ---------------------------------------------------------------

-- Whether a type name is a LIST or ARRAY type, and its element type ('DOUBLE[3]' -> 'DOUBLE').
CREATE OR REPLACE MACRO _clf_is_list(t) AS regexp_matches(t, '\]$');
CREATE OR REPLACE MACRO _clf_list_elem(t) AS regexp_replace(t, '\[[0-9]*\]$', '');

-- TRUE, or an error when scores (type t) is not a LIST or ARRAY of numbers.
CREATE OR REPLACE MACRO _clf_check_class_scores(t, who, what) AS
    CASE
        WHEN NOT _clf_is_list(t) THEN error(printf(
            'clfeval: %s: scores (%s) is not a LIST of per-class %s; pass [s_a, s_b, ...] in '
            || 'the order of labels', who, t, what))
        ELSE _clf_check_number(_clf_list_elem(t), printf('%s: scores (%s)', who, t), what)
    END;

-- TRUE, or an error when labels is NULL, lists fewer than two classes, or fails
-- _clf_check_labels (empty, NULL or repeated classes, another kind than y of type ty).
CREATE OR REPLACE MACRO _clf_check_class_labels(labels, ty, who) AS
    CASE
        WHEN labels IS NULL THEN error(printf(
            'clfeval: %s: labels = NULL; per-class scores need labels := [...], the class of '
            || 'each element in order', who))
        WHEN NOT _clf_check_labels(labels, ty, printf('%s: y (%s)', who, ty)) THEN false
        WHEN len(labels) < 2 THEN error(printf('clfeval: %s: labels = %s lists fewer than two classes; a List/Array '
                || 'score column needs every class listed', who, _clf_show_list(labels)))
        ELSE true
    END;

-- TRUE, or an error when average is not one of allowed (a VARCHAR list).
CREATE OR REPLACE MACRO _clf_check_score_average(average, allowed, who) AS
    CASE
        WHEN list_contains(allowed, CAST(average AS VARCHAR)) THEN true
        ELSE error(printf('clfeval: %s: average = %s is not one of %s; ''macro'' is the plain mean '
            || 'over classes, ''weighted'' weights them by support%s', who, _clf_show(average),
            array_to_string(list_transform(allowed, lambda _clf_v: _clf_literal(_clf_v)), ', '),
            CASE WHEN list_contains(allowed, 'micro') THEN ', ''micro'' pools the (row, class) pairs'
                ELSE '' END))
    END;

-- TRUE, or an error when kind is not 'expected' or 'max'.
CREATE OR REPLACE MACRO _clf_check_ece_kind(kind, who) AS
    CASE
        WHEN CAST(kind AS VARCHAR) IN ('expected', 'max') THEN true
        ELSE error(printf('clfeval: %s: kind = %s is not one of ''expected'', ''max''; ''expected'' '
            || 'weighs each bin by its size, ''max'' takes the worst bin', who, _clf_show(kind)))
    END;

-- value, or an error from the checks of a multiclass macro named who: scores is a LIST of
-- numbers, labels lists two or more classes of the kind of y, weights are finite and >= 0.
CREATE OR REPLACE MACRO _clf_mc_guard(value, y, scores, labels, weight, who, what) AS
    CASE
        WHEN _clf_check_class_scores(_clf_agg_type(scores), who, what)
            AND _clf_check_class_labels(labels, _clf_agg_type(y), who)
            THEN _clf_agg_guard(value, y, NULL, NULL, false, weight, who)
    END;

-- --- rows ------------------------------------------------------------------------------------

-- The 1-based position of y in labels; NULL when y is NULL or not listed. Both branches must
-- bind whatever the kinds (list_position refuses INTEGER[] against VARCHAR), so text compares
-- as VARCHAR and numbers as DOUBLE (TRY_CAST: a text label against a number y gives NULL, and
-- the kind check raises); integers beyond 2^53 may compare equal as DOUBLE.
CREATE OR REPLACE MACRO _clf_class_index(y, labels) AS
    nullif(coalesce(CASE
        WHEN _clf_is_text(typeof(y))
            THEN list_position(CAST(labels AS VARCHAR[]), CAST(y AS VARCHAR))
        ELSE list_position(TRY_CAST(labels AS DOUBLE[]), TRY_CAST(y AS DOUBLE))
    END, 0), 0);

-- The first len(labels) scores of a row, as DOUBLE[]; NULL when scores is not a list of numbers (the
-- CASE is folded when the query is bound: the cast never runs on a scalar, whose rows are all
-- left out before _clf_check_class_scores raises its own error).
CREATE OR REPLACE MACRO _clf_class_scores(scores, labels) AS
    CASE
        WHEN _clf_is_list(typeof(scores)) AND _clf_kind(_clf_list_elem(typeof(scores))) = 'number'
            THEN list_slice(CAST(scores AS DOUBLE[]), 1, len(labels))
    END;

-- Whether a multiclass row is evaluated: y listed, a weight, len(labels) scores, none NaN.
CREATE OR REPLACE MACRO _clf_mc_valid(y, scores, labels, weight) AS
    _clf_class_index(y, labels) IS NOT NULL
    AND _clf_weight(weight) IS NOT NULL
    AND coalesce(list_count(_clf_class_scores(scores, labels)) = len(labels), false)
    AND NOT list_contains(_clf_class_scores(scores, labels), CAST('nan' AS DOUBLE));

-- The group's evaluated rows: {c: class index, s: scores, w: weight}.
CREATE OR REPLACE MACRO _clf_mc_rows(y, scores, labels, weight) AS
    list(struct_pack(
            c := _clf_class_index(y, labels),
            s := _clf_class_scores(scores, labels),
            w := _clf_weight(weight)))
        FILTER (WHERE _clf_mc_valid(y, scores, labels, weight));

-- value, or an error when one of the first len(labels) probabilities of a row (NaN left out)
-- lies outside [0, 1], on any row of the group (as the binary _clf_proba_guard).
CREATE OR REPLACE MACRO _clf_mc_proba_guard(value, p, labels, metric) AS
    CASE
        WHEN min(list_min(_clf_class_scores(p, labels))) < 0
            OR max(list_max(list_filter(_clf_class_scores(p, labels),
                lambda _clf_x: NOT isnan(_clf_x)))) > 1
            THEN error(printf(
                'clfeval: %s got probabilities outside [0, 1] (min %s, max %s); '
                || 'probabilities must be in [0, 1]', metric,
                CAST(min(list_min(_clf_class_scores(p, labels))) AS VARCHAR),
                CAST(max(list_max(list_filter(_clf_class_scores(p, labels),
                    lambda _clf_x: NOT isnan(_clf_x)))) AS VARCHAR)))
        ELSE value
    END;

-- --- averaging one-vs-rest and one-vs-one values ---------------------------------------------

-- The binary rows {s, q, w} of class i (1-based) against the rest.
CREATE OR REPLACE MACRO _clf_ovr_rows(rows, i) AS
    list_transform(rows,
        lambda _clf_row: struct_pack(s := _clf_row.s[i], q := _clf_row.c = i, w := _clf_row.w));

-- The mean of the values v weighted by s over a list of {v, s}, values that are NULL left
-- out; NULL when that weight is 0 (clfeval._score.combine, 'weighted').
CREATE OR REPLACE MACRO _clf_vs_mean(vs) AS
    _clf_let(vs, lambda _clf_vs: _clf_div(
        list_sum(list_transform(_clf_vs,
            lambda _clf_e: CASE WHEN _clf_e.v IS NULL THEN 0.0 ELSE _clf_e.v * _clf_e.s END)),
        list_sum(list_transform(_clf_vs,
            lambda _clf_e: CASE WHEN _clf_e.v IS NULL THEN 0.0 ELSE _clf_e.s END)),
        NULL));

-- One-vs-rest: stat (a lambda over binary rows {s, q, w}) per class of labels, averaged:
-- 'macro' the mean of the non-NULL values, 'weighted' their mean weighted by the classes'
-- weight in y, 'micro' stat over every (row, class) pair. rows is the aggregate _clf_mc_rows;
-- the CASE is folded when the query is bound.
CREATE OR REPLACE MACRO _clf_ovr(rows, labels, average, stat) AS
    CASE CAST(average AS VARCHAR)
        WHEN 'micro' THEN _clf_let(rows, lambda _clf_rows: _clf_let(
            flatten(list_transform(_clf_rows, lambda _clf_row: list_transform(_clf_row.s,
                lambda _clf_x, _clf_j: struct_pack(s := _clf_x, q := _clf_row.c = _clf_j, w := _clf_row.w)))),
            stat))
        WHEN 'weighted' THEN _clf_let(rows, lambda _clf_rows: _clf_vs_mean(
            list_transform(range(1, len(labels) + 1), lambda _clf_ci: struct_pack(
                v := _clf_let(_clf_ovr_rows(_clf_rows, _clf_ci), stat),
                s := list_sum(list_transform(_clf_rows,
                    lambda _clf_row: CASE WHEN _clf_row.c = _clf_ci THEN _clf_row.w ELSE 0.0 END))))))
        ELSE _clf_let(rows, lambda _clf_rows: list_avg(
            list_transform(range(1, len(labels) + 1),
                lambda _clf_ci: _clf_let(_clf_ovr_rows(_clf_rows, _clf_ci), stat))))
    END;

-- One-vs-one (Hand & Till): per pair of classes (a, b), the rows of a or b, and the mean of
-- stat(a against b, on the scores of a) and stat(b against a, on the scores of b); 'macro'
-- the mean over pairs, 'weighted' weighted by the pair's weight (clfeval._score._ovo).
CREATE OR REPLACE MACRO _clf_ovo(rows, labels, average, stat) AS
    _clf_let(rows, lambda _clf_rows: _clf_let(
        list_transform(
            flatten(list_transform(range(1, len(labels) + 1), lambda _clf_a: list_transform(
                range(_clf_a + 1, len(labels) + 1), lambda _clf_bb: [_clf_a, _clf_bb]))),
            lambda _clf_pr: _clf_let(
                list_filter(_clf_rows, lambda _clf_row: _clf_row.c = _clf_pr[1] OR _clf_row.c = _clf_pr[2]),
                lambda _clf_sub: struct_pack(
                    v := (_clf_let(_clf_ovr_rows(_clf_sub, _clf_pr[1]), stat)
                        + _clf_let(_clf_ovr_rows(_clf_sub, _clf_pr[2]), stat)) / 2,
                    s := list_sum(list_transform(_clf_sub, lambda _clf_row: _clf_row.w))))),
        lambda _clf_vs: CASE CAST(average AS VARCHAR)
            WHEN 'weighted' THEN _clf_vs_mean(_clf_vs)
            ELSE list_avg(list_transform(_clf_vs, lambda _clf_e: _clf_e.v))
        END));

-- --- AUROC and average precision, one-vs-rest and one-vs-one --------------------------------

CREATE OR REPLACE MACRO clf_auroc_ovr(y, scores, labels := NULL, average := 'macro', weight := NULL) AS
    CASE WHEN _clf_check_score_average(average, ['macro', 'weighted', 'micro'], 'clf_auroc_ovr')
        THEN _clf_mc_guard(
            CASE
                WHEN typeof([min(weight)]) = '"NULL"[]' THEN _clf_ovr(
                    _clf_mc_rows(y, scores, labels, weight), labels, average,
                    lambda _clf_b: _clf_auroc_ranks(_clf_b))
                ELSE _clf_ovr(
                    _clf_mc_rows(y, scores, labels, weight), labels, average,
                    lambda _clf_b: _clf_auroc_weighted(_clf_b))
            END,
            y, scores, labels, weight, 'clf_auroc_ovr', 'scores')
    END;

COMMENT ON MACRO clf_auroc_ovr IS
'One-vs-rest multiclass AUROC: the AUROC of each class of labels against the rest (ties counting half), averaged (scikit-learn roc_auc_score(multi_class=''ovr'', labels=, average=), sample_weight included). Aggregate macro: clf_auroc_ovr(y, scores, labels := [...], average := ''macro'', weight := NULL), scores a LIST (or ARRAY) of per-class scores in labels order, e.g. clf_auroc_ovr(label, [p_a, p_b, p_c], labels := [''a'', ''b'', ''c'']). average ''macro'' is the mean over classes, ''weighted'' weighs them by their weight in y, ''micro'' pools every (row, class) pair. A class absent from the group (or alone in it) has no AUROC and is left out of the average; NULL when no class has one. Rows with a NULL in y, weight or one of the len(labels) scores, a NaN score, or a y not in labels are left out. Errors (clfeval: ...) on scores that are not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, average other than the three, and a NaN, infinite or negative weight. Python twin: clfeval.auroc(y, {label: column}, multi_class=''ovr'').';

CREATE OR REPLACE MACRO clf_auroc_ovo(y, scores, labels := NULL, average := 'macro', weight := NULL) AS
    CASE WHEN _clf_check_score_average(average, ['macro', 'weighted'], 'clf_auroc_ovo')
        THEN _clf_mc_guard(
            CASE
                WHEN typeof([min(weight)]) = '"NULL"[]' THEN _clf_ovo(
                    _clf_mc_rows(y, scores, labels, weight), labels, average,
                    lambda _clf_b: _clf_auroc_ranks(_clf_b))
                ELSE _clf_ovo(
                    _clf_mc_rows(y, scores, labels, weight), labels, average,
                    lambda _clf_b: _clf_auroc_weighted(_clf_b))
            END,
            y, scores, labels, weight, 'clf_auroc_ovo', 'scores')
    END;

COMMENT ON MACRO clf_auroc_ovo IS
'One-vs-one multiclass AUROC (Hand & Till 2001): for each pair of classes (a, b) of labels, on the rows of a or b, the mean of AUROC(a against b, scores of a) and AUROC(b against a, scores of b); averaged over the pairs (scikit-learn roc_auc_score(multi_class=''ovo'', labels=, average=)). Aggregate macro: clf_auroc_ovo(y, scores, labels := [...], average := ''macro'', weight := NULL), scores a LIST (or ARRAY) of per-class scores in labels order. average ''macro'' is the plain mean over pairs, ''weighted'' weighs each pair by its weight (its prevalence). A pair with a class absent from the group has no value and is left out; NULL when no pair has one. weight weighs the rows as in Polars (scikit-learn''s ovo takes no sample_weight). Rows with a NULL in y, weight or one of the len(labels) scores, a NaN score, or a y not in labels are left out. Errors (clfeval: ...) on scores that are not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, average other than ''macro'' or ''weighted'', and a NaN, infinite or negative weight. Python twin: clfeval.auroc(y, {label: column}, multi_class=''ovo'').';

CREATE OR REPLACE MACRO clf_average_precision_ovr(y, scores, labels := NULL, average := 'macro', weight := NULL) AS
    CASE WHEN _clf_check_score_average(average, ['macro', 'weighted', 'micro'], 'clf_average_precision_ovr')
        THEN _clf_mc_guard(
            _clf_ovr(_clf_mc_rows(y, scores, labels, weight), labels, average,
                lambda _clf_b: _clf_average_precision(_clf_b)),
            y, scores, labels, weight, 'clf_average_precision_ovr', 'scores')
    END;

COMMENT ON MACRO clf_average_precision_ovr IS
'One-vs-rest multiclass average precision: the average precision of each class of labels against the rest, averaged (scikit-learn average_precision_score on the binarized labels, average=, sample_weight included). Aggregate macro: clf_average_precision_ovr(y, scores, labels := [...], average := ''macro'', weight := NULL), scores a LIST (or ARRAY) of per-class scores in labels order. average ''macro'' is the mean over classes, ''weighted'' weighs them by their weight in y, ''micro'' pools every (row, class) pair. A class absent from the group has no average precision (scikit-learn gives 0.0 with a warning) and is left out of the average; NULL when no class has one. Rows with a NULL in y, weight or one of the len(labels) scores, a NaN score, or a y not in labels are left out. Errors (clfeval: ...) on scores that are not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, average other than the three, and a NaN, infinite or negative weight. Python twin: clfeval.average_precision(y, {label: column}).';

-- --- log loss and Brier over per-class probabilities -----------------------------------------

CREATE OR REPLACE MACRO clf_log_loss_multiclass(y, p, labels := NULL, weight := NULL) AS
    _clf_mc_guard(
        _clf_mc_proba_guard(
            _clf_div(
                sum(_clf_weight(weight) * -ln(_clf_clip(
                        _clf_class_scores(p, labels)[_clf_class_index(y, labels)])))
                    FILTER (WHERE _clf_mc_valid(y, p, labels, weight)),
                coalesce(sum(_clf_weight(weight)) FILTER (WHERE _clf_mc_valid(y, p, labels, weight)), 0.0),
                NULL),
            p, labels, 'clf_log_loss_multiclass'),
        y, p, labels, weight, 'clf_log_loss_multiclass', 'probabilities');

COMMENT ON MACRO clf_log_loss_multiclass IS
'Multiclass log loss (cross-entropy): the weighted mean of -ln(q), q the probability given to the actual class (its element of p), clipped to [eps, 1 - eps] with eps = 2.22e-16 as scikit-learn log_loss(labels=) on float64. Rows whose probabilities do not sum to 1 are taken as they are, as the Polars expression does (scikit-learn 1.9 neither renormalises; the Python front door raises on them). Aggregate macro: clf_log_loss_multiclass(y, p, labels := [...], weight := NULL), p a LIST (or ARRAY) of per-class probabilities in labels order. NULL when no row is left; probabilities outside [0, 1] raise. Rows with a NULL in y, weight or one of the len(labels) probabilities, a NaN one, or a y not in labels are left out. Errors (clfeval: ...) on p that is not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, and a NaN, infinite or negative weight. Python twin: clfeval.log_loss(y, {label: column}).';

CREATE OR REPLACE MACRO clf_brier_multiclass(y, p, labels := NULL, weight := NULL) AS
    _clf_mc_guard(
        _clf_mc_proba_guard(
            CASE WHEN len(labels) < 3 THEN 0.5 ELSE 1.0 END * _clf_div(
                -- sum_c (1[c = y] - p_c)^2 = p.p - 2 p_y + 1 (not list_inner_product: it raises
                -- on a NULL element anywhere in the vector, even on the rows left out)
                sum(CASE WHEN _clf_mc_valid(y, p, labels, weight) THEN _clf_weight(weight) * (
                        list_sum(list_transform(_clf_class_scores(p, labels), lambda _clf_x: _clf_x * _clf_x))
                        - 2 * _clf_class_scores(p, labels)[_clf_class_index(y, labels)] + 1) END),
                coalesce(sum(_clf_weight(weight)) FILTER (WHERE _clf_mc_valid(y, p, labels, weight)), 0.0),
                NULL),
            p, labels, 'clf_brier_multiclass'),
        y, p, labels, weight, 'clf_brier_multiclass', 'probabilities');

COMMENT ON MACRO clf_brier_multiclass IS
'Multiclass Brier score (scikit-learn 1.9 brier_score_loss on per-class probabilities): the weighted mean over rows of the sum over classes of (1[y = class] - p_class)^2, halved when labels lists two classes (which gives the binary score). Aggregate macro: clf_brier_multiclass(y, p, labels := [...], weight := NULL), p a LIST (or ARRAY) of per-class probabilities in labels order. NULL when no row is left; probabilities outside [0, 1] raise. Rows with a NULL in y, weight or one of the len(labels) probabilities, a NaN one, or a y not in labels are left out. Errors (clfeval: ...) on p that is not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, and a NaN, infinite or negative weight. Python twin: clfeval.brier(y, {label: column}).';

-- --- top-k accuracy ---------------------------------------------------------------------------

-- Whether the actual class c is among the k highest of the scores s: fewer than k classes
-- score above it, a class listed later ranking higher among equal scores (scikit-learn's
-- stable argsort, reversed).
CREATE OR REPLACE MACRO _clf_top_k_hit(s, c, k) AS
    _clf_let(struct_pack(s := s, c := c), lambda _clf_tk: list_sum(list_transform(_clf_tk.s,
        lambda _clf_x, _clf_j: CASE
            WHEN _clf_x > _clf_tk.s[_clf_tk.c] OR (_clf_x = _clf_tk.s[_clf_tk.c] AND _clf_j > _clf_tk.c)
                THEN 1 ELSE 0 END)) < k);

CREATE OR REPLACE MACRO clf_top_k_accuracy(y, scores, labels := NULL, k := 2, weight := NULL) AS
    CASE WHEN _clf_check_k(k, 'clf_top_k_accuracy: ')
        THEN _clf_mc_guard(
            _clf_div(
                coalesce(sum(CASE WHEN _clf_top_k_hit(_clf_class_scores(scores, labels),
                        _clf_class_index(y, labels), k) THEN _clf_weight(weight) ELSE 0.0 END)
                    FILTER (WHERE _clf_mc_valid(y, scores, labels, weight)), 0.0),
                coalesce(sum(_clf_weight(weight)) FILTER (WHERE _clf_mc_valid(y, scores, labels, weight)), 0.0),
                NULL),
            y, scores, labels, weight, 'clf_top_k_accuracy', 'scores')
    END;

COMMENT ON MACRO clf_top_k_accuracy IS
'Top-k accuracy: the weighted share of rows whose actual class is among the k highest-scored classes, ties broken as scikit-learn does (among equal scores the class listed later ranks higher) (scikit-learn top_k_accuracy_score(labels=, k=), sample_weight included). Aggregate macro: clf_top_k_accuracy(y, scores, labels := [...], k := 2, weight := NULL), scores a LIST (or ARRAY) of per-class scores in labels order. NULL when no row (or no weight) is left. Rows with a NULL in y, weight or one of the len(labels) scores, a NaN score, or a y not in labels are left out. Errors (clfeval: ...) on k that is not an integer from 1 to 2^31, scores that are not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, and a NaN, infinite or negative weight. Python twin: clfeval.top_k_accuracy(y, [columns], labels=).';

-- --- KS -------------------------------------------------------------------------------------

-- Kolmogorov-Smirnov: max over the distinct scores t, highest first, of |TPR - FPR| of the rule
-- score >= t. One pass over the rows sorted by score (list_reduce), closing each run of tied
-- scores, on weights divided by the largest weight. NULL with one class.
CREATE OR REPLACE MACRO _clf_ks(rows) AS
    _clf_let(
        struct_pack(l := list_reverse_sort(rows), m := list_max(list_transform(rows, lambda _clf_r: _clf_r.w))),
        lambda _clf_t: _clf_let(
            struct_pack(
                l := _clf_t.l, m := _clf_t.m,
                pt := list_sum(list_transform(_clf_t.l,
                    lambda _clf_r: CASE WHEN _clf_r.q THEN _clf_r.w / _clf_t.m ELSE 0.0 END)),
                nt := list_sum(list_transform(_clf_t.l,
                    lambda _clf_r: CASE WHEN _clf_r.q THEN 0.0 ELSE _clf_r.w / _clf_t.m END))),
            lambda _clf_u: _clf_let(
                list_reduce(_clf_u.l,
                    lambda _clf_acc, _clf_x: CASE
                        WHEN _clf_x.s = _clf_acc.s THEN struct_pack(s := _clf_acc.s,
                            p := _clf_acc.p + CASE WHEN _clf_x.q THEN _clf_x.w / _clf_u.m ELSE 0.0 END,
                            n := _clf_acc.n + CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_u.m END,
                            tp := _clf_acc.tp, fp := _clf_acc.fp, g := _clf_acc.g)
                        ELSE struct_pack(s := _clf_x.s,
                            p := CASE WHEN _clf_x.q THEN _clf_x.w / _clf_u.m ELSE 0.0 END,
                            n := CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_u.m END,
                            tp := _clf_acc.tp + _clf_acc.p, fp := _clf_acc.fp + _clf_acc.n,
                            g := greatest(_clf_acc.g, abs(_clf_div(_clf_acc.tp + _clf_acc.p, _clf_u.pt, 0.0)
                                - _clf_div(_clf_acc.fp + _clf_acc.n, _clf_u.nt, 0.0))))
                    END,
                    -- g starts at 0 * m, not a constant: the DuckDB 1.5.6 client carried a
                    -- constant start's g from one group to the next
                    struct_pack(s := CAST('inf' AS DOUBLE), p := 0.0::DOUBLE, n := 0.0::DOUBLE,
                        tp := 0.0::DOUBLE, fp := 0.0::DOUBLE, g := 0.0 * _clf_u.m)),
                lambda _clf_r: CASE WHEN _clf_u.m > 0 AND _clf_u.pt > 0 AND _clf_u.nt > 0 THEN
                    greatest(_clf_r.g, abs(_clf_div(_clf_r.tp + _clf_r.p, _clf_u.pt, 0.0)
                        - _clf_div(_clf_r.fp + _clf_r.n, _clf_u.nt, 0.0))) END)));

CREATE OR REPLACE MACRO clf_ks(y, score, pos_label := 1, weight := NULL) AS
    _clf_rank_guard(
        _clf_ks(_clf_rank_rows(y, score, pos_label, weight)),
        y, score, pos_label, weight, 'clf_ks');

COMMENT ON MACRO clf_ks IS
'Kolmogorov-Smirnov statistic: the largest |TPR - FPR| over the thresholds (score >= t), the largest gap between the score distributions of positives (y = pos_label) and negatives (scipy ks_2samp''s statistic), sample weights included. Aggregate macro: clf_ks(y, score, pos_label := 1, weight := NULL). NULL when the group has only one class. Rows with a NULL in y, score or weight, or a NaN score, are left out. Errors (clfeval: ...) on a score that holds no numbers, pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL and a NaN, infinite or negative weight. Python twin: clfeval.ks.';

-- --- expected calibration error ---------------------------------------------------------------

-- ECE from the rows {b: bin, g: weight x (hit - p), w: weight}: sorted by bin and closed run by
-- run (list_reduce): 'expected' is the sum over bins of |sum g| / the total weight, 'max' the
-- largest |sum g| / sum w over bins of positive weight. NULL when no weight is left.
CREATE OR REPLACE MACRO _clf_ece(rows, kind) AS
    _clf_let(
        struct_pack(
            r := list_reduce(list_sort(rows),
                lambda _clf_acc, _clf_x: CASE
                    WHEN _clf_x.b = _clf_acc.b THEN struct_pack(b := _clf_acc.b,
                        g := _clf_acc.g + _clf_x.g, w := _clf_acc.w + _clf_x.w,
                        e := _clf_acc.e, mx := _clf_acc.mx)
                    ELSE struct_pack(b := _clf_x.b, g := _clf_x.g, w := _clf_x.w,
                        e := _clf_acc.e + abs(_clf_acc.g),
                        mx := CASE WHEN _clf_acc.w > 0 THEN greatest(_clf_acc.mx, abs(_clf_acc.g) / _clf_acc.w)
                            ELSE _clf_acc.mx END)
                END,
                struct_pack(b := -1::BIGINT, g := 0.0::DOUBLE, w := 0.0::DOUBLE, e := 0.0::DOUBLE,
                    mx := -1.0::DOUBLE)),
            total := list_sum(list_transform(rows, lambda _clf_r: _clf_r.w))),
        lambda _clf_t: CASE
            WHEN NOT coalesce(_clf_t.total > 0, false) THEN NULL
            WHEN CAST(kind AS VARCHAR) = 'expected' THEN (_clf_t.r.e + abs(_clf_t.r.g)) / _clf_t.total
            ELSE nullif(CASE WHEN _clf_t.r.w > 0 THEN greatest(_clf_t.r.mx, abs(_clf_t.r.g) / _clf_t.r.w)
                ELSE _clf_t.r.mx END, -1.0)
        END);

CREATE OR REPLACE MACRO clf_ece(y, p, n_bins := 10, kind := 'expected', pos_label := 1, weight := NULL) AS
    CASE WHEN _clf_checked_bins(n_bins) IS NOT NULL AND _clf_check_ece_kind(kind, 'clf_ece')
        THEN _clf_prob_guard(
            _clf_proba_guard(
                _clf_ece(list(struct_pack(
                        b := _clf_uniform_bin(_clf_num(p), n_bins),
                        g := _clf_weight(weight) * (CASE WHEN coalesce(_clf_eq(y, pos_label), false) THEN 1.0 ELSE 0.0 END
                            - _clf_num(p)),
                        w := _clf_weight(weight)))
                    FILTER (WHERE y IS NOT NULL AND _clf_num(p) IS NOT NULL AND _clf_weight(weight) IS NOT NULL),
                    kind),
                p, 'clf_ece'),
            y, p, pos_label, weight, 'clf_ece')
    END;

COMMENT ON MACRO clf_ece IS
'Expected calibration error: the sum over uniform bins b of (w_b / w) |acc_b - conf_b|, acc_b the share of pos_label and conf_b the mean p in bin b (bins [0, 1/n], (1/n, 2/n], ... as clf_calibration); kind := ''max'' gives the maximum calibration error, the largest |acc_b - conf_b| over non-empty bins. Aggregate macro: clf_ece(y, p, n_bins := 10, kind := ''expected'', pos_label := 1, weight := NULL). NULL when no row (or no weight) is left; probabilities outside [0, 1] raise. Rows with a NULL in y, p or weight, or a NaN p, are left out. Errors (clfeval: ...) on n_bins that is not an integer from 1 to 1000, kind other than ''expected'' or ''max'', p that holds no numbers, pos_label of another kind than y or NULL and a NaN, infinite or negative weight. Python twin: clfeval.ece.';

CREATE OR REPLACE MACRO clf_ece_multiclass(y, p, labels := NULL, n_bins := 10, kind := 'expected', weight := NULL) AS
    CASE WHEN _clf_checked_bins(n_bins) IS NOT NULL AND _clf_check_ece_kind(kind, 'clf_ece_multiclass')
        THEN _clf_mc_guard(
            _clf_mc_proba_guard(
                _clf_ece(list(_clf_let(
                        struct_pack(
                            q := list_max(_clf_class_scores(p, labels)),
                            hit := list_position(_clf_class_scores(p, labels), list_max(_clf_class_scores(p, labels)))
                                = _clf_class_index(y, labels),
                            w := _clf_weight(weight)),
                        lambda _clf_e: struct_pack(
                            b := _clf_uniform_bin(_clf_e.q, n_bins),
                            g := _clf_e.w * (CASE WHEN _clf_e.hit THEN 1.0 ELSE 0.0 END - _clf_e.q),
                            w := _clf_e.w)))
                    FILTER (WHERE _clf_mc_valid(y, p, labels, weight)),
                    kind),
                p, labels, 'clf_ece_multiclass'),
            y, p, labels, weight, 'clf_ece_multiclass', 'probabilities')
    END;

COMMENT ON MACRO clf_ece_multiclass IS
'Top-label expected calibration error (Guo et al. 2017, as torchmetrics): conf is the largest probability of the row and acc_b the share of rows in bin b whose actual class has it (ties go to the first class in labels order); then the sum over uniform bins of (w_b / w) |acc_b - conf_b|, or with kind := ''max'' the largest |acc_b - conf_b| over non-empty bins. Aggregate macro: clf_ece_multiclass(y, p, labels := [...], n_bins := 10, kind := ''expected'', weight := NULL), p a LIST (or ARRAY) of per-class probabilities in labels order. NULL when no row (or no weight) is left; probabilities outside [0, 1] raise. Rows with a NULL in y, weight or one of the len(labels) probabilities, a NaN one, or a y not in labels are left out. Errors (clfeval: ...) on n_bins that is not an integer from 1 to 1000, kind other than ''expected'' or ''max'', p that is not a LIST of numbers, labels NULL, with fewer than two classes, a class twice, NULL or of another kind than y, and a NaN, infinite or negative weight. Python twin: clfeval.ece(y, {label: column}).';
