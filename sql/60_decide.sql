-- clfeval SQL layer, file 60: from scores to decisions.
-- Python twins: clfeval._decide (decision_curve, cv_summary). The prevalence shift and the
-- costs are options of clf_metrics (prevalence :=) and clf_thresholds (prevalence :=,
-- cost_fp :=, cost_fn :=, benefit_tp :=, benefit_tn :=); their checks are in 00_helpers.sql.
-- Conventions: see 00_helpers.sql.

-- The threshold probabilities of a decision curve as a sorted DOUBLE list: 0.01, 0.02, ...,
-- 0.99 for NULL, else the list given, or an error when it is empty, longer than 10,000
-- (clfeval._options.MAX_GRID), holds a value that is not a number in (0, 1), or a value twice.
CREATE OR REPLACE MACRO _clf_checked_grid(thresholds) AS
    CASE
        WHEN thresholds IS NULL THEN list_transform(range(1, 100), lambda k: CAST(k AS DOUBLE) / 100)
        WHEN len(thresholds) = 0 THEN error('clfeval: thresholds = [] lists no value; '
            || 'threshold probabilities t lie in (0, 1)')
        WHEN len(thresholds) > 10000 THEN error(printf('clfeval: thresholds lists %d values, more '
            || 'than 10,000', len(thresholds)))
        WHEN len(list_filter(thresholds, lambda t: t IS NULL OR NOT (_clf_option_number(t) > 0
                AND _clf_option_number(t) < 1))) > 0
            THEN error(printf('clfeval: thresholds holds %s, not a number in (0, 1); threshold '
                || 'probabilities t lie in (0, 1) (the odds t / (1 - t) weigh a false positive)',
                _clf_show(list_filter(thresholds, lambda t: t IS NULL
                    OR NOT (_clf_option_number(t) > 0 AND _clf_option_number(t) < 1))[1])))
        WHEN len(list_distinct(thresholds)) < len(thresholds) THEN error(
            'clfeval: thresholds lists a value twice; list each value once')
        ELSE list_sort(list_transform(thresholds, lambda t: _clf_option_number(t)))
    END;

CREATE OR REPLACE MACRO clf_decision_curve(
    tbl, y, proba, group_cols := [], weight_col := NULL, pos_label := 1, thresholds := NULL
) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, proba, pos_label, 'proba')),
grid AS MATERIALIZED (
    SELECT unnest(g) AS t, unnest(range(1, len(g) + 1)) AS i
    FROM (SELECT _clf_checked_grid(thresholds) AS g)
),
-- one GROUP BY over the rows: each distinct score's positive and negative weight and what the
-- checks need (rows with NaN or out-of-range probabilities, bad weights); then each distinct
-- score goes to the last grid threshold t <= it (ASOF; bucket 0 for none)
scores AS MATERIALIZED (
    SELECT __clf_key, __clf_s AS s,
        sum(CASE WHEN __clf_pos THEN __clf_w ELSE 0 END) AS pos,
        sum(CASE WHEN __clf_pos THEN 0 ELSE __clf_w END) AS neg,
        count(*) AS n_rows,
        count_if(isnan(__clf_w)) AS w_nan,
        count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg,
        min(__clf_w) AS w_lo
    FROM _clf_score_rows(tbl, y, proba, group_cols, weight_col, pos_label)
    GROUP BY ALL
),
checked AS (
    SELECT _clf_check_proba(
            sum(n_rows) FILTER (WHERE isnan(s)),
            sum(n_rows) FILTER (WHERE NOT isnan(s) AND (s < 0 OR s > 1)),
            min(s) FILTER (WHERE NOT isnan(s)),
            max(s) FILTER (WHERE NOT isnan(s)),
            proba)
        AND (weight_col IS NULL OR _clf_check_weights(sum(w_nan), sum(w_inf), sum(w_neg),
            min(w_lo), printf('column %s (role weight)', _clf_quoted(weight_col)))) AS ok
    FROM scores
),
buckets AS (
    SELECT sc.__clf_key, coalesce(g.i, 0) AS i, sum(sc.pos) AS pos, sum(sc.neg) AS neg
    FROM scores AS sc ASOF LEFT JOIN grid AS g ON sc.s >= g.t
    GROUP BY ALL
),
totals AS (
    SELECT __clf_key, CAST(sum(pos) AS DOUBLE) AS n_pos, CAST(sum(neg) AS DOUBLE) AS n_neg
    FROM buckets GROUP BY ALL
),
-- at grid threshold i: the weight of the rows whose bucket is i or above
curve AS (
    SELECT __clf_key, i, t AS threshold, n_pos, n_neg,
        CAST(sum(coalesce(b.pos, 0)) OVER w AS DOUBLE) AS tp,
        CAST(sum(coalesce(b.neg, 0)) OVER w AS DOUBLE) AS fp
    FROM totals CROSS JOIN grid LEFT JOIN buckets AS b USING (__clf_key, i)
    WINDOW w AS (
        PARTITION BY __clf_key ORDER BY i DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_i)
FROM (
    SELECT unnest(__clf_key), __clf_key, i AS __clf_i, threshold,
        _clf_div(tp, n_pos + n_neg, NULL)
            - _clf_div(fp, n_pos + n_neg, NULL) * (threshold / (1 - threshold)) AS net_benefit,
        _clf_div(n_pos, n_pos + n_neg, NULL)
            - _clf_div(n_neg, n_pos + n_neg, NULL) * (threshold / (1 - threshold))
            AS net_benefit_all,
        0.0::DOUBLE AS net_benefit_none
    FROM curve, args, checked
    WHERE args.ok AND checked.ok
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i;

COMMENT ON MACRO TABLE clf_decision_curve IS
'Decision curve (Vickers & Elkin 2006): (group columns..., threshold, net_benefit, net_benefit_all, net_benefit_none), one row per threshold probability t, increasing. net_benefit = TP/n - FP/n * t / (1 - t) for the rows with proba >= t; net_benefit_all the same when every row is treated (P/n - N/n * t / (1 - t)); net_benefit_none = 0. Usage: FROM clf_decision_curve(''preds'', ''y'', ''p'', group_cols := [], weight_col := NULL, pos_label := 1, thresholds := NULL). thresholds NULL is 0.01, 0.02, ..., 0.99; a list is sorted. NULL in a group of zero weight. Rows with a NULL in y, p or the weight are left out. Errors (clfeval: ...) on probabilities outside [0, 1] or NaN, thresholds that are empty, repeated or outside (0, 1), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.decision_curve.';

CREATE OR REPLACE MACRO clf_cv_summary(
    tbl, y, yhat, fold := 'fold', group_cols := [], weight_col := NULL, average := 'binary',
    pos_label := 1, labels := NULL, zero_division := 0.0, beta := 1.0, kappa_weights := NULL,
    adjusted := false, ddof := 1
) AS TABLE
WITH pooled AS (
    FROM (
        FROM clf_metrics(tbl, y, yhat, group_cols := group_cols, weight_col := weight_col,
            average := average, pos_label := pos_label, labels := labels,
            zero_division := zero_division, beta := beta, kappa_weights := kappa_weights,
            adjusted := adjusted)
    ) UNPIVOT INCLUDE NULLS (
        __clf_v FOR metric IN (accuracy, balanced_accuracy, precision, recall, f1, mcc,
            specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa)
    )
),
per_fold AS (
    SELECT *, COLUMNS([fold]) AS __clf_fold
    FROM (
        FROM clf_metrics(tbl, y, yhat, group_cols := list_append(
                list_filter(CAST(group_cols AS VARCHAR[]), lambda c: c <> fold), fold),
            weight_col := weight_col, average := average, pos_label := pos_label,
            labels := labels, zero_division := zero_division, beta := beta,
            kappa_weights := kappa_weights, adjusted := adjusted)
    ) UNPIVOT INCLUDE NULLS (
        __clf_v FOR metric IN (accuracy, balanced_accuracy, precision, recall, f1, mcc,
            specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa)
    )
),
stacked AS (
    SELECT COLUMNS(lambda c: c NOT IN ('__clf_v', '__clf_fold') AND c <> fold),
        NULL::BOOLEAN AS __clf_nogroup, NULL AS __clf_fold, true AS __clf_pooled, __clf_v
    FROM pooled
    UNION ALL BY NAME
    SELECT COLUMNS(lambda c: c NOT IN ('__clf_v', '__clf_fold') AND c <> fold),
        NULL::BOOLEAN AS __clf_nogroup, __clf_fold, false AS __clf_pooled, __clf_v
    FROM per_fold
),
summary AS (
    SELECT COLUMNS(lambda c: c NOT IN ('__clf_v', '__clf_fold', '__clf_pooled')),
        max(__clf_v) FILTER (WHERE __clf_pooled) AS pooled,
        avg(__clf_v) FILTER (WHERE NOT __clf_pooled) AS mean,
        CASE
            WHEN ddof = 1 THEN stddev_samp(__clf_v) FILTER (WHERE NOT __clf_pooled)
            WHEN ddof = 0 THEN stddev_pop(__clf_v) FILTER (WHERE NOT __clf_pooled)
            ELSE error(printf('clfeval: ddof = %s is not 0 or 1; ddof := 1 is the sample '
                || 'standard deviation over folds', _clf_show(ddof)))
        END AS sd,
        count(__clf_v) FILTER (WHERE NOT __clf_pooled) AS n_folds,
        count(DISTINCT __clf_fold) FILTER (WHERE NOT __clf_pooled) AS __clf_k,
        count(*) FILTER (WHERE NOT __clf_pooled AND __clf_fold IS NULL) AS __clf_null_folds
    FROM stacked
    GROUP BY ALL
),
checked AS (
    SELECT CASE
        WHEN list_contains(CAST(group_cols AS VARCHAR[]), fold) THEN error(printf(
            'clfeval: the fold column %s is also a group column (group_cols); group by the '
            || 'other columns', _clf_quoted(fold)))
        WHEN sum(__clf_null_folds) > 0 THEN error(printf(
            'clfeval: column %s (fold) has null value(s); every row needs its fold',
            _clf_quoted(fold)))
        WHEN min(__clf_k) < 2 THEN error(printf(
            'clfeval: column %s (fold) has %d fold(s), fewer than 2; a mean and standard '
            || 'deviation over folds need at least two folds', _clf_quoted(fold), min(__clf_k)))
        ELSE true
    END AS __clf_ok
    FROM summary
)
SELECT COLUMNS(lambda c: c NOT IN ('__clf_nogroup', '__clf_k', '__clf_null_folds', '__clf_ok'))
FROM summary, checked
WHERE checked.__clf_ok
ORDER BY COLUMNS(list_filter(_clf_group_list(group_cols), lambda c: c <> fold)),
    list_position(['accuracy', 'balanced_accuracy', 'precision', 'recall', 'f1', 'mcc',
        'specificity', 'fpr', 'npv', 'fnr', 'jaccard', 'fbeta', 'cohen_kappa'], metric);

COMMENT ON MACRO TABLE clf_cv_summary IS
'Cross-validated label metrics: (group columns..., metric, pooled, mean, sd, n_folds), one row per group and metric of clf_metrics (accuracy, balanced_accuracy, precision, recall, f1, mcc, specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa). pooled is the metric of one confusion matrix over the rows of every fold (each row weighs the same); mean and sd are over the folds'' own values (each fold weighs the same; sd with ddof := 1, the sample standard deviation, or 0); n_folds counts the folds with a value (NULL fold values are left out of mean and sd). Usage: FROM clf_cv_summary(''preds'', ''y'', ''yhat'', fold := ''fold'', group_cols := [], weight_col := NULL, average := ''binary'', pos_label := 1, labels := NULL, zero_division := 0.0, beta := 1.0, kappa_weights := NULL, adjusted := false, ddof := 1), the options as clf_metrics. Errors (clfeval: ...) as clf_metrics, and on a fold column with a NULL or with fewer than 2 folds in a group, and ddof other than 0 or 1. Python twin: clfeval.cv_summary.';
