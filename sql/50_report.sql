-- clfeval SQL layer, file 50: the classification report as a tidy table.
-- Python twin: clfeval.report (Report.table). Conventions: see 00_helpers.sql.

CREATE OR REPLACE MACRO clf_report(
    tbl, y, yhat, group_cols := [], weight_col := NULL, labels := NULL, zero_division := 0.0
) AS TABLE
WITH base AS MATERIALIZED (
    FROM _clf_label_counts(tbl, y, yhat, group_cols, weight_col, labels, NULL, false)
),
per_class AS (
    SELECT __clf_key, __clf_ord, CAST(actual AS VARCHAR) AS label, tp, pred, support,
        _clf_div(tp, pred, zero_division) AS precision,
        _clf_div(tp, support, zero_division) AS recall,
        _clf_div(2 * tp, support + pred, zero_division) AS f1
    FROM base
    WHERE __clf_ord IS NOT NULL AND _clf_check_zero_division(zero_division, '')
),
-- scikit-learn names the first summary row 'micro avg' instead of 'accuracy' when labels
-- leaves out a class present in the data.
unlisted AS (
    SELECT __clf_key,
        count(*) FILTER (WHERE labels IS NOT NULL AND NOT _clf_listed(labels, label)) AS n_unlisted
    FROM (
        SELECT __clf_key, actual AS label FROM base WHERE __clf_ord IS NULL
        UNION
        SELECT __clf_key, predicted AS label FROM base WHERE __clf_ord IS NULL
    )
    GROUP BY ALL
),
summary AS (
    SELECT __clf_key,
        sum(tp) AS s_tp, sum(pred) AS s_pred, sum(support) AS s_support,
        avg(precision) AS macro_p, avg(recall) AS macro_r, avg(f1) AS macro_f,
        _clf_weighted_avg(precision, support) AS weighted_p,
        _clf_weighted_avg(recall, support) AS weighted_r,
        _clf_weighted_avg(f1, support) AS weighted_f
    FROM per_class GROUP BY ALL
),
report_rows AS (
    SELECT __clf_key, 0 AS __clf_part, __clf_ord, label, precision, recall, f1, support
    FROM per_class
    UNION ALL
    SELECT __clf_key, 1, 0,
        CASE WHEN n_unlisted > 0 THEN 'micro avg' ELSE 'accuracy' END,
        CASE WHEN n_unlisted > 0 THEN _clf_div(s_tp, s_pred, zero_division) END,
        CASE WHEN n_unlisted > 0 THEN _clf_div(s_tp, s_support, zero_division) END,
        _clf_div(2 * s_tp, s_support + s_pred, zero_division),
        s_support
    FROM summary JOIN unlisted USING (__clf_key)
    UNION ALL
    SELECT __clf_key, 2, 0, 'macro avg', macro_p, macro_r, macro_f, s_support FROM summary
    UNION ALL
    SELECT __clf_key, 3, 0, 'weighted avg', weighted_p, weighted_r, weighted_f, s_support FROM summary
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_part, __clf_ord)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_part, __clf_ord, label,
        CAST(precision AS DOUBLE) AS precision,
        CAST(recall AS DOUBLE) AS recall,
        CAST(f1 AS DOUBLE) AS f1,
        COLUMNS(_clf_typed(weight_col, 'support')) AS support
    FROM (
        SELECT *, support AS support__d, TRY_CAST(support AS BIGINT) AS support__i FROM report_rows
    )
)
ORDER BY __clf_key, __clf_part, __clf_ord;

COMMENT ON MACRO TABLE clf_report IS
'Classification report as a tidy table: (group columns..., label VARCHAR, precision, recall, f1, support), one row per class in class order, then the rows ''accuracy'' (precision and recall NULL, f1 = accuracy, support = total; named ''micro avg'' with micro-averaged values when labels leaves out a class present in the data, as scikit-learn), ''macro avg'' and ''weighted avg'' (weighted by support). The numbers of scikit-learn classification_report(output_dict=True). Usage: FROM clf_report(''preds'', ''y'', ''yhat'', group_cols := [], weight_col := NULL, labels := NULL, zero_division := 0.0). zero_division NULL leaves undefined classes out of the averages. support is BIGINT (DOUBLE with weight_col). Rows with a NULL in y, yhat or the weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), NaN, infinite or negative weights, labels that is empty, lists a class twice or NULL, holds another kind than y, or matches no class of the data, and zero_division other than 0, 1 or NULL. Python twin: clfeval.report(...).table.';
