-- clfeval SQL layer, file 40: probability metrics, and the ranking metrics as aggregate macros.
-- Python twin: clfeval._prob (log_loss, brier, calibration) and clfeval._score (auroc,
-- average_precision). Conventions: see 00_helpers.sql.
--
-- p is the probability of the class pos_label. Aggregate macros leave out rows with a NULL (or
-- NaN) y, p or weight, and raise when a probability lies outside [0, 1] (infinite values
-- included), when p holds no numbers, and on the label and weight checks of 20_label.sql; they
-- never clip or renormalise except as scikit-learn does for log loss. clf_auroc takes
-- max_fpr := NULL (in (0, 1): the McClish-standardised partial area, _clf_auroc_partial).
-- KS, ECE and the multiclass forms (a LIST of per-class scores) are in 45_multiclass.sql.

-- value, or an error from the checks of a probability macro named who: p holds numbers, then
-- those of _clf_agg_guard (y and pos_label of one kind, finite weights >= 0).
CREATE OR REPLACE MACRO _clf_prob_guard(value, y, p, pos_label, weight, who) AS
    CASE
        WHEN _clf_check_number(_clf_agg_type(p), printf('%s: p (%s)', who, _clf_agg_type(p)),
                'probabilities')
            THEN _clf_agg_guard(value, y, NULL, pos_label, true, weight, who)
    END;

-- scikit-learn clips to [eps, 1 - eps] with eps the float64 machine epsilon. A CASE, not
-- least(greatest(...)): DuckDB's least and greatest cost twice as much per row.
CREATE OR REPLACE MACRO _clf_clip(x) AS
    CASE
        WHEN x < 2.220446049250313e-16 THEN 2.220446049250313e-16
        WHEN x > 1 - 2.220446049250313e-16 THEN 1 - 2.220446049250313e-16
        ELSE CAST(x AS DOUBLE)
    END;

-- A row's two probabilities in scikit-learn's two-column form: given, that of the actual class
-- (p for pos_label, 1 - p otherwise), and other, that of the other class (1 - p for
-- pos_label, p otherwise). Branch-free, as |[y is not pos_label] - p| and |[y is pos_label] -
-- p|: exact for p in [0, 1] (|0 - p| = p, |1 - p| = 1 - p) and half the cost of a CASE per
-- row. NULL when y or p is NULL (the row is left out of the sums).
CREATE OR REPLACE MACRO _clf_p_given(y, p, pos_label) AS
    abs(CAST(NOT _clf_eq(y, pos_label) AS DOUBLE) - p);
CREATE OR REPLACE MACRO _clf_p_other(y, p, pos_label) AS
    abs(CAST(_clf_eq(y, pos_label) AS DOUBLE) - p);

CREATE OR REPLACE MACRO clf_log_loss(y, p, pos_label := 1, weight := NULL) AS
    _clf_prob_guard(
        _clf_proba_guard(
            _clf_div(
                sum(_clf_weight(weight) * -ln(_clf_clip(_clf_p_given(y, _clf_num(p), pos_label)))),
                _clf_sum(y IS NOT NULL AND _clf_num(p) IS NOT NULL, weight),
                NULL),
            p, 'clf_log_loss'),
        y, p, pos_label, weight, 'clf_log_loss');

COMMENT ON MACRO clf_log_loss IS
'Binary log loss (cross-entropy): the weighted mean of -ln(q), q the probability given to the actual class (p for pos_label, 1 - p otherwise), clipped to [eps, 1 - eps] with eps = 2.22e-16 as scikit-learn log_loss on float64 (with labels given, so one class is fine). Aggregate macro: clf_log_loss(y, p, pos_label := 1, weight := NULL). NULL when no row is left; probabilities outside [0, 1] raise. Rows with a NULL in y, p or weight, or a NaN p, are left out. Errors (clfeval: ...) on p that holds no numbers, pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL and a NaN, infinite or negative weight. Python twin: clfeval.log_loss.';

CREATE OR REPLACE MACRO clf_brier(y, p, pos_label := 1, weight := NULL) AS
    _clf_prob_guard(
        _clf_proba_guard(
            0.5 * _clf_div(
                -- scikit-learn's two columns: (1 - given)^2 + other^2, which is 2 (1 - p)^2 on
                -- positives and (1 - (1 - p))^2 + p^2 on the others, bit for bit
                sum(_clf_weight(weight) * (
                    (1.0 - _clf_p_given(y, _clf_num(p), pos_label))
                        * (1.0 - _clf_p_given(y, _clf_num(p), pos_label))
                    + _clf_p_other(y, _clf_num(p), pos_label)
                        * _clf_p_other(y, _clf_num(p), pos_label))),
                _clf_sum(y IS NOT NULL AND _clf_num(p) IS NOT NULL, weight),
                NULL),
            p, 'clf_brier'),
        y, p, pos_label, weight, 'clf_brier');

COMMENT ON MACRO clf_brier IS
'Brier score: the weighted mean of (outcome - p)^2, outcome 1 for pos_label and 0 otherwise (scikit-learn brier_score_loss for binary data). Aggregate macro: clf_brier(y, p, pos_label := 1, weight := NULL). NULL when no row is left; probabilities outside [0, 1] raise. Rows with a NULL in y, p or weight, or a NaN p, are left out. Errors (clfeval: ...) on p that holds no numbers, pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL and a NaN, infinite or negative weight. Python twin: clfeval.brier.';

-- strategy, or an error when it is not 'uniform' or 'quantile'.
CREATE OR REPLACE MACRO _clf_checked_strategy(strategy) AS
    CASE
        WHEN strategy IN ('uniform', 'quantile') THEN strategy
        ELSE error(printf('clfeval: strategy = %s is not ''uniform'' or ''quantile''',
            coalesce('''' || strategy || '''', 'NULL')))
    END;

CREATE OR REPLACE MACRO clf_calibration(
    tbl, y, proba, group_cols := [], weight_col := NULL, pos_label := 1, n_bins := 10,
    strategy := 'uniform'
) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, proba, pos_label, 'proba')),
rows_in AS NOT MATERIALIZED (FROM _clf_score_rows(tbl, y, proba, group_cols, weight_col, pos_label)),
-- Quantile edges: numpy.percentile's linear interpolation between order statistics.
ranked AS (
    SELECT __clf_key, __clf_s,
        row_number() OVER (PARTITION BY __clf_key ORDER BY __clf_s) - 1 AS __clf_idx,
        count(*) OVER (PARTITION BY __clf_key) AS __clf_n
    FROM rows_in
    WHERE _clf_checked_strategy(strategy) = 'quantile' AND __clf_w <> 0
),
wanted AS (
    SELECT __clf_key, k, __clf_v,
        CASE WHEN __clf_v >= __clf_n - 1 THEN __clf_n - 1 ELSE CAST(floor(__clf_v) AS BIGINT) END AS lo_idx,
        CASE WHEN __clf_v >= __clf_n - 1 THEN __clf_n - 1 ELSE CAST(floor(__clf_v) AS BIGINT) + 1 END AS hi_idx,
        __clf_v - floor(__clf_v) AS gamma
    FROM (
        SELECT __clf_key, __clf_n, k,
            CAST(__clf_n - 1 AS DOUBLE)
                * ((CAST(k AS DOUBLE) * _clf_div(1, n_bins, NULL)) * 100 / 100) AS __clf_v
        FROM (SELECT DISTINCT __clf_key, __clf_n FROM ranked),
            (SELECT unnest(range(1, CAST(_clf_checked_bins(n_bins) AS BIGINT))) AS k)
    )
),
quantile_edges AS (
    SELECT w.__clf_key,
        list(CASE
                WHEN w.gamma >= 0.5 THEN hi.__clf_s - (hi.__clf_s - lo.__clf_s) * (1 - w.gamma)
                ELSE lo.__clf_s + (hi.__clf_s - lo.__clf_s) * w.gamma
            END ORDER BY w.k) AS edges
    FROM wanted AS w
    JOIN ranked AS lo ON lo.__clf_key = w.__clf_key AND lo.__clf_idx = w.lo_idx
    JOIN ranked AS hi ON hi.__clf_key = w.__clf_key AND hi.__clf_idx = w.hi_idx
    GROUP BY ALL
),
-- numpy.searchsorted(inner edges, p): the number of inner edges strictly below p; uniform
-- bins by arithmetic (_clf_bin_edge, 00_helpers.sql; its key runs one past each end, and
-- bin_sums clips the few groups, not the rows), quantile bins by counting their edges.
-- (n_bins checked and read once, as a column: the bin arithmetic repeats n, and a macro
-- expression in its place took 80 ms to bind)
n_col AS (SELECT _clf_option_number(_clf_checked_bins(n_bins)) AS n),
binned AS (
    SELECT rows_in.*, _clf_bin_edge(__clf_s, b.n) AS __clf_bin
    FROM rows_in, n_col AS b
    WHERE _clf_checked_strategy(strategy) = 'uniform'
    UNION ALL
    SELECT i.*,
        CAST(len(list_filter(coalesce(q.edges, []), lambda edge: edge < i.__clf_s)) AS DOUBLE)
    FROM rows_in AS i
    LEFT JOIN quantile_edges AS q USING (__clf_key)
    WHERE _clf_checked_strategy(strategy) = 'quantile'
),
-- per bin: the weight, the weighted sum of probabilities, the positive weight and the
-- smallest and largest probability (for the checks); without a weight column, counts. The
-- unclipped bins by the raw group columns first (_clf_keys_and), then their few groups
-- keyed, clipped to [0, n - 1] and merged.
unclipped AS (
    SELECT COLUMNS(_clf_keys_and(group_cols, '__clf_bin')), NULL::BOOLEAN AS __clf_nogroup,
        count(*) AS w, sum(__clf_s) AS ws,
        count_if(__clf_pos) AS pw, min(__clf_s) AS lo, max(__clf_s) AS hi
    FROM binned
    WHERE weight_col IS NULL
    GROUP BY ALL
    UNION ALL
    SELECT COLUMNS(_clf_keys_and(group_cols, '__clf_bin')), NULL::BOOLEAN AS __clf_nogroup,
        sum(__clf_w), sum(__clf_w * __clf_s),
        sum(CASE WHEN __clf_pos THEN __clf_w ELSE 0 END), min(__clf_s), max(__clf_s)
    FROM binned
    WHERE weight_col IS NOT NULL
    GROUP BY ALL
),
bin_sums AS (
    SELECT struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key,
        _clf_bin_clip(__clf_bin, b.n) AS bin, sum(w) AS w, sum(ws) AS ws,
        sum(pw) AS pw, min(lo) AS lo, max(hi) AS hi
    FROM unclipped, n_col AS b
    GROUP BY ALL
),
-- The checks read what the GROUP BY of the bins gives anyway: without a weight column, when
-- every bin's smallest probability is >= 0 and its largest <= 1 (a NaN is the largest DOUBLE
-- in DuckDB's order, so it fails this too), nothing is wrong and the rows are not read again;
-- else one more pass over the rows counts what the message names (the one-row join on
-- `clean` keeps DuckDB from scanning when it is true).
clean AS MATERIALIZED (
    SELECT CASE
        WHEN _clf_checked_strategy(strategy) IS NULL OR _clf_checked_bins(n_bins) IS NULL
            THEN false
        ELSE weight_col IS NULL AND coalesce(min(lo) >= 0 AND max(hi) <= 1, true)
    END AS clean
    FROM bin_sums
),
checked AS (
    SELECT true AS ok FROM clean WHERE clean
    UNION ALL
    SELECT CASE
        WHEN weight_col IS NOT NULL AND NOT _clf_check_weights(
                count_if(isnan(__clf_w)),
                count_if(isinf(__clf_w)),
                count_if(__clf_w < 0),
                min(__clf_w),
                printf('column %s (role weight)', _clf_quoted(weight_col)))
            THEN false
        ELSE _clf_check_proba(
            count(*) FILTER (WHERE isnan(__clf_s)),
            count(*) FILTER (WHERE NOT isnan(__clf_s) AND (__clf_s < 0 OR __clf_s > 1)),
            min(__clf_s) FILTER (WHERE NOT isnan(__clf_s)),
            max(__clf_s) FILTER (WHERE NOT isnan(__clf_s)),
            proba)
    END
    FROM rows_in, clean
    WHERE NOT clean.clean
),
bins AS (
    SELECT __clf_key, bin,
        _clf_div(ws, w, NULL) AS mean_predicted,
        _clf_div(pw, w, NULL) AS fraction_positive,
        CAST(w AS DOUBLE) AS count__d,
        TRY_CAST(w AS BIGINT) AS count__i
    FROM bin_sums, (SELECT bool_and(ok) AS ok FROM checked) AS c, args
    WHERE c.ok AND args.ok AND w > 0
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key, bin, mean_predicted, fraction_positive,
        COLUMNS(_clf_typed(weight_col, 'count')) AS count
    FROM bins
)
ORDER BY __clf_key, bin;

COMMENT ON MACRO TABLE clf_calibration IS
'Calibration (reliability) curve: (group columns..., bin, mean_predicted, fraction_positive, count), one row per non-empty bin (bin numbered from 0), the points of scikit-learn calibration_curve(y, proba, n_bins=, strategy=) with prob_pred = mean_predicted and prob_true = fraction_positive. Usage: FROM clf_calibration(''preds'', ''y'', ''p'', group_cols := [], weight_col := NULL, pos_label := 1, n_bins := 10, strategy := ''uniform''). ''uniform'' bins split [0, 1] evenly; ''quantile'' bins put the same number of rows in each bin (edges from the rows of nonzero weight, unweighted, as numpy.percentile). A probability on an inner edge falls in the lower bin. count is BIGINT (DOUBLE, and the means weighted, with weight_col). Probabilities outside [0, 1] or NaN raise. Rows with a NULL in y, p or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, NaN, infinite or negative weights, and n_bins that is not an integer from 1 to 1000. Python twin: clfeval.calibration.';

-- --- the ranking metrics as aggregate macros ----------------------------------------------
-- clf_auroc and clf_average_precision are also aggregate macros, for the caller's own GROUP BY:
--   SELECT model, clf_auroc(label, score) FROM preds GROUP BY model;
-- They take two expressions (the table macros take a table name and three strings), so DuckDB
-- tells the two forms apart by their number of arguments. Aggregate semantics, as in
-- 20_label.sql: rows with a NULL y, score or weight, or a NaN score, are left out; no error on
-- infinite scores. Without a weight, the aggregate's own ORDER BY lists the rows in score
-- order and the metric follows from positions alone (list_where): no running sums. With a
-- weight, the rows are gathered into one list (list() of a struct), sorted and summed in one
-- list_reduce pass (about 7 us a row: use the table macros for one huge weighted group);
-- weights are divided by the group's largest weight first, so sums of 1e300 weights cannot
-- overflow.

-- The rows a ranking aggregate reads: {s: score, q: y is pos_label, w: weight}.
CREATE OR REPLACE MACRO _clf_rank_rows(y, score, pos_label, weight) AS
    list(struct_pack(
            s := _clf_num(score),
            q := coalesce(_clf_eq(y, pos_label), false),
            w := _clf_weight(weight)))
        FILTER (WHERE y IS NOT NULL AND _clf_num(score) IS NOT NULL AND _clf_weight(weight) IS NOT NULL);

-- value, or an error from the checks of a ranking aggregate named who: score holds numbers,
-- then those of _clf_agg_guard (y and pos_label of one kind, finite weights >= 0).
CREATE OR REPLACE MACRO _clf_rank_guard(value, y, score, pos_label, weight, who) AS
    CASE
        WHEN _clf_check_number(_clf_agg_type(score),
                printf('%s: score (%s)', who, _clf_agg_type(score)), 'scores')
            THEN _clf_agg_guard(value, y, NULL, pos_label, true, weight, who)
    END;

-- Unweighted AUROC from positions (Mann-Whitney): whether each row is positive, listed in score
-- order twice by the aggregate's own ORDER BY, negatives first among tied scores (q1) and
-- positives first (q2); the positions of the positives in each (list_where) average to their
-- mid-ranks: ((S1 + S2) / 2 - P (P + 1) / 2) / (P N). No list sort, no running sums (a
-- list_reduce costs ~7 us a row). NULL with one class.
CREATE OR REPLACE MACRO _clf_auroc_positions(y, score, pos_label) AS
    _clf_let(struct_pack(
            q1 := list(coalesce(_clf_eq(y, pos_label), false) ORDER BY _clf_num(score), coalesce(_clf_eq(y, pos_label), false))
                FILTER (WHERE y IS NOT NULL AND _clf_num(score) IS NOT NULL),
            q2 := list(coalesce(_clf_eq(y, pos_label), false) ORDER BY _clf_num(score), coalesce(_clf_eq(y, pos_label), false) DESC)
                FILTER (WHERE y IS NOT NULL AND _clf_num(score) IS NOT NULL)),
        lambda _clf_t: _clf_let(struct_pack(
                a := list_where(range(1, len(_clf_t.q1) + 1), _clf_t.q1),
                b := list_where(range(1, len(_clf_t.q2) + 1), _clf_t.q2),
                n := len(_clf_t.q1)),
            lambda _clf_u: _clf_div(
                (coalesce(list_sum(_clf_u.a), 0) + coalesce(list_sum(_clf_u.b), 0)) / 2
                    - len(_clf_u.a) * (len(_clf_u.a) + 1) / 2,
                len(_clf_u.a) * (_clf_u.n - len(_clf_u.a)), NULL)));

-- Unweighted AUROC of a list of rows {s, q} (the per-class lists of 45_multiclass.sql), from
-- ranks (Mann-Whitney): sorted with negatives first among tied scores,
-- position i of the k-th positive counts the negatives at or below its score (i - k); sorted
-- with positives first, those strictly below. Their mean counts ties half:
-- ((S1 + S2) / 2 - P (P + 1) / 2) / (P N), S the sums of the positives' positions.
-- Two vectorised list sorts, no running sums. NULL with one class.
CREATE OR REPLACE MACRO _clf_auroc_ranks(rows) AS
    _clf_let(
        list_transform(rows, lambda _clf_r: struct_pack(s := _clf_r.s, q := _clf_r.q)),
        lambda _clf_l: _clf_let(
            struct_pack(
                p := CAST(len(list_filter(_clf_l, lambda _clf_r: _clf_r.q)) AS DOUBLE),
                n := CAST(len(list_filter(_clf_l, lambda _clf_r: NOT _clf_r.q)) AS DOUBLE),
                s1 := CAST(list_sum(list_transform(list_sort(_clf_l),
                    lambda _clf_r, _clf_i: CASE WHEN _clf_r.q THEN _clf_i ELSE 0 END)) AS DOUBLE),
                s2 := CAST(list_sum(list_transform(
                    list_sort(list_transform(_clf_l, lambda _clf_r: struct_pack(s := _clf_r.s, nq := NOT _clf_r.q))),
                    lambda _clf_r, _clf_i: CASE WHEN _clf_r.nq THEN 0 ELSE _clf_i END)) AS DOUBLE)),
            lambda _clf_t: _clf_div((_clf_t.s1 + _clf_t.s2) / 2 - _clf_t.p * (_clf_t.p + 1) / 2, _clf_t.p * _clf_t.n, NULL)));

-- Weighted AUROC: one pass over the rows sorted by score (list_reduce, ~7 us a row), closing each run of
-- tied scores: area += P_run (N_below + N_run / 2); then area / (P N), on weights divided by
-- the largest weight m. NULL with one class (or no weight left).
CREATE OR REPLACE MACRO _clf_auroc_weighted(rows) AS
    _clf_let(
        struct_pack(l := list_sort(rows), m := list_max(list_transform(rows, lambda _clf_r: _clf_r.w))),
        lambda _clf_t: _clf_let(
            list_reduce(_clf_t.l,
                lambda _clf_acc, _clf_x: CASE
                    WHEN _clf_x.s = _clf_acc.s THEN struct_pack(s := _clf_acc.s,
                        p := _clf_acc.p + CASE WHEN _clf_x.q THEN _clf_x.w / _clf_t.m ELSE 0.0 END,
                        n := _clf_acc.n + CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_t.m END,
                        b := _clf_acc.b, a := _clf_acc.a, t := _clf_acc.t)
                    ELSE struct_pack(s := _clf_x.s,
                        p := CASE WHEN _clf_x.q THEN _clf_x.w / _clf_t.m ELSE 0.0 END,
                        n := CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_t.m END,
                        b := _clf_acc.b + _clf_acc.n, a := _clf_acc.a + _clf_acc.p * (_clf_acc.b + _clf_acc.n / 2), t := _clf_acc.t + _clf_acc.p)
                END,
                struct_pack(s := CAST('-inf' AS DOUBLE), p := 0.0::DOUBLE, n := 0.0::DOUBLE,
                    b := 0.0::DOUBLE, a := 0.0::DOUBLE, t := 0.0::DOUBLE)),
            lambda _clf_r: CASE WHEN _clf_t.m > 0 THEN _clf_div(
                _clf_r.a + _clf_r.p * (_clf_r.b + _clf_r.n / 2), (_clf_r.t + _clf_r.p) * (_clf_r.b + _clf_r.n), NULL) END));

-- TRUE, or an error when max_fpr is neither NULL nor a number in (0, 1] (clfeval._options.max_fpr).
CREATE OR REPLACE MACRO _clf_check_max_fpr(max_fpr, who) AS
    CASE
        WHEN max_fpr IS NULL THEN true
        WHEN _clf_option_number(max_fpr) > 0 AND _clf_option_number(max_fpr) <= 1
            AND NOT isnan(_clf_option_number(max_fpr)) THEN true
        ELSE error(printf('clfeval: %smax_fpr = %s is not a number in (0, 1]; max_fpr is the '
            || 'false positive rate where the partial area stops', who, _clf_show(max_fpr)))
    END;

-- One trapezoid of the partial ROC area from (x0, y0) to (x1, y1), cut at fpr = f: the whole
-- trapezoid when x1 <= f, the part up to f (tpr interpolated, numpy.interp) when x0 <= f < x1,
-- else 0 (clfeval._score.auroc_stat).
CREATE OR REPLACE MACRO _clf_pauc_seg(x0, y0, x1, y1, f) AS
    CASE
        WHEN x1 <= f THEN (x1 - x0) * (y1 + y0) / 2
        WHEN x0 <= f THEN (f - x0) * (y0 + (_clf_div(y1 - y0, x1 - x0, 0.0) * (f - x0) + y0)) / 2
        ELSE 0.0
    END;

-- McClish-standardised partial AUROC up to fpr = max_fpr (scikit-learn roc_auc_score(max_fpr=)):
-- one pass over the rows sorted by score, highest first (list_reduce), closing each run of tied
-- scores at its ROC point (fp / N, tp / P) and adding the trapezoid from the previous point
-- (_clf_pauc_seg); then 0.5 (1 + (A - f^2 / 2) / (f - f^2 / 2)). Weights are divided by the
-- largest weight. NULL with one class (or no weight left).
CREATE OR REPLACE MACRO _clf_auroc_partial(rows, max_fpr) AS
    _clf_let(
        struct_pack(
            l := list_reverse_sort(rows),
            m := list_max(list_transform(rows, lambda _clf_r: _clf_r.w)),
            f := CAST(max_fpr AS DOUBLE)),
        lambda _clf_t: _clf_let(
            struct_pack(
                l := _clf_t.l, m := _clf_t.m, f := _clf_t.f,
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
                            tp := _clf_acc.tp, fp := _clf_acc.fp, a := _clf_acc.a)
                        ELSE struct_pack(s := _clf_x.s,
                            p := CASE WHEN _clf_x.q THEN _clf_x.w / _clf_u.m ELSE 0.0 END,
                            n := CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_u.m END,
                            tp := _clf_acc.tp + _clf_acc.p, fp := _clf_acc.fp + _clf_acc.n,
                            a := _clf_acc.a + _clf_pauc_seg(
                                _clf_div(_clf_acc.fp, _clf_u.nt, 0.0), _clf_div(_clf_acc.tp, _clf_u.pt, 0.0),
                                _clf_div(_clf_acc.fp + _clf_acc.n, _clf_u.nt, 0.0),
                                _clf_div(_clf_acc.tp + _clf_acc.p, _clf_u.pt, 0.0), _clf_u.f))
                    END,
                    struct_pack(s := CAST('inf' AS DOUBLE), p := 0.0::DOUBLE, n := 0.0::DOUBLE,
                        tp := 0.0::DOUBLE, fp := 0.0::DOUBLE, a := 0.0::DOUBLE)),
                lambda _clf_r: CASE WHEN _clf_u.m > 0 AND _clf_u.pt > 0 AND _clf_u.nt > 0 THEN
                    0.5 * (1 + (_clf_r.a + _clf_pauc_seg(
                            _clf_div(_clf_r.fp, _clf_u.nt, 0.0), _clf_div(_clf_r.tp, _clf_u.pt, 0.0),
                            _clf_div(_clf_r.fp + _clf_r.n, _clf_u.nt, 0.0),
                            _clf_div(_clf_r.tp + _clf_r.p, _clf_u.pt, 0.0), _clf_u.f)
                        - 0.5 * _clf_u.f * _clf_u.f) / (_clf_u.f - 0.5 * _clf_u.f * _clf_u.f)) END)));

-- max_fpr := NULL (or 1) is the whole area; any other value is checked (_clf_check_max_fpr)
-- and selects _clf_auroc_partial when the query is bound.
CREATE OR REPLACE MACRO clf_auroc(y, score, pos_label := 1, weight := NULL, max_fpr := NULL) AS
    CASE WHEN _clf_check_max_fpr(max_fpr, 'clf_auroc: ') THEN _clf_rank_guard(
        CASE
            WHEN max_fpr IS NOT NULL AND _clf_option_number(max_fpr) <> 1
                THEN _clf_auroc_partial(_clf_rank_rows(y, score, pos_label, weight), max_fpr)
            WHEN typeof([min(weight)]) = '"NULL"[]' THEN _clf_auroc_positions(y, score, pos_label)
            ELSE _clf_auroc_weighted(_clf_rank_rows(y, score, pos_label, weight))
        END,
        y, score, pos_label, weight, 'clf_auroc') END;

COMMENT ON MACRO clf_auroc IS
'Area under the ROC curve: the probability that a positive (y = pos_label) scores above a negative, ties counting half (scikit-learn roc_auc_score, sample_weight included). Aggregate macro: clf_auroc(y, score, pos_label := 1, weight := NULL, max_fpr := NULL); max_fpr in (0, 1) gives the McClish-standardised partial area up to that false positive rate (scikit-learn roc_auc_score(max_fpr=): 0.5 random, 1 perfect), max_fpr := 1 the whole area. The table macro of the same name takes a table: FROM clf_auroc(''preds'', ''y'', ''score''). NULL when the group has only one class. Rows with a NULL in y, score or weight, or a NaN score, are left out. Errors (clfeval: ...) on a score that holds no numbers, pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and max_fpr that is not a number in (0, 1]. Python twin: clfeval.auroc; multiclass: clf_auroc_ovr, clf_auroc_ovo.';

-- Weighted average precision: scikit-learn's step sum over the distinct scores t, highest first:
-- sum of (P_t / P) x precision(t), P_t the positive weight scored t and precision(t) the
-- positive share of the weight scored >= t. One pass over the rows sorted by score, highest
-- first (list_reduce), on weights divided by the largest weight. NULL with no positive.
CREATE OR REPLACE MACRO _clf_average_precision(rows) AS
    _clf_let(
        struct_pack(l := list_reverse_sort(rows), m := list_max(list_transform(rows, lambda _clf_r: _clf_r.w))),
        lambda _clf_t: _clf_let(
            list_reduce(_clf_t.l,
                lambda _clf_acc, _clf_x: CASE
                    WHEN _clf_x.s = _clf_acc.s THEN struct_pack(s := _clf_acc.s,
                        p := _clf_acc.p + CASE WHEN _clf_x.q THEN _clf_x.w / _clf_t.m ELSE 0.0 END,
                        n := _clf_acc.n + CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_t.m END,
                        tp := _clf_acc.tp, fp := _clf_acc.fp, a := _clf_acc.a)
                    ELSE struct_pack(s := _clf_x.s,
                        p := CASE WHEN _clf_x.q THEN _clf_x.w / _clf_t.m ELSE 0.0 END,
                        n := CASE WHEN _clf_x.q THEN 0.0 ELSE _clf_x.w / _clf_t.m END,
                        tp := _clf_acc.tp + _clf_acc.p, fp := _clf_acc.fp + _clf_acc.n,
                        a := _clf_acc.a + _clf_acc.p * _clf_div(_clf_acc.tp + _clf_acc.p, _clf_acc.tp + _clf_acc.p + _clf_acc.fp + _clf_acc.n, 0.0))
                END,
                struct_pack(s := CAST('inf' AS DOUBLE), p := 0.0::DOUBLE, n := 0.0::DOUBLE,
                    tp := 0.0::DOUBLE, fp := 0.0::DOUBLE, a := 0.0::DOUBLE)),
            lambda _clf_r: CASE WHEN _clf_t.m > 0 THEN _clf_div(
                _clf_r.a + _clf_r.p * _clf_div(_clf_r.tp + _clf_r.p, _clf_r.tp + _clf_r.p + _clf_r.fp + _clf_r.n, 0.0), _clf_r.tp + _clf_r.p, NULL) END));

-- Unweighted average precision from positions. The rows sorted by score, highest first (two
-- lists under the same ORDER BY: the scores, and whether each row is positive); e: the last
-- position of each run of tied scores; the positives counted at or before each run's end by
-- one merge (both position lists sorted: in their sorted union, with a positive before a run end
-- at the same position, the j-th run end sits at index j + its count).
CREATE OR REPLACE MACRO _clf_ap_positions(y, score, pos_label) AS
    _clf_let(struct_pack(
            s := list(_clf_num(score) ORDER BY _clf_num(score) DESC)
                FILTER (WHERE y IS NOT NULL AND _clf_num(score) IS NOT NULL),
            q := list(coalesce(_clf_eq(y, pos_label), false) ORDER BY _clf_num(score) DESC)
                FILTER (WHERE y IS NOT NULL AND _clf_num(score) IS NOT NULL)),
        lambda _clf_t: _clf_let(struct_pack(
                e := list_where(range(1, len(_clf_t.s) + 1), list_transform(_clf_t.s, lambda _clf_v, _clf_i:
                    _clf_i = len(_clf_t.s) OR _clf_t.s[_clf_i + 1] <> _clf_v)),
                a := list_where(range(1, len(_clf_t.q) + 1), _clf_t.q)),
            lambda _clf_u: _clf_let(
                list_transform(
                    list_where(range(1, len(_clf_u.a) + len(_clf_u.e) + 1),
                        list_transform(list_sort(list_concat(
                                list_transform(_clf_u.a, lambda _clf_p: 2 * _clf_p),
                                list_transform(_clf_u.e, lambda _clf_p: 2 * _clf_p + 1))),
                            lambda _clf_k: (_clf_k & 1) = 1)),
                    lambda _clf_k, _clf_j: _clf_k - _clf_j),
                lambda _clf_tp: _clf_div(
                    list_sum(list_transform(_clf_tp, lambda _clf_c, _clf_j:
                        (_clf_c - coalesce(_clf_tp[_clf_j - 1], 0)) * _clf_c / _clf_u.e[_clf_j])),
                    len(_clf_u.a), NULL))));

CREATE OR REPLACE MACRO clf_average_precision(y, score, pos_label := 1, weight := NULL) AS
    _clf_rank_guard(
        CASE
            WHEN typeof([min(weight)]) = '"NULL"[]' THEN _clf_ap_positions(y, score, pos_label)
            ELSE _clf_average_precision(_clf_rank_rows(y, score, pos_label, weight))
        END,
        y, score, pos_label, weight, 'clf_average_precision');

COMMENT ON MACRO clf_average_precision IS
'Average precision: the sum over thresholds of (recall increase) x precision, scikit-learn average_precision_score''s step sum (no interpolation), sample_weight included. Aggregate macro: clf_average_precision(y, score, pos_label := 1, weight := NULL); the table macro of the same name takes a table: FROM clf_average_precision(''preds'', ''y'', ''score''). NULL when the group has no positive (scikit-learn returns 0.0 with a warning). Rows with a NULL in y, score or weight, or a NaN score, are left out. Errors (clfeval: ...) on a score that holds no numbers, pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL and a NaN, infinite or negative weight. Python twin: clfeval.average_precision.';
