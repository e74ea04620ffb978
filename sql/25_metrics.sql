-- clfeval SQL layer, file 25: clf_metrics, every label metric of clfeval.metrics per group.
-- Python twin: clfeval.metrics (and clfeval.sql.metrics, which runs this macro).
-- Conventions: see 00_helpers.sql.
--
-- Output: (group columns..., accuracy, balanced_accuracy, precision, recall, f1, mcc,
-- specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa), all DOUBLE: the label metrics of
-- the registry (clfeval._metrics) in the order of clfeval.metrics, the default six first.
-- One pass over the rows (_clf_label_counts: the (group, actual, predicted) totals and the
-- one-vs-rest counts per class); every metric is a formula over that small relation:
--   * the ratios (precision ... jaccard, f1, fbeta with beta) by average: 'binary' from the
--     counts of pos_label against the rest, 'micro' from the counts pooled over the classes,
--     'macro' and 'weighted' from each class's ratio (_clf_ratio_of, 20_label.sql);
--   * accuracy, balanced_accuracy (adjusted := true: chance is 0) and mcc over every row and
--     class, whatever average and labels;
--   * cohen_kappa (kappa_weights := NULL | 'linear' | 'quadratic') over the rows whose actual
--     and predicted classes are both in labels (every row without labels), the classes at
--     their positions in labels (else the sorted classes of the group).

-- The ratio v averaged over classes weighted by support (scikit-learn: NULLs left out, and
-- the plain mean when the support left is 0).
CREATE OR REPLACE MACRO _clf_weighted_avg(v, support) AS
    coalesce(_clf_div(sum(v * support), sum(support) FILTER (WHERE v IS NOT NULL), NULL), avg(v));

-- The disagreement weight of classes at 0-based positions i and j (kappa_weights: NULL,
-- 'linear', 'quadratic'), as clfeval.cohen_kappa.
CREATE OR REPLACE MACRO _clf_kappa_gap(kappa_weights, i, j) AS
    CASE
        WHEN kappa_weights IS NULL THEN CAST(i <> j AS DOUBLE)
        WHEN CAST(kappa_weights AS VARCHAR) = 'linear' THEN CAST(abs(i - j) AS DOUBLE)
        ELSE CAST((i - j) * (i - j) AS DOUBLE)
    END;

CREATE OR REPLACE MACRO clf_metrics(
    tbl, y, yhat, group_cols := [], weight_col := NULL, average := 'binary', pos_label := 1,
    labels := NULL, zero_division := 0.0, beta := 1.0, kappa_weights := NULL, adjusted := false,
    prevalence := NULL
) AS TABLE
WITH base AS MATERIALIZED (
    FROM _clf_label_counts(
        tbl, y, yhat, group_cols, weight_col, labels, pos_label, average = 'binary')
),
-- prevalence := p: the pairs re-weighted to that share of pos_label (clfeval._shift), each
-- group by its own measured share; a group without both classes is NULL (shown below). The
-- per-class rows (classes) stay as measured: prevalence needs average 'binary', whose ratios
-- come from the pairs; kappa reads the classes' positions only.
shift AS (
    SELECT __clf_key,
        _clf_checked_prevalence(prevalence) AS pi,
        coalesce(sum(n) FILTER (WHERE _clf_eq(actual, pos_label)), 0) AS n_pos,
        coalesce(sum(n) FILTER (WHERE NOT _clf_eq(actual, pos_label)), 0) AS n_neg
    FROM base WHERE __clf_ord IS NULL AND prevalence IS NOT NULL AND average = 'binary'
    GROUP BY ALL
),
pairs AS (
    SELECT b.__clf_key, actual, predicted,
        n * CASE
            WHEN s.pi IS NULL THEN 1.0
            WHEN _clf_eq(actual, pos_label) THEN s.pi * (s.n_pos + s.n_neg) / s.n_pos
            ELSE (1 - s.pi) * (s.n_pos + s.n_neg) / s.n_neg
        END AS n
    FROM base AS b LEFT JOIN shift AS s USING (__clf_key)
    WHERE __clf_ord IS NULL
),
classes AS (
    SELECT __clf_key, actual AS label, __clf_ord, tp, pred, support, total
    FROM base WHERE __clf_ord IS NOT NULL
),
-- Per class seen in the data: its recall (balanced accuracy) and its actual and predicted
-- totals (the multiclass MCC). Like accuracy, neither depends on labels or average.
seen AS (
    SELECT __clf_key, label,
        _clf_div(
            coalesce(sum(n) FILTER (WHERE truth AND actual = predicted), 0),
            sum(n) FILTER (WHERE truth), NULL) AS recall,
        coalesce(sum(n) FILTER (WHERE truth), 0) AS t,
        coalesce(sum(n) FILTER (WHERE NOT truth), 0) AS p,
        -- the group's totals, so the MCC is computed on shares (no overflow of products)
        sum(coalesce(sum(n) FILTER (WHERE truth), 0)) OVER (PARTITION BY __clf_key) AS t_total,
        sum(coalesce(sum(n) FILTER (WHERE NOT truth), 0)) OVER (PARTITION BY __clf_key) AS p_total
    FROM (
        SELECT *, actual AS label, true AS truth FROM pairs
        UNION ALL
        SELECT *, predicted, false FROM pairs
    )
    GROUP BY __clf_key, label
),
per_group AS (
    SELECT __clf_key,
        count(*) AS n_seen,
        bool_or(average = 'binary' AND label = pos_label) AS has_pos,
        avg(recall) AS balanced_accuracy,
        count(recall) AS n_recall,
        sum(_clf_div(t, t_total, 0.0) * _clf_div(p, p_total, 0.0)) AS tp_dot,
        sum(_clf_div(t, t_total, 0.0) * _clf_div(t, t_total, 0.0)) AS tt,
        sum(_clf_div(p, p_total, 0.0) * _clf_div(p, p_total, 0.0)) AS pp
    FROM seen GROUP BY ALL
),
checked AS (
    SELECT CASE
        WHEN average IS NULL OR average NOT IN ('binary', 'micro', 'macro', 'weighted')
            THEN error(printf(
                'clfeval: average = %s is not one of ''binary'', ''micro'', ''macro'', ''weighted''',
                coalesce('''' || average || '''', 'NULL')))
        WHEN NOT _clf_check_zero_division(zero_division, '') THEN false
        WHEN NOT _clf_check_beta(beta, '') THEN false
        WHEN NOT _clf_check_kappa_weights(kappa_weights, '', 'kappa_weights') THEN false
        WHEN NOT _clf_check_flag(adjusted, '', 'adjusted') THEN false
        WHEN prevalence IS NOT NULL AND average <> 'binary' THEN error(
            'clfeval: prevalence := needs average := ''binary'' in clf_metrics; for averages at a '
            || 'target class distribution use clfeval.metrics(..., prevalence={class: share})')
        WHEN average = 'binary' AND max(n_seen) > 2 THEN error(printf(
            'clfeval: column %s (role y) has %d classes but average = ''binary''; '
            || 'use average := ''macro'', ''micro'' or ''weighted''',
            _clf_quoted(y), max(n_seen)))
        WHEN average = 'binary' AND bool_or(n_seen = 2 AND NOT has_pos) THEN error(printf(
            'clfeval: pos_label = %s is not a class of column %s (role pos_label)',
            CAST(pos_label AS VARCHAR), _clf_quoted(y)))
        ELSE true
    END AS ok
    FROM per_group
),
overall AS (
    SELECT __clf_key,
        _clf_div(coalesce(sum(n) FILTER (WHERE actual = predicted), 0), sum(n), NULL) AS accuracy,
        sum(n) AS s,
        coalesce(sum(n) FILTER (WHERE actual = predicted), 0) AS c,
        coalesce(sum(n) FILTER (
            WHERE average = 'binary' AND actual = pos_label AND predicted = pos_label), 0) AS b_tp,
        coalesce(sum(n) FILTER (WHERE average = 'binary' AND predicted = pos_label), 0) AS b_pred,
        coalesce(sum(n) FILTER (WHERE average = 'binary' AND actual = pos_label), 0) AS b_support
    FROM pairs GROUP BY ALL
),
-- The ratio metrics by the name of their column and of their formula in _clf_ratio_of (f1 is
-- fbeta at beta 1; beta goes through _clf_option_number, so that a bad one reaches its check
-- instead of failing a cast).
ratio_names AS (
    SELECT * FROM (VALUES
        ('precision', 'precision'), ('recall', 'recall'), ('f1', 'fbeta'),
        ('specificity', 'specificity'), ('fpr', 'fpr'), ('npv', 'npv'), ('fnr', 'fnr'),
        ('jaccard', 'jaccard'), ('fbeta', 'fbeta')) AS r(name, formula)
),
-- The counts each ratio is computed from: 'binary' the counts of pos_label (all rows of the
-- group in the total), 'micro' the counts summed over the classes (the total chosen so that
-- the formulas' tn is the summed tn, as clfeval._label), 'macro' and 'weighted' those of each
-- class (kept: its support, the weight of 'weighted').
ratio_counts AS (
    SELECT __clf_key, b_tp AS tp, b_pred AS pred, b_support AS support, s AS total
    FROM overall WHERE average = 'binary'
    UNION ALL
    SELECT __clf_key, sum(tp), sum(pred), sum(support),
        sum(total - pred - support + tp) + sum(pred) + sum(support) - sum(tp)
    FROM classes WHERE average = 'micro' GROUP BY ALL
    UNION ALL
    SELECT __clf_key, tp, pred, support, total
    FROM classes WHERE average IN ('macro', 'weighted')
),
-- One row per group and ratio: the one value ('binary', 'micro'), or the mean of the classes'
-- values ('macro'; scikit-learn's rules, zero_division NULL leaves a class out) or their
-- mean weighted by support ('weighted').
ratios AS (
    SELECT __clf_key, name,
        CASE average
            WHEN 'macro' THEN avg(value)
            WHEN 'weighted' THEN _clf_weighted_avg(value, support)
            ELSE max(value)
        END AS value
    FROM (
        SELECT c.__clf_key, r.name, c.support,
            _clf_ratio_of(r.formula, CASE r.name WHEN 'fbeta' THEN _clf_option_number(beta) ELSE 1.0 END,
                c.tp, c.pred, c.support, c.total, zero_division) AS value
        FROM ratio_counts AS c, ratio_names AS r
    )
    GROUP BY __clf_key, name
),
averaged AS (
    SELECT __clf_key,
        max(value) FILTER (WHERE name = 'precision') AS precision,
        max(value) FILTER (WHERE name = 'recall') AS recall,
        max(value) FILTER (WHERE name = 'f1') AS f1,
        max(value) FILTER (WHERE name = 'specificity') AS specificity,
        max(value) FILTER (WHERE name = 'fpr') AS fpr,
        max(value) FILTER (WHERE name = 'npv') AS npv,
        max(value) FILTER (WHERE name = 'fnr') AS fnr,
        max(value) FILTER (WHERE name = 'jaccard') AS jaccard,
        max(value) FILTER (WHERE name = 'fbeta') AS fbeta
    FROM ratios GROUP BY ALL
),
-- Cohen's kappa as clfeval.cohen_kappa: the pairs whose classes are both listed, at the
-- 0-based positions i, j of their classes; observed disagreement sum(n gap(i, j)) / s and
-- expected disagreement from the actual (ts) and predicted (ps) shares of each position, in
-- closed form: 1 - sum ts ps (no weights), sum over positions of ct (1 - cp) + cp (1 - ct)
-- with the running shares ct, cp ('linear'), sum ts k^2 + sum ps k^2 - 2 (sum ts k)(sum ps k)
-- ('quadratic'). NULL when the expected disagreement is (within 1e-12 of) 0 or no row is left.
kappa_cells AS (
    SELECT p.__clf_key, a.__clf_ord - 1 AS i, b.__clf_ord - 1 AS j, p.n
    FROM pairs AS p
    JOIN classes AS a ON a.__clf_key = p.__clf_key AND a.label = p.actual
    JOIN classes AS b ON b.__clf_key = p.__clf_key AND b.label = p.predicted
),
kappa_margins AS (
    SELECT __clf_key, k, sum(t) AS t, sum(p) AS p
    FROM (
        SELECT __clf_key, i AS k, n AS t, 0.0 AS p FROM kappa_cells
        UNION ALL
        SELECT __clf_key, j, 0.0, n FROM kappa_cells
    )
    GROUP BY ALL
),
kappa_shares AS (
    SELECT __clf_key, k, ts, ps,
        sum(ts) OVER w_pos AS ct,
        sum(ps) OVER w_pos AS cp
    FROM (
        SELECT c.__clf_key, CAST(c.__clf_ord - 1 AS DOUBLE) AS k,
            _clf_div(coalesce(m.t, 0.0), sum(coalesce(m.t, 0.0)) OVER (PARTITION BY c.__clf_key),
                NULL) AS ts,
            _clf_div(coalesce(m.p, 0.0), sum(coalesce(m.t, 0.0)) OVER (PARTITION BY c.__clf_key),
                NULL) AS ps
        FROM classes AS c
        LEFT JOIN kappa_margins AS m ON m.__clf_key = c.__clf_key AND m.k = c.__clf_ord - 1
    )
    WINDOW w_pos AS (PARTITION BY __clf_key ORDER BY k ROWS UNBOUNDED PRECEDING)
),
kappa_expected AS (
    SELECT __clf_key,
        CASE
            WHEN kappa_weights IS NULL THEN 1 - sum(ts * ps)
            WHEN CAST(kappa_weights AS VARCHAR) = 'linear' THEN sum(ct * (1 - cp) + cp * (1 - ct))
            ELSE sum(ts * k * k) + sum(ps * k * k) - 2 * sum(ts * k) * sum(ps * k)
        END AS expected
    FROM kappa_shares GROUP BY ALL
),
kappa AS (
    SELECT e.__clf_key,
        CASE
            WHEN abs(e.expected) <= 1e-12 THEN NULL
            ELSE 1 - _clf_div(_clf_div(o.d, o.s, NULL), e.expected, NULL)
        END AS cohen_kappa
    FROM kappa_expected AS e
    LEFT JOIN (
        SELECT __clf_key, sum(n) AS s, sum(n * _clf_kappa_gap(kappa_weights, i, j)) AS d
        FROM kappa_cells GROUP BY ALL
    ) AS o ON o.__clf_key = e.__clf_key
),
result AS (
    SELECT o.__clf_key, o.accuracy,
        CASE
            -- as text: a bad adjusted (checked above) must not fail a cast first
            WHEN CAST(adjusted AS VARCHAR) = 'true' THEN _clf_div(g.balanced_accuracy - _clf_div(1, g.n_recall, NULL),
                1 - _clf_div(1, g.n_recall, NULL), NULL)
            ELSE g.balanced_accuracy
        END AS balanced_accuracy,
        a.precision, a.recall, a.f1,
        -- Gorodkin's multiclass MCC in scikit-learn's form, on shares of the rows; 0.0 when
        -- the denominator is 0
        _clf_div(
            _clf_div(o.c, o.s, 0.0) - coalesce(g.tp_dot, 0),
            sqrt(greatest((1 - coalesce(g.pp, 0)) * (1 - coalesce(g.tt, 0)), 0)),
            0.0) AS mcc,
        a.specificity, a.fpr, a.npv, a.fnr, a.jaccard, a.fbeta, k.cohen_kappa
    FROM overall AS o
    JOIN per_group AS g USING (__clf_key)
    JOIN averaged AS a USING (__clf_key)
    LEFT JOIN kappa AS k USING (__clf_key), checked
    WHERE checked.ok
),
-- with prevalence := p: every value NULL in a group that cannot be re-weighted, and the
-- measured and target prevalence
shown AS (
    SELECT __clf_key,
        _clf_div(s.n_pos, s.n_pos + s.n_neg, NULL) AS __clf_measured,
        s.pi AS __clf_target,
        CASE
            WHEN prevalence IS NOT NULL AND NOT (s.n_pos > 0 AND s.n_neg > 0) THEN NULL
            ELSE COLUMNS(lambda c: c NOT IN ('__clf_key', 'pi', 'n_pos', 'n_neg'))
        END
    FROM result AS r LEFT JOIN shift AS s USING (__clf_key)
)
-- prevalence (measured) and target_prevalence only with prevalence := p
SELECT COLUMNS(list_concat(
    CAST(group_cols AS VARCHAR[]),
    CASE WHEN prevalence IS NULL THEN []::VARCHAR[] ELSE ['prevalence', 'target_prevalence'] END,
    ['accuracy', 'balanced_accuracy', 'precision', 'recall', 'f1', 'mcc', 'specificity', 'fpr',
        'npv', 'fnr', 'jaccard', 'fbeta', 'cohen_kappa']))
FROM (
    SELECT unnest(__clf_key), __clf_key,
        __clf_measured AS prevalence,
        __clf_target AS target_prevalence,
        CAST(accuracy AS DOUBLE) AS accuracy,
        CAST(balanced_accuracy AS DOUBLE) AS balanced_accuracy,
        CAST(precision AS DOUBLE) AS precision,
        CAST(recall AS DOUBLE) AS recall,
        CAST(f1 AS DOUBLE) AS f1,
        CAST(mcc AS DOUBLE) AS mcc,
        CAST(specificity AS DOUBLE) AS specificity,
        CAST(fpr AS DOUBLE) AS fpr,
        CAST(npv AS DOUBLE) AS npv,
        CAST(fnr AS DOUBLE) AS fnr,
        CAST(jaccard AS DOUBLE) AS jaccard,
        CAST(fbeta AS DOUBLE) AS fbeta,
        CAST(cohen_kappa AS DOUBLE) AS cohen_kappa
    FROM shown
)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_metrics IS
'Label metrics per group: (group columns..., accuracy, balanced_accuracy, precision, recall, f1, mcc, specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa), all DOUBLE. Usage: FROM clf_metrics(''preds'', ''y'', ''yhat'', group_cols := [], weight_col := NULL, average := ''binary'', pos_label := 1, labels := NULL, zero_division := 0.0, beta := 1.0, kappa_weights := NULL, adjusted := false, prevalence := NULL). prevalence := p (in (0, 1), average ''binary'') gives every metric on the pairs re-weighted to that share of pos_label (NULL in a group without both classes), after the columns prevalence (measured) and target_prevalence. The ratios (precision, recall, f1, specificity, fpr, npv, fnr, jaccard, and fbeta with beta; beta = inf gives recall) follow average: ''binary'' (class pos_label; more than two classes is an error), ''micro'', ''macro'' or ''weighted'' (scikit-learn''s rules; zero_division NULL leaves undefined classes out of the averages); labels := [...] picks the classes averaged. accuracy, balanced_accuracy (mean recall over the classes present in y; adjusted := true rescales it so chance is 0, scikit-learn''s adjusted=True) and mcc (multiclass, Gorodkin; scikit-learn matthews_corrcoef) use every row and depend on neither average nor labels. cohen_kappa (kappa_weights := NULL, ''linear'' or ''quadratic'', scikit-learn''s weights) uses the rows whose classes are both in labels (all rows without labels), classes in labels order or sorted; NULL when the expected disagreement is 0. Rows with a NULL in y, yhat or the weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL (with average ''binary''), NaN, infinite or negative weights, labels that is empty, lists a class twice or NULL, holds another kind than y, or matches no class of the data, zero_division other than 0, 1 or NULL, beta that is not a number >= 0, kappa_weights other than NULL, ''linear'' or ''quadratic'', adjusted other than true or false, and prevalence outside (0, 1) or with another average than ''binary''. Python twin: clfeval.metrics (clfeval.sql.metrics runs this macro).';
