-- clfeval SQL layer, file 75: intervals and tests that compare. DeLong's interval and paired
-- test for AUROC (clf_auroc_ci, clf_compare_auroc) and paired tests of two predicted labels
-- (clf_compare: McNemar and bootstrap differences), on the draws, the normal distribution and
-- the interval helpers of 70_uncertainty.sql.
-- Python twins: clfeval.auroc_ci and clfeval.compare_auroc (clfeval._delong), clfeval.compare
-- (clfeval._compare). Conventions: see 00_helpers.sql.

-- --- DeLong's interval and paired test (clfeval._delong) -----------------------------------

-- TRUE, or an error when a weight is not a whole number: DeLong's variance and McNemar's
-- test count rows, so weights are frequency weights.
CREATE OR REPLACE MACRO _clf_check_whole(n_frac, weight_col, method) AS
    CASE
        WHEN coalesce(n_frac, 0) > 0 THEN error(printf(
            'clfeval: column %s (role weight) has %d non-integral value(s); %s counts rows, so '
            || 'weights must be whole numbers (frequency weights); round them to repetitions, '
            || 'or use the bootstrap intervals (ci=), whose draws follow any non-negative weights',
            _clf_quoted(weight_col), CAST(n_frac AS BIGINT), method))
        ELSE true
    END;

CREATE OR REPLACE MACRO clf_auroc_ci(
    tbl, y, score, level := 0.95, group_cols := [], weight_col := NULL, pos_label := 1
) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, score, pos_label, 'score')),
rows AS MATERIALIZED (
    SELECT __clf_key, __clf_part, __clf_pos, __clf_s,
        CAST(CASE WHEN __clf_pos THEN __clf_w ELSE 0 END AS DOUBLE) AS pw,
        CAST(CASE WHEN __clf_pos THEN 0 ELSE __clf_w END AS DOUBLE) AS nw
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label)
),
checked AS (
    SELECT _clf_check_finite(count_if(isnan(__clf_s)), count_if(isinf(__clf_s)), score, 'score')
        AND (weight_col IS NULL OR (_clf_check_weights(count_if(isnan(pw + nw)),
            count_if(isinf(pw + nw)), count_if(pw + nw < 0), min(pw + nw),
            printf('column %s (role weight)', _clf_quoted(weight_col)))
            AND _clf_check_whole(count_if(pw + nw <> round(pw + nw)), weight_col,
                'DeLong''s variance')))
        AND _clf_checked_level(level) > 0 AS ok
    FROM rows
),
-- each row's placement: the other class's weight below (above) it, through its run of tied
-- scores (RANGE frames: the peers count in full) and at its score, over the class total
placed AS (
    SELECT __clf_key, __clf_part, pw, nw,
        sum(pw) OVER (PARTITION BY __clf_part) AS m,
        sum(nw) OVER (PARTITION BY __clf_part) AS n,
        CASE
            WHEN __clf_pos THEN (sum(nw) OVER w_le - 0.5 * sum(nw) OVER w_at)
                / sum(nw) OVER (PARTITION BY __clf_part)
            ELSE (sum(pw) OVER (PARTITION BY __clf_part) - sum(pw) OVER w_le + 0.5 * sum(pw) OVER w_at)
                / sum(pw) OVER (PARTITION BY __clf_part)
        END AS v
    FROM rows, checked, args
    WHERE checked.ok AND args.ok
    WINDOW w_le AS (PARTITION BY __clf_part ORDER BY __clf_s RANGE UNBOUNDED PRECEDING),
        w_at AS (PARTITION BY __clf_part ORDER BY __clf_s
            RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
),
a AS (SELECT *, sum(pw * v) OVER (PARTITION BY __clf_part) / m AS auc FROM placed),
s AS (
    SELECT __clf_key, max(m) AS m, max(n) AS n, max(auc) AS auc,
        sqrt(sum(pw * (v - auc) * (v - auc)) / (max(m) - 1.0) / max(m)
            + sum(nw * (v - auc) * (v - auc)) / (max(n) - 1.0) / max(n)) AS se
    FROM a
    GROUP BY __clf_key
),
z AS (SELECT _clf_ndtri(0.5 + _clf_checked_level(level) / 2.0) AS q)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key,
        CASE WHEN m > 0 AND n > 0 THEN auc END AS auroc,
        CASE WHEN m > 1 AND n > 1 THEN least(greatest(auc - q * se, 0.0), 1.0) END AS auroc_lo,
        CASE WHEN m > 1 AND n > 1 THEN least(greatest(auc + q * se, 0.0), 1.0) END AS auroc_hi,
        CASE WHEN m > 1 AND n > 1 THEN se END AS se
    FROM s, z
)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_auroc_ci IS
'AUROC of pos_label with DeLong''s interval: (group columns..., auroc, auroc_lo, auroc_hi, se). se^2 = S10/m + S01/n, the variances of the placements of the m positives (share of negatives scored below, ties half) and n negatives (share of positives above, ties half), in O(n log n) from cumulative counts at each distinct score (Sun & Xu 2014); the interval is auroc +/- z se with z the (1 + level)/2 normal quantile, clipped to [0, 1]. auroc is NULL with one class; se and the interval with fewer than two rows of a class. weight_col holds frequency weights (whole numbers; other values raise). Usage: FROM clf_auroc_ci(''preds'', ''y'', ''score'', level := 0.95, group_cols := [], weight_col := NULL, pos_label := 1). Python twin: clfeval.auroc_ci.';

CREATE OR REPLACE MACRO clf_compare_auroc(
    tbl, y, score_a, score_b, level := 0.95, group_cols := [], weight_col := NULL,
    pos_label := 1
) AS TABLE
WITH args_a AS MATERIALIZED (FROM _clf_score_args(tbl, y, score_a, pos_label, 'score')),
args_b AS MATERIALIZED (FROM _clf_score_args(tbl, y, score_b, pos_label, 'score_b')),
r AS (
    SELECT __clf_key,
        -- the window partition: the group column itself when there is at most one (sorting
        -- on the struct costs twice as much), as _clf_score_rows
        COLUMNS(CASE
            WHEN len(group_cols) <= 1 THEN _clf_group_list(group_cols)[1:1]
            ELSE ['__clf_key']
        END) AS __clf_part,
        CASE
            WHEN _clf_is_text(typeof(__clf_yv)) = _clf_is_text(typeof(pos_label))
                THEN __clf_yv = pos_label
        END AS pos,
        CASE WHEN NOT _clf_is_text(typeof(__clf_a)) THEN CAST(__clf_a AS DOUBLE) END AS sa,
        CASE WHEN NOT _clf_is_text(typeof(__clf_b)) THEN CAST(__clf_b AS DOUBLE) END AS sb,
        __clf_w AS w
    FROM (
        SELECT *, struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key,
            COLUMNS([y]) AS __clf_yv,
            COLUMNS([score_a]) AS __clf_a, COLUMNS([score_b]) AS __clf_b,
            CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w
        FROM (
            SELECT *, NULL::BOOLEAN AS __clf_nogroup, 1.0::DOUBLE AS __clf_one
            FROM query_table(tbl)
        )
    )
),
rows AS MATERIALIZED (
    SELECT * FROM r WHERE pos IS NOT NULL AND sa IS NOT NULL AND sb IS NOT NULL AND w IS NOT NULL
),
checked AS (
    SELECT _clf_check_finite(count_if(isnan(sa)), count_if(isinf(sa)), score_a, 'score')
        AND _clf_check_finite(count_if(isnan(sb)), count_if(isinf(sb)), score_b, 'score_b')
        AND (weight_col IS NULL OR (_clf_check_weights(count_if(isnan(w)), count_if(isinf(w)),
            count_if(w < 0), min(w), printf('column %s (role weight)', _clf_quoted(weight_col)))
            AND _clf_check_whole(count_if(w <> round(w)), weight_col, 'DeLong''s variance')))
        AND _clf_checked_level(level) > 0 AS ok
    FROM rows
),
sums AS (
    SELECT __clf_key, __clf_part, pos, sa, sb, w,
        CASE WHEN pos THEN w ELSE 0.0 END AS pw, CASE WHEN pos THEN 0.0 ELSE w END AS nw
    FROM rows, checked, args_a, args_b
    WHERE checked.ok AND args_a.ok AND args_b.ok
),
-- at or below each score (RANGE: ties in full) and at the score (the peers), per score, and
-- the class totals
placed AS (
    SELECT *,
        sum(pw) OVER (PARTITION BY __clf_part) AS m,
        sum(nw) OVER (PARTITION BY __clf_part) AS n,
        sum(pw) OVER a_le AS cp_a, sum(nw) OVER a_le AS cn_a,
        sum(pw) OVER a_at AS tp_a, sum(nw) OVER a_at AS tn_a,
        sum(pw) OVER b_le AS cp_b, sum(nw) OVER b_le AS cn_b,
        sum(pw) OVER b_at AS tp_b, sum(nw) OVER b_at AS tn_b
    FROM sums
    WINDOW a_le AS (PARTITION BY __clf_part ORDER BY sa RANGE UNBOUNDED PRECEDING),
        a_at AS (PARTITION BY __clf_part ORDER BY sa RANGE BETWEEN CURRENT ROW AND CURRENT ROW),
        b_le AS (PARTITION BY __clf_part ORDER BY sb RANGE UNBOUNDED PRECEDING),
        b_at AS (PARTITION BY __clf_part ORDER BY sb RANGE BETWEEN CURRENT ROW AND CURRENT ROW)
),
v AS (
    SELECT __clf_key, __clf_part, pw, nw, m, n,
        CASE WHEN pos THEN (cn_a - tn_a + 0.5 * tn_a) / n ELSE (m - cp_a + 0.5 * tp_a) / m END AS va,
        CASE WHEN pos THEN (cn_b - tn_b + 0.5 * tn_b) / n ELSE (m - cp_b + 0.5 * tp_b) / m END AS vb
    FROM placed
),
means AS (
    SELECT *,
        sum(pw * va) OVER k / m AS auc_a, sum(pw * vb) OVER k / m AS auc_b,
        sum(nw * va) OVER k / n AS na, sum(nw * vb) OVER k / n AS nb
    FROM v
    WINDOW k AS (PARTITION BY __clf_part)
),
s AS (
    SELECT __clf_key, max(m) AS m, max(n) AS n, max(auc_a) AS auc_a, max(auc_b) AS auc_b,
        sqrt(greatest(
            sum(pw * ((va - auc_a) - (vb - auc_b)) * ((va - auc_a) - (vb - auc_b)))
                / (max(m) - 1.0) / max(m)
            + sum(nw * ((va - na) - (vb - nb)) * ((va - na) - (vb - nb)))
                / (max(n) - 1.0) / max(n), 0.0)) AS se
    FROM means
    GROUP BY __clf_key
),
z AS (SELECT _clf_ndtri(0.5 + _clf_checked_level(level) / 2.0) AS q),
out AS (
    SELECT *, auc_b - auc_a AS d, m > 1 AND n > 1 AS spread FROM s, z
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key,
        CASE WHEN m > 0 AND n > 0 THEN auc_a END AS auroc_a,
        CASE WHEN m > 0 AND n > 0 THEN auc_b END AS auroc_b,
        CASE WHEN m > 0 AND n > 0 THEN d END AS diff,
        CASE WHEN spread THEN least(greatest(d - q * se, -1.0), 1.0) END AS diff_lo,
        CASE WHEN spread THEN least(greatest(d + q * se, -1.0), 1.0) END AS diff_hi,
        CASE WHEN spread THEN se END AS se,
        CASE WHEN spread AND se > 0 THEN d / se END AS z,
        CASE WHEN spread AND se > 0 THEN _clf_p_value(d / se) END AS p_value
    FROM out
)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_compare_auroc IS
'DeLong''s paired test of two AUROCs on the same rows: (group columns..., auroc_a, auroc_b, diff, diff_lo, diff_hi, se, z, p_value) with diff = auroc_b - auroc_a. se^2 = Var(Vb - Va)/m + Var(V''b - V''a)/n over the placements of the m positives and n negatives in both scores (DeLong, DeLong & Clarke-Pearson 1988; ties half, exact); z = diff/se, p_value two-sided (normal), NULL when se = 0; the interval diff +/- q se with q the (1 + level)/2 normal quantile, clipped to [-1, 1]. weight_col holds frequency weights (whole numbers; other values raise). Usage: FROM clf_compare_auroc(''preds'', ''y'', ''score_a'', ''score_b'', level := 0.95, group_cols := [], weight_col := NULL, pos_label := 1). Python twin: clfeval.compare_auroc.';

-- --- paired tests of two predicted labels (clfeval._compare) --------------------------------

-- P(X <= k) for X ~ Bin(n, 1/2): binomial coefficients as exact doubles (every one below 2^53
-- for n < 25), summed, then divided by 2^n once.
CREATE OR REPLACE MACRO _clf_binom_cdf(k, n) AS
    list_reduce(
        list_concat([{'c': 1.0::DOUBLE, 's': 1.0::DOUBLE}],
            list_transform(range(1, CAST(k AS BIGINT) + 1),
                lambda _clf_i: {'c': CAST(_clf_i AS DOUBLE), 's': 0.0::DOUBLE})),
        -- the first element starts the sums; each later one carries its i in c
        lambda _clf_acc, _clf_x: {
            'c': _clf_acc.c * (n - _clf_x.c + 1) / _clf_x.c,
            's': _clf_acc.s + _clf_acc.c * (n - _clf_x.c + 1) / _clf_x.c}).s / pow(2.0, n);

CREATE OR REPLACE MACRO clf_compare(
    tbl, y, yhat_a, yhat_b, level := 0.95, n_boot := 1000, seed := 0, group_cols := [],
    weight_col := NULL, average := 'binary', pos_label := 1, labels := NULL,
    zero_division := 0.0
) AS TABLE
-- the joint (group, y, yhat_a, yhat_b) table, numbered as clfeval.compare numbers it
WITH counts AS (
    SELECT COLUMNS(_clf_group_list(group_cols)), COLUMNS([y]), __clf_pa, __clf_pb, __clf_sy,
        count(*) AS __clf_c, sum(__clf_w) AS __clf_sw,
        count_if(isnan(__clf_w)) AS n_nan, count_if(isinf(__clf_w)) AS n_inf,
        count_if(__clf_w < 0) AS n_neg, min(__clf_w) AS lo,
        count_if(__clf_w <> round(__clf_w)) AS frac
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup, COLUMNS([y]) AS __clf_sy,
            COLUMNS([yhat_a]) AS __clf_pa, COLUMNS([yhat_b]) AS __clf_pb,
            CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w
        FROM (SELECT *, 1.0::DOUBLE AS __clf_one FROM query_table(tbl))
    )
    WHERE __clf_sy IS NOT NULL AND __clf_pa IS NOT NULL AND __clf_pb IS NOT NULL
        AND __clf_w IS NOT NULL
        AND _clf_check_label_args(typeof(__clf_sy), typeof(__clf_pa), y, yhat_a, labels,
            pos_label, average = 'binary')
        AND _clf_check_label_args(typeof(__clf_sy), typeof(__clf_pb), y, yhat_b, labels,
            pos_label, average = 'binary')
    GROUP BY ALL
),
checked AS (
    SELECT _clf_checked_level(level) > 0 AND (weight_col IS NULL OR (_clf_check_weights(sum(n_nan), sum(n_inf), sum(n_neg), min(lo),
                printf('column %s (role weight)', _clf_quoted(weight_col)))
            AND _clf_check_whole(sum(frac), weight_col, 'McNemar''s test'))) AS ok
    FROM counts
),
__clf_boot_cells AS MATERIALIZED (
    SELECT * EXCLUDE (__clf_c, __clf_sw, n_nan, n_inf, n_neg, lo, frac, ok),
        struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_g,
        CAST(row_number() OVER (ORDER BY struct_pack(*COLUMNS(_clf_group_list(group_cols))),
            __clf_sy, __clf_pa, __clf_pb) - 1 AS UBIGINT) AS __clf_cell,
        CAST(CASE WHEN weight_col IS NULL THEN __clf_c ELSE __clf_sw END AS DOUBLE) AS __clf_lam,
        CASE WHEN weight_col IS NULL THEN CAST(__clf_c AS DOUBLE) ELSE __clf_sw END AS __clf_w
    FROM counts, checked
    WHERE checked.ok
),
-- the data (replicate -1) and every replicate, once per model: y, the model's prediction
-- __clf_pred and the count __clf_n, for one clf_metrics call
joint AS (
    SELECT * EXCLUDE (__clf_cell, __clf_lam, __clf_w)
    FROM _clf_boot_draws('__clf_boot_cells', n_boot, seed)
    UNION ALL BY NAME
    SELECT * EXCLUDE (__clf_cell, __clf_lam, __clf_w),
        -1 AS __clf_rep, __clf_w AS __clf_n
    FROM __clf_boot_cells
),
__clf_stacked AS MATERIALIZED (
    SELECT * EXCLUDE (__clf_nogroup, __clf_g, __clf_sy, __clf_pa, __clf_pb),
        __clf_pa AS __clf_pred, 'a' AS __clf_model
    FROM joint
    UNION ALL BY NAME
    SELECT * EXCLUDE (__clf_nogroup, __clf_g, __clf_sy, __clf_pa, __clf_pb),
        __clf_pb AS __clf_pred, 'b' AS __clf_model
    FROM joint
),
scored AS (
    SELECT struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_g, *
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup
        FROM clf_metrics('__clf_stacked', y, '__clf_pred',
            group_cols := list_concat(CAST(group_cols AS VARCHAR[]), ['__clf_model', '__clf_rep']),
            weight_col := '__clf_n', average := average, pos_label := pos_label,
            labels := labels, zero_division := zero_division)
    )
),
paired AS (
    SELECT a.__clf_g, a.__clf_rep,
        a.accuracy AS accuracy_a, b.accuracy AS accuracy_b,
        a.balanced_accuracy AS balanced_accuracy_a, b.balanced_accuracy AS balanced_accuracy_b,
        a.precision AS precision_a, b.precision AS precision_b,
        a.recall AS recall_a, b.recall AS recall_b,
        a.f1 AS f1_a, b.f1 AS f1_b, a.mcc AS mcc_a, b.mcc AS mcc_b
    FROM scored AS a JOIN scored AS b
        ON a.__clf_g = b.__clf_g AND a.__clf_rep = b.__clf_rep
    WHERE a.__clf_model = 'a' AND b.__clf_model = 'b'
),
ints AS (
    SELECT __clf_g,
        _clf_lo(accuracy_b - accuracy_a, level) AS accuracy_diff_lo,
        _clf_hi(accuracy_b - accuracy_a, level) AS accuracy_diff_hi,
        _clf_lo(balanced_accuracy_b - balanced_accuracy_a, level) AS balanced_accuracy_diff_lo,
        _clf_hi(balanced_accuracy_b - balanced_accuracy_a, level) AS balanced_accuracy_diff_hi,
        _clf_lo(precision_b - precision_a, level) AS precision_diff_lo,
        _clf_hi(precision_b - precision_a, level) AS precision_diff_hi,
        _clf_lo(recall_b - recall_a, level) AS recall_diff_lo,
        _clf_hi(recall_b - recall_a, level) AS recall_diff_hi,
        _clf_lo(f1_b - f1_a, level) AS f1_diff_lo,
        _clf_hi(f1_b - f1_a, level) AS f1_diff_hi,
        _clf_lo(mcc_b - mcc_a, level) AS mcc_diff_lo,
        _clf_hi(mcc_b - mcc_a, level) AS mcc_diff_hi,
        CAST(count_if(accuracy_b - accuracy_a IS NULL) AS BIGINT) AS accuracy_diff_n_undefined,
        CAST(count_if(balanced_accuracy_b - balanced_accuracy_a IS NULL) AS BIGINT)
            AS balanced_accuracy_diff_n_undefined,
        CAST(count_if(precision_b - precision_a IS NULL) AS BIGINT) AS precision_diff_n_undefined,
        CAST(count_if(recall_b - recall_a IS NULL) AS BIGINT) AS recall_diff_n_undefined,
        CAST(count_if(f1_b - f1_a IS NULL) AS BIGINT) AS f1_diff_n_undefined,
        CAST(count_if(mcc_b - mcc_a IS NULL) AS BIGINT) AS mcc_diff_n_undefined
    FROM paired
    WHERE __clf_rep >= 0
    GROUP BY __clf_g
),
discordant AS (
    SELECT __clf_g,
        coalesce(sum(__clf_w) FILTER (WHERE __clf_sy = __clf_pa AND __clf_sy <> __clf_pb), 0.0)
            AS b,
        coalesce(sum(__clf_w) FILTER (WHERE __clf_sy <> __clf_pa AND __clf_sy = __clf_pb), 0.0)
            AS c
    FROM __clf_boot_cells
    GROUP BY __clf_g
),
tests AS (
    SELECT __clf_g,
        b AS n_a_only__d, TRY_CAST(b AS BIGINT) AS n_a_only__i,
        c AS n_b_only__d, TRY_CAST(c AS BIGINT) AS n_b_only__i,
        CASE WHEN b + c < 25 THEN least(b, c)
            ELSE (abs(b - c) - 1.0) * (abs(b - c) - 1.0) / (b + c) END AS mcnemar_statistic,
        CASE WHEN b + c < 25 THEN least(2.0 * _clf_binom_cdf(least(b, c), b + c), 1.0)
            ELSE _clf_p_value(sqrt((abs(b - c) - 1.0) * (abs(b - c) - 1.0) / (b + c)))
            END AS mcnemar_p_value,
        CASE WHEN b + c < 25 THEN 'exact' ELSE 'chi2' END AS mcnemar_method
    FROM discordant
)
SELECT * EXCLUDE (__clf_nogroup, __clf_g)
FROM (
    SELECT unnest(p.__clf_g), p.__clf_g,
        COLUMNS(_clf_typed(weight_col, 'n_a_only')) AS n_a_only,
        COLUMNS(_clf_typed(weight_col, 'n_b_only')) AS n_b_only,
        mcnemar_statistic, mcnemar_p_value, mcnemar_method,
        accuracy_a, accuracy_b, accuracy_b - accuracy_a AS accuracy_diff,
        accuracy_diff_lo, accuracy_diff_hi,
        balanced_accuracy_a, balanced_accuracy_b,
        balanced_accuracy_b - balanced_accuracy_a AS balanced_accuracy_diff,
        balanced_accuracy_diff_lo, balanced_accuracy_diff_hi,
        precision_a, precision_b, precision_b - precision_a AS precision_diff,
        precision_diff_lo, precision_diff_hi,
        recall_a, recall_b, recall_b - recall_a AS recall_diff, recall_diff_lo, recall_diff_hi,
        f1_a, f1_b, f1_b - f1_a AS f1_diff, f1_diff_lo, f1_diff_hi,
        mcc_a, mcc_b, mcc_b - mcc_a AS mcc_diff, mcc_diff_lo, mcc_diff_hi,
        accuracy_diff_n_undefined, balanced_accuracy_diff_n_undefined,
        precision_diff_n_undefined, recall_diff_n_undefined, f1_diff_n_undefined,
        mcc_diff_n_undefined
    FROM paired AS p
    JOIN tests USING (__clf_g)
    LEFT JOIN ints USING (__clf_g)
    WHERE p.__clf_rep = -1
)
ORDER BY __clf_g;

COMMENT ON MACRO TABLE clf_compare IS
'Paired comparison of two predicted-label columns on the same rows: (group columns..., n_a_only, n_b_only, mcnemar_statistic, mcnemar_p_value, mcnemar_method, then for accuracy, balanced_accuracy, precision, recall, f1 and mcc: <m>_a, <m>_b, <m>_diff = b - a, <m>_diff_lo, <m>_diff_hi, and last <m>_diff_n_undefined). McNemar on the discordant rows (n_a_only: only yhat_a is right; n_b_only: only yhat_b is right): exact two-sided binomial when they are fewer than 25 (statistic: the smaller count), else chi-square with continuity correction (|b - c| - 1)^2 / (b + c). The intervals are percentiles of n_boot Poisson bootstrap replicates of the joint (group, y, yhat_a, yhat_b) table, both models scored on each replicate (paired); the same seed gives the numbers of clfeval.compare. weight_col holds frequency weights (whole numbers; other values raise). Usage: FROM clf_compare(''preds'', ''y'', ''yhat_a'', ''yhat_b'', level := 0.95, n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL, average := ''binary'', pos_label := 1, labels := NULL, zero_division := 0.0). Python twin: clfeval.compare.';
