-- clfeval SQL layer, file 30: ranking metrics and curves from threshold counts.
-- Python twin: clfeval._score (roc_curve, pr_curve, det_curve, thresholds, auroc,
-- average_precision, gain_curve). Conventions: see 00_helpers.sql.
--
-- Every macro here reads _clf_score_counts (one row per group and distinct score, with running
-- sums from the highest score down and their neighbours, so no macro needs a second window)
-- or _clf_score_sums (10_counts.sql). y is compared with
-- pos_label (class pos_label against the rest); score is any finite number (NaN and infinite
-- scores raise); rows with a NULL in y, score or the weight are left out, and rows of zero
-- weight do not create thresholds (scikit-learn's _binary_clf_curve). The curves sort their
-- (up to one per row) points by the unpacked group columns, which is the order of __clf_key
-- at half the cost of sorting on a struct. clf_auroc's max_fpr := m gives McClish's partial
-- area from the thresholds of _clf_score_counts. The macros over per-class score columns, and
-- clf_lift and clf_ece, are in 35_multiclass.sql.

CREATE OR REPLACE MACRO clf_roc_curve(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := true
) AS TABLE
WITH counts AS (FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label)),
points AS (
    -- scikit-learn drops a point when both second differences of (fp, tp) are 0: the point
    -- lies on the straight segment between its neighbours and adds nothing to the curve.
    SELECT __clf_key, __clf_i, threshold, tp, fp, n_pos, n_neg
    FROM counts
    WHERE NOT drop_intermediate OR __clf_i = 1 OR __clf_last
        OR (next_fp - fp) - (fp - prev_fp) <> 0 OR (next_tp - tp) - (tp - prev_tp) <> 0
    UNION ALL
    SELECT __clf_key, 0, 'inf'::DOUBLE, 0.0::DOUBLE, 0.0::DOUBLE, n_pos, n_neg
    FROM counts
    WHERE __clf_i = 1
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_i)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_i, threshold,
        _clf_div(fp, n_neg, NULL) AS fpr,
        _clf_div(tp, n_pos, NULL) AS tpr
    FROM points
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i;

COMMENT ON MACRO TABLE clf_roc_curve IS
'ROC curve: (group columns..., threshold, fpr, tpr), scikit-learn roc_curve''s points in its order: thresholds decreasing, first row threshold +inf at (0, 0); a point is predicted positive when score >= threshold. Usage: FROM clf_roc_curve(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := true). fpr (tpr) is NULL when the group has no negative (positive), where scikit-learn gives NaN. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.roc_curve.';

CREATE OR REPLACE MACRO clf_pr_curve(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := false
) AS TABLE
WITH counts AS (FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label)),
points AS (
    -- scikit-learn keeps only the first and last threshold of each run of equal tp (a
    -- vertical segment of the curve).
    SELECT __clf_key, -__clf_i AS __clf_o, threshold,
        _clf_div(tp, tp + fp, 0.0) AS precision,
        _clf_div(tp, n_pos, 1.0) AS recall
    FROM counts
    WHERE NOT drop_intermediate OR __clf_i = 1 OR __clf_last OR tp <> prev_tp OR next_tp <> tp
    UNION ALL
    SELECT __clf_key, 1, NULL::DOUBLE, 1.0::DOUBLE, 0.0::DOUBLE FROM counts WHERE __clf_i = 1
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_o)
FROM (SELECT unnest(__clf_key), __clf_key, __clf_o, threshold, precision, recall FROM points)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_o;

COMMENT ON MACRO TABLE clf_pr_curve IS
'Precision-recall curve: (group columns..., threshold, precision, recall), scikit-learn precision_recall_curve''s points in its order: thresholds increasing, then the end point precision 1, recall 0 with a NULL threshold. Usage: FROM clf_pr_curve(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := false). As scikit-learn, recall is 1 at every threshold when the group has no positive. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.pr_curve.';

CREATE OR REPLACE MACRO clf_det_curve(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := false
) AS TABLE
WITH counts AS (FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label)),
-- the thresholds after a first point at +inf with tp = fp = 0
-- (n_pos is the last running sum, so that tp = n_pos below is exact)
extended AS (
    SELECT __clf_key, __clf_i, __clf_last, threshold, tp, fp, n_pos, n_neg,
        tp <> coalesce(prev_tp, 0.0) AS tp_moved_in,
        next_tp <> tp AS tp_moves_out
    FROM counts
    UNION ALL
    SELECT __clf_key, 0, false, 'inf'::DOUBLE, 0.0::DOUBLE, 0.0::DOUBLE, n_pos, n_neg, NULL,
        tp <> 0.0
    FROM counts
    WHERE __clf_i = 1
),
kept AS (
    SELECT *
    FROM extended
    WHERE NOT drop_intermediate OR __clf_i = 0 OR __clf_last OR tp_moved_in OR tp_moves_out
),
-- scikit-learn's slice: from the last point with fp = 0 to the first point with fn = 0
bounds AS (
    SELECT __clf_key,
        max(__clf_i) FILTER (WHERE fp = 0) AS first_i,
        min(__clf_i) FILTER (WHERE tp = n_pos) AS last_i
    FROM kept GROUP BY ALL
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_i)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_i, threshold,
        _clf_div(fp, n_neg, NULL) AS fpr,
        _clf_div(n_pos - tp, n_pos, NULL) AS fnr
    FROM kept JOIN bounds USING (__clf_key)
    WHERE __clf_i BETWEEN first_i AND last_i
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i DESC;

COMMENT ON MACRO TABLE clf_det_curve IS
'Detection error tradeoff curve: (group columns..., threshold, fpr, fnr), scikit-learn det_curve''s points in its order (thresholds increasing; only the part between the last point without false positives and the first point without false negatives). Usage: FROM clf_det_curve(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1, drop_intermediate := false). With one class only the rates are NULL (scikit-learn raises). NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.det_curve.';

CREATE OR REPLACE MACRO clf_thresholds(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1, beta := 1.0,
    zero_division := 0.0, prevalence := NULL, cost_fp := NULL, cost_fn := NULL,
    benefit_tp := 0.0, benefit_tn := 0.0
) AS TABLE
WITH counts AS (
    SELECT *, tp AS tp__d, fp AS fp__d, n_pos - tp AS fn__d, n_neg - fp AS tn__d
    FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label)
    WHERE _clf_check_beta(beta, '') AND _clf_check_zero_division(zero_division, '')
        AND _clf_check_costs(cost_fp, cost_fn, benefit_tp, benefit_tn)
),
typed AS (
    SELECT *,
        TRY_CAST(tp__d AS BIGINT) AS tp__i,
        TRY_CAST(fp__d AS BIGINT) AS fp__i,
        TRY_CAST(fn__d AS BIGINT) AS fn__i,
        TRY_CAST(tn__d AS BIGINT) AS tn__i,
        CAST(beta AS DOUBLE) * CAST(beta AS DOUBLE) AS __clf_b2,
        _clf_checked_prevalence(prevalence) AS __clf_pi
    FROM counts
),
-- With prevalence := p the metrics read the counts re-weighted to it (clfeval._shift): each
-- positive weighs p n / n_pos, each negative (1 - p) n / n_neg; NULL without both classes.
shifted AS (
    SELECT *,
        tp__d * __clf_a AS __clf_tp, fp__d * __clf_b AS __clf_fp,
        fn__d * __clf_a AS __clf_fn, tn__d * __clf_b AS __clf_tn
    FROM (
        SELECT *,
            CASE WHEN __clf_pi IS NULL THEN 1.0::DOUBLE WHEN n_pos > 0 AND n_neg > 0
                THEN __clf_pi * (n_pos + n_neg) / n_pos END AS __clf_a,
            CASE WHEN __clf_pi IS NULL THEN 1.0::DOUBLE WHEN n_pos > 0 AND n_neg > 0
                THEN (1 - __clf_pi) * (n_pos + n_neg) / n_neg END AS __clf_b
        FROM typed
    )
),
rows AS (
    SELECT unnest(__clf_key), __clf_key, __clf_i, threshold,
        COLUMNS(_clf_typed(weight_col, 'tp')) AS tp,
        COLUMNS(_clf_typed(weight_col, 'fp')) AS fp,
        COLUMNS(_clf_typed(weight_col, 'fn')) AS fn,
        COLUMNS(_clf_typed(weight_col, 'tn')) AS tn,
        _clf_div(n_pos, n_pos + n_neg, NULL) AS prevalence,
        __clf_pi AS target_prevalence,
        _clf_div(__clf_tp, __clf_tp + __clf_fp, zero_division) AS precision,
        _clf_div(__clf_tp, __clf_tp + __clf_fn, zero_division) AS recall,
        _clf_div(__clf_tn, __clf_tn + __clf_fp, zero_division) AS specificity,
        _clf_div(__clf_fp, __clf_fp + __clf_tn, zero_division) AS fpr,
        _clf_div(__clf_tn, __clf_tn + __clf_fn, zero_division) AS npv,
        _clf_div(2 * __clf_tp, (__clf_tp + __clf_fn) + (__clf_tp + __clf_fp), zero_division) AS f1,
        _clf_div((1 + __clf_b2) * __clf_tp, __clf_b2 * (__clf_tp + __clf_fn) + (__clf_tp + __clf_fp),
            zero_division) AS fbeta,
        _clf_div(__clf_tp + __clf_tn, __clf_tp + __clf_fp + __clf_fn + __clf_tn, zero_division)
            AS accuracy,
        _clf_balanced(__clf_tp, __clf_fp, __clf_fn, __clf_tn) AS balanced_accuracy,
        -- NULL when the counts cannot be re-weighted (_clf_mcc would read NULL shares as 0)
        CASE WHEN __clf_a IS NOT NULL THEN _clf_mcc(__clf_tp, __clf_fp, __clf_fn, __clf_tn) END
            AS mcc,
        _clf_div(__clf_tp, __clf_tp + __clf_fn, zero_division)
            + _clf_div(__clf_tn, __clf_tn + __clf_fp, zero_division) - 1 AS youden_j,
        -- the cost per row and in total: c_fp fp + c_fn fn - b_tp tp - b_tn tn (clfeval._costs)
        _clf_div(__clf_cost, __clf_tp + __clf_fp + __clf_fn + __clf_tn, NULL) AS expected_cost,
        __clf_cost AS total_cost
    FROM (
        SELECT *,
            CAST(cost_fp AS DOUBLE) * __clf_fp + CAST(cost_fn AS DOUBLE) * __clf_fn
                - CAST(benefit_tp AS DOUBLE) * __clf_tp - CAST(benefit_tn AS DOUBLE) * __clf_tn
                AS __clf_cost
        FROM shifted
    )
)
-- the prevalence columns only with prevalence, the cost columns only with costs
SELECT COLUMNS(list_concat(
    CAST(group_cols AS VARCHAR[]),
    ['threshold', 'tp', 'fp', 'fn', 'tn'],
    CASE WHEN prevalence IS NULL THEN []::VARCHAR[] ELSE ['prevalence', 'target_prevalence'] END,
    ['precision', 'recall', 'specificity', 'fpr', 'npv', 'f1', 'fbeta', 'accuracy',
        'balanced_accuracy', 'mcc', 'youden_j'],
    CASE WHEN cost_fp IS NULL THEN []::VARCHAR[] ELSE ['expected_cost', 'total_cost'] END))
FROM rows
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i;

COMMENT ON MACRO TABLE clf_thresholds IS
'Metrics at every threshold: (group columns..., threshold, tp, fp, fn, tn, precision, recall, specificity, fpr, npv, f1, fbeta, accuracy, balanced_accuracy, mcc, youden_j), one row per distinct score, highest first; a row is predicted positive when score >= threshold. Usage: FROM clf_thresholds(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1, beta := 1.0, zero_division := 0.0, prevalence := NULL, cost_fp := NULL, cost_fn := NULL, benefit_tp := 0.0, benefit_tn := 0.0). Counts are BIGINT (DOUBLE with weight_col); ratios with a zero denominator are zero_division; youden_j = recall + specificity - 1; balanced_accuracy is the mean recall over the classes present. prevalence := p (in (0, 1)) computes the metrics on the counts re-weighted to that share of positives (the counts stay as measured) and adds prevalence (measured) and target_prevalence after tn; NULL without both classes. cost_fp := and cost_fn := (with optional benefit_tp :=, benefit_tn :=, all >= 0 per row) add expected_cost = (cost_fp fp + cost_fn fn - benefit_tp tp - benefit_tn tn) / n and total_cost, at the target prevalence when given. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, NaN, infinite or negative weights, beta that is not a number >= 0, zero_division other than 0, 1 or NULL, prevalence outside (0, 1), and costs that are negative, NaN, infinite or given alone. Python twin: clfeval.thresholds; scikit-learn: confusion_matrix_at_thresholds.';

-- max_fpr as DOUBLE (1.0 for NULL: the full area), or an error when it is not a number in
-- (0, 1] (clfeval._options.max_fpr).
CREATE OR REPLACE MACRO _clf_checked_max_fpr(max_fpr) AS
    CASE
        WHEN max_fpr IS NULL THEN 1.0::DOUBLE
        WHEN _clf_option_number(max_fpr) > 0 AND _clf_option_number(max_fpr) <= 1
            THEN _clf_option_number(max_fpr)
        ELSE error(printf('clfeval: max_fpr = %s is not a number in (0, 1]; max_fpr is the '
            || 'false positive rate where the partial area stops', _clf_show(max_fpr)))
    END;

-- The area of the ROC segment from (x0, y0) to (x, y) left of fpr = m: in full when x <= m,
-- up to m (the height at m interpolated) when the segment crosses m, else 0.
CREATE OR REPLACE MACRO _clf_roc_segment(x, y, x0, y0, m) AS
    CASE
        WHEN x <= m THEN (x - x0) * (y + y0) / 2.0
        WHEN x0 <= m THEN (m - x0) * (y0 + ((y - y0) / (x - x0) * (m - x0) + y0)) / 2.0
        ELSE 0.0
    END;

-- McClish's standardized partial area from the raw area up to m; NULL without both classes.
CREATE OR REPLACE MACRO _clf_partial_auroc(area, n_pos, n_neg, m) AS
    CASE
        WHEN n_pos > 0 AND n_neg > 0 THEN 0.5 * (1 + (area - 0.5 * CAST(m AS DOUBLE) * CAST(m AS DOUBLE))
            / (CAST(m AS DOUBLE) - 0.5 * CAST(m AS DOUBLE) * CAST(m AS DOUBLE)))
    END;

-- clf_auroc's full area, (__clf_key, auroc) per group, unordered: the rank and the sums plans.
CREATE OR REPLACE MACRO _clf_auroc_keyed(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
-- Mann-Whitney: each negative earns the positives scored above it plus half of its ties. With
-- A = sum(neg * tp) and B = sum(pos * fp) (tp, fp: weight at or above the score, ties in
-- full), A - B = above - below over the positive-negative pairs, so the area is
-- (P N + A - B) / 2 / (P N) with either plan of _clf_score_sums (rows or distinct scores).
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, score, pos_label, 'score')),
plan AS MATERIALIZED (FROM _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label)),
-- Without a weight column and with mostly distinct scores, the rank form costs half as much
-- (one sort and no running sums): (sum of the positives' mid-ranks - P (P + 1) / 2) / (P N).
-- A row's position (row_number) is its rank when no other row has its score; a run of tied
-- scores (lag and lead in the same window find them) takes the mid-rank of the run,
-- (first + last position) / 2, in a GROUP BY where the untied rows form one unit. The window
-- carries __clf_part, not the struct key (a third cheaper), and without group columns no
-- PARTITION BY (one partition sorts on one thread); the other branch's filter is a constant,
-- so DuckDB drops it when it binds the call.
ranked_rows AS (
    SELECT __clf_part, __clf_pos, __clf_s
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label), plan,
        _clf_score_row_check(tbl, y, score, group_cols, weight_col, pos_label) AS c, args
    WHERE plan.by_row AND c.ok AND args.ok AND weight_col IS NULL
),
ranked AS (
    SELECT __clf_part, __clf_pos, __clf_s, row_number() OVER w_rank AS __clf_rn,
        coalesce(__clf_s = lag(__clf_s) OVER w_rank OR __clf_s = lead(__clf_s) OVER w_rank, false)
            AS __clf_tied
    FROM ranked_rows
    WHERE len(group_cols) > 0
    WINDOW w_rank AS (PARTITION BY __clf_part ORDER BY __clf_s)
    UNION ALL
    SELECT __clf_part, __clf_pos, __clf_s, row_number() OVER w_rank_all,
        coalesce(__clf_s = lag(__clf_s) OVER w_rank_all OR __clf_s = lead(__clf_s) OVER w_rank_all, false)
    FROM ranked_rows
    WHERE len(group_cols) = 0
    WINDOW w_rank_all AS (ORDER BY __clf_s)
),
-- per unit (the untied rows of a partition, or one run of ties): its positives k, negatives m
-- and twice the sum of its positives' mid-ranks
ranked_units AS (
    SELECT __clf_part,
        count(*) FILTER (WHERE __clf_pos) AS k,
        count(*) FILTER (WHERE NOT __clf_pos) AS m,
        CASE
            WHEN __clf_run IS NULL THEN 2 * sum(__clf_rn) FILTER (WHERE __clf_pos)
            ELSE count(*) FILTER (WHERE __clf_pos) * (CAST(min(__clf_rn) AS HUGEINT) + max(__clf_rn))
        END AS r2
    FROM (SELECT *, CASE WHEN __clf_tied THEN __clf_s END AS __clf_run FROM ranked)
    GROUP BY __clf_part, __clf_run
),
ranked_areas AS (
    SELECT __clf_part,
        _clf_div(sum(r2) / 2 - sum(k) * (sum(k) + 1) / 2, sum(k) * sum(m), NULL) AS auroc
    FROM ranked_units
    GROUP BY __clf_part
),
areas AS (
    SELECT __clf_key, _clf_div((n_pos * n_neg + neg_tp - pos_fp) / 2, n_pos * n_neg, NULL) AS auroc
    FROM _clf_score_sums(tbl, y, score, group_cols, weight_col, pos_label, weight_col IS NULL)
    UNION ALL
    SELECT k.__clf_key, a.auroc
    FROM ranked_areas AS a
    JOIN _clf_score_keys(tbl, y, score, group_cols, weight_col, pos_label) AS k
        ON a.__clf_part IS NOT DISTINCT FROM k.__clf_part
)
FROM areas;

-- clf_auroc without max_fpr, as clfeval.sql calls it: DuckDB binds every branch of a macro,
-- and the partial area's branch is a third of clf_auroc's binding (15 ms a call).
CREATE OR REPLACE MACRO _clf_auroc_area(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1
) AS TABLE
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (SELECT unnest(__clf_key), __clf_key, auroc
    FROM _clf_auroc_keyed(tbl, y, score, group_cols, weight_col, pos_label))
ORDER BY __clf_key;

CREATE OR REPLACE MACRO clf_auroc(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1, max_fpr := NULL
) AS TABLE
-- The full area from _clf_auroc_keyed, or McClish's partial area when max_fpr (checked, a
-- constant) is below 1; the other branch's filter is constant and DuckDB drops it.
WITH opts AS (SELECT _clf_checked_max_fpr(max_fpr) < 1 AS __clf_partial),
-- The partial area (McClish) from the thresholds of _clf_score_counts (zero-weight rows make
-- none): each trapezoid up to max_fpr counts in full, the one that crosses it up to max_fpr,
-- its height interpolated (scikit-learn's np.interp). A group whose rows all weigh 0 has no
-- threshold; it gets its NULL from the list of groups.
partial AS (
    SELECT __clf_key, n_pos, n_neg,
        _clf_roc_segment(_clf_div(fp, n_neg, NULL), _clf_div(tp, n_pos, NULL),
            _clf_div(coalesce(prev_fp, 0.0), n_neg, NULL),
            _clf_div(coalesce(prev_tp, 0.0), n_pos, NULL),
            CAST(max_fpr AS DOUBLE)) AS seg
    FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label), opts
    WHERE __clf_partial
    UNION ALL
    SELECT __clf_key, 0.0, 0.0, 0.0
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label), opts
    WHERE __clf_partial AND weight_col IS NOT NULL
    GROUP BY __clf_key
),
areas AS (
    SELECT a.* FROM _clf_auroc_keyed(tbl, y, score, group_cols, weight_col, pos_label) AS a, opts
    WHERE NOT __clf_partial
    UNION ALL
    SELECT __clf_key, _clf_partial_auroc(sum(seg), max(n_pos), max(n_neg), max_fpr)
    FROM partial
    GROUP BY __clf_key
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (SELECT unnest(__clf_key), __clf_key, auroc FROM areas)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_auroc IS
'Area under the ROC curve per group: (group columns..., auroc), the probability that a positive scores above a negative, ties counting half (equals scikit-learn roc_auc_score, weights included). With max_fpr := m (0 < m <= 1) the partial area up to fpr = m, McClish-standardized: 0.5 * (1 + (A_m - m^2/2) / (m - m^2/2)), 0.5 for a random and 1 for a perfect ranking (scikit-learn roc_auc_score(max_fpr=m)); m = 1 is the full area. Usage: FROM clf_auroc(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1, max_fpr := NULL). NULL when the group has only one class. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, NaN, infinite or negative weights, and max_fpr that is not a number in (0, 1]. Python twin: clfeval.auroc (max_fpr=).';

CREATE OR REPLACE MACRO clf_average_precision(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1
) AS TABLE
-- scikit-learn's step sum: the sum over thresholds of (recall increase) x precision, where the
-- recall increase at a threshold is the positive weight at that score over the group's total
WITH steps AS (
    SELECT __clf_key,
        CASE WHEN n_pos = 0 THEN NULL ELSE greatest(0.0, _clf_div(pos_prec, n_pos, NULL)) END
            AS average_precision
    FROM _clf_score_sums(tbl, y, score, group_cols, weight_col, pos_label, false)
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (SELECT unnest(__clf_key), __clf_key, CAST(average_precision AS DOUBLE) AS average_precision FROM steps)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_average_precision IS
'Average precision per group: (group columns..., average_precision), the sum over thresholds of (recall increase) x precision, scikit-learn average_precision_score''s step sum (no interpolation), weights included. Usage: FROM clf_average_precision(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1). NULL when the group has no positive (scikit-learn returns 0.0 with a warning). NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.average_precision.';

CREATE OR REPLACE MACRO clf_gain(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1
) AS TABLE
WITH counts AS (FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label)),
points AS (
    SELECT __clf_key, __clf_i,
        _clf_div(tp + fp, n_pos + n_neg, NULL) AS fraction_targeted,
        _clf_div(tp, n_pos, NULL) AS gain
    FROM counts
    UNION ALL
    SELECT __clf_key, 0, 0.0::DOUBLE, _clf_div(0, n_pos, NULL) FROM counts WHERE __clf_i = 1
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_i)
FROM (SELECT unnest(__clf_key), __clf_key, __clf_i, fraction_targeted, gain FROM points)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i;

COMMENT ON MACRO TABLE clf_gain IS
'Cumulative gain curve: (group columns..., fraction_targeted, gain). Targeting the rows with score >= t, fraction_targeted is their share of all rows (of the total weight) and gain the share of all positives they contain; one point per distinct score, highest first, after the origin (0, 0). Usage: FROM clf_gain(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1). gain is NULL when the group has no positive. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.gain_curve.';
