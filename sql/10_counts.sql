-- clfeval SQL layer, file 10: the count layer, the only macros that read rows.
-- Python twin: clfeval._counts (confusion_matrix, counts, and the threshold counts of
-- clfeval._score). Conventions: see 00_helpers.sql.
--
-- Label macros start from _clf_label_counts: one GROUP BY (group, actual, predicted) and the
-- one-vs-rest sums per class derived from that small relation. Score macros start from
-- _clf_score_counts (curves: one row per group and distinct score, running sums from the
-- highest score down) or _clf_score_sums (areas), each with two plans picked by
-- _clf_score_plan; tied scores always form one threshold.

-- Binary counts for the aggregate macros: class pos_label against the rest (labels compared
-- through _clf_eq; the macros' _clf_agg_guard raises on labels of different kinds). _clf_binary
-- packs the four into one struct, so that a metric can bind them once with _clf_let.
CREATE OR REPLACE MACRO _clf_tp(y, yhat, pos_label, weight) AS
    _clf_sum(_clf_eq(y, pos_label) AND _clf_eq(yhat, pos_label), weight);
CREATE OR REPLACE MACRO _clf_fp(y, yhat, pos_label, weight) AS
    _clf_sum(NOT _clf_eq(y, pos_label) AND _clf_eq(yhat, pos_label), weight);
CREATE OR REPLACE MACRO _clf_fn(y, yhat, pos_label, weight) AS
    _clf_sum(_clf_eq(y, pos_label) AND NOT _clf_eq(yhat, pos_label), weight);
CREATE OR REPLACE MACRO _clf_tn(y, yhat, pos_label, weight) AS
    _clf_sum(NOT _clf_eq(y, pos_label) AND NOT _clf_eq(yhat, pos_label), weight);
CREATE OR REPLACE MACRO _clf_binary(y, yhat, pos_label, weight) AS
    struct_pack(
        tp := _clf_tp(y, yhat, pos_label, weight), fp := _clf_fp(y, yhat, pos_label, weight),
        fn := _clf_fn(y, yhat, pos_label, weight), tn := _clf_tn(y, yhat, pos_label, weight));

-- A label column described for a message: column 'y' (role y, VARCHAR).
CREATE OR REPLACE MACRO _clf_role(col, role, t) AS
    printf('column %s (role %s, %s)', _clf_quoted(col), role, t);

-- TRUE, or an error on the label arguments of a label table macro: y and yhat (types ty and
-- tyhat) of different kinds, pos_label NULL or of another kind than y (when pos_used), labels
-- empty, with a duplicate or NULL, or of another kind than y. Constant: folded when bound.
CREATE OR REPLACE MACRO _clf_check_label_args(ty, tyhat, y, yhat, labels, pos_label, pos_used) AS
    _clf_check_kinds(ty, tyhat, _clf_role(y, 'y', ty), _clf_role(yhat, 'yhat', tyhat),
        'cast one of them')
    AND (NOT pos_used OR _clf_check_pos(ty, typeof(pos_label), pos_label IS NULL, pos_label,
        _clf_role(y, 'y', ty), ''))
    AND _clf_check_labels(labels, ty, _clf_role(y, 'y', ty));

-- (__clf_key, actual, predicted, n, wstats): one row per group and pair of classes with its
-- total weight n (DOUBLE); rows with a NULL in y, yhat or the weight are left out. The GROUP BY
-- runs on the raw group columns and the struct __clf_key is packed on the small result: hashing
-- a struct per input row costs more than the whole count. Without a weight column n is
-- count(*). wstats counts the pair's NaN, infinite and negative weights and has their minimum
-- (NULL without a weight column: the counts are then not computed). The label arguments are
-- checked in the WHERE clause (_clf_check_label_args, a constant), so a bad one raises on the
-- first row, before any label is compared.
CREATE OR REPLACE MACRO _clf_label_pairs(
    tbl, y, yhat, group_cols, weight_col, labels, pos_label, pos_used
) AS TABLE
SELECT
    struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key,
    __clf_y AS actual,
    __clf_yhat AS predicted,
    CAST(COLUMNS(_clf_typed(weight_col, '__clf_n')) AS DOUBLE) AS n,
    CASE WHEN weight_col IS NULL THEN NULL ELSE __clf_ws END AS wstats
FROM (
    SELECT
        -- the raw group columns and __clf_y, and the constant __clf_nogroup in this SELECT
        -- (_clf_keys_and: read from the subquery, the constant cost a third of the count)
        COLUMNS(_clf_keys_and(group_cols, '__clf_y')), __clf_yhat,
        NULL::BOOLEAN AS __clf_nogroup,
        count(*) AS __clf_n__i,
        sum(__clf_w) AS __clf_n__d,
        struct_pack(
            n_nan := count_if(isnan(__clf_w)),
            n_inf := count_if(isinf(__clf_w)),
            n_neg := count_if(__clf_w < 0),
            lo := min(__clf_w)) AS __clf_ws
    FROM (
        SELECT *,
            COLUMNS([y]) AS __clf_y,
            COLUMNS([yhat]) AS __clf_yhat,
            CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w
        FROM (SELECT *, 1.0::DOUBLE AS __clf_one FROM query_table(tbl))
    )
    WHERE __clf_y IS NOT NULL AND __clf_yhat IS NOT NULL AND __clf_w IS NOT NULL
        AND _clf_check_label_args(
            typeof(__clf_y), typeof(__clf_yhat), y, yhat, labels, pos_label, pos_used)
    GROUP BY ALL
);

-- Whether x is one of the list labels: list_contains, in a form that binds whatever the types
-- (list_contains refuses text against numbers when the query is bound, before the kind check
-- of _clf_label_pairs could raise).
CREATE OR REPLACE MACRO _clf_listed(labels, x) AS len(list_filter(labels, lambda v: v = x)) > 0;

-- Two kinds of rows, stacked so that a macro reads the input once:
--   pair rows  (__clf_ord NULL): actual, predicted and their total weight n;
--   class rows (__clf_ord = 1, 2, ...): one per class of the group in class order (the sorted
--     classes seen in y or yhat, or `labels` as given), with one-vs-rest sums tp, pred
--     (predicted as the class), support (actually the class) and total (all rows of the group,
--     listed classes or not, as scikit-learn's multilabel_confusion_matrix).
-- Raises on the label arguments (_clf_label_pairs; pos_label only when pos_used), on NaN,
-- infinite or negative weights, and when labels lists no class present in y or yhat of any
-- group (clfeval.metrics raises alike; a group with none of them gets zeros, as scikit-learn).
CREATE OR REPLACE MACRO _clf_label_counts(
    tbl, y, yhat, group_cols, weight_col, labels, pos_label, pos_used
) AS TABLE
WITH pairs AS MATERIALIZED (
    FROM _clf_label_pairs(tbl, y, yhat, group_cols, weight_col, labels, pos_label, pos_used)
),
checked AS (
    SELECT CASE
        WHEN weight_col IS NOT NULL AND NOT _clf_check_weights(
                sum(wstats.n_nan), sum(wstats.n_inf), sum(wstats.n_neg), min(wstats.lo),
                printf('column %s (role weight)', _clf_quoted(weight_col)))
            THEN false
        WHEN labels IS NOT NULL AND count(*) > 0
                AND NOT bool_or(_clf_listed(labels, actual) OR _clf_listed(labels, predicted))
            THEN error(printf(
                'clfeval: none of labels = %s occurs in column %s (role y) or column %s '
                || '(role yhat); list classes that occur in the data',
                _clf_show_list(labels), _clf_quoted(y), _clf_quoted(yhat)))
        ELSE true
    END AS ok
    FROM pairs
),
-- each pair counts once for its actual class (truth) and once for its predicted class
per_class AS (
    SELECT __clf_key, label,
        coalesce(sum(n) FILTER (WHERE truth AND actual = predicted), 0) AS tp,
        coalesce(sum(n) FILTER (WHERE NOT truth), 0) AS pred,
        coalesce(sum(n) FILTER (WHERE truth), 0) AS support,
        row_number() OVER (PARTITION BY __clf_key ORDER BY label) AS __clf_ord
    FROM (
        -- a UNION, not unnest([actual, predicted]): it binds also when y and yhat hold
        -- different kinds, so that the check of _clf_label_pairs can raise its own error
        SELECT __clf_key, actual, predicted, n, actual AS label, true AS truth FROM pairs
        UNION ALL
        SELECT __clf_key, actual, predicted, n, predicted, false FROM pairs
    )
    GROUP BY __clf_key, label
),
totals AS (SELECT __clf_key, sum(n) AS total FROM pairs GROUP BY ALL),
classes AS (
    SELECT __clf_key, label, __clf_ord FROM per_class WHERE labels IS NULL
    UNION ALL
    SELECT __clf_key, unnest(labels) AS label, unnest(range(1, len(labels) + 1)) AS __clf_ord
    FROM totals
    WHERE labels IS NOT NULL
)
SELECT
    __clf_key, actual, predicted, n, NULL::BIGINT AS __clf_ord,
    NULL::DOUBLE AS tp, NULL::DOUBLE AS pred, NULL::DOUBLE AS support, NULL::DOUBLE AS total
FROM pairs, checked
WHERE checked.ok
UNION ALL
SELECT
    c.__clf_key, c.label, c.label, NULL, c.__clf_ord,
    coalesce(p.tp, 0.0), coalesce(p.pred, 0.0), coalesce(p.support, 0.0), totals.total
FROM classes AS c
JOIN totals USING (__clf_key)
LEFT JOIN per_class AS p USING (__clf_key, label), checked
WHERE checked.ok;

-- (__clf_key, __clf_part, __clf_pos, the group columns, __clf_s, __clf_w) for the rows with
-- y, score and weight present. __clf_part is the window partition key (_clf_part_list):
-- sorting on a struct costs about twice as much, and the row-level windows sort every row. The
-- group columns as they are serve the GROUP BYs (_clf_keys_and). __clf_w is
-- BIGINT 1 without a weight column (window sums over integers run about twice as fast as over
-- DOUBLE), else the weight as DOUBLE. A y of another kind than pos_label (text against a
-- number) matches no row and a text score is NULL, so that no row fails on DuckDB's implicit
-- cast: the macros that read these rows raise through _clf_score_args instead (bound once per
-- call: this macro is bound up to six times per call, so its own checks stay minimal).
-- Weights are checked by _clf_score_row_check and _clf_score_groups, in the passes they make
-- anyway.
CREATE OR REPLACE MACRO _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
SELECT
    __clf_key,
    COLUMNS(_clf_part_list(group_cols)) AS __clf_part,
    __clf_pos,
    COLUMNS(_clf_keys_and(group_cols, '__clf_s')),
    COLUMNS(_clf_typed(weight_col, '__clf_w')) AS __clf_w
FROM (
    SELECT *,
        struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key,
        CASE
            WHEN _clf_is_text(typeof(__clf_yv)) = _clf_is_text(typeof(pos_label))
                THEN __clf_yv = pos_label
        END AS __clf_pos,
        CASE WHEN NOT _clf_is_text(typeof(__clf_sv)) THEN CAST(__clf_sv AS DOUBLE) END AS __clf_s,
        1::BIGINT AS __clf_w__i,
        CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w__d
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup, 1.0::DOUBLE AS __clf_one,
            COLUMNS([y]) AS __clf_yv, COLUMNS([score]) AS __clf_sv
        FROM query_table(tbl)
    )
)
WHERE __clf_pos IS NOT NULL AND __clf_s IS NOT NULL AND __clf_w__d IS NOT NULL;

-- One row (ok): TRUE, or an error when pos_label is NULL or of another kind of label than y,
-- or when the score column (role: 'score' or 'proba') holds no numbers. It reads no row (the types are those of the
-- columns), so it raises on an empty table too. The score macros materialize it once per call
-- and join it into their result.
CREATE OR REPLACE MACRO _clf_score_args(tbl, y, score, pos_label, role) AS TABLE
SELECT
    _clf_check_pos(_clf_agg_type(__clf_yv), typeof(pos_label), pos_label IS NULL, pos_label,
        _clf_role(y, 'y', _clf_agg_type(__clf_yv)), '')
    AND _clf_check_number(_clf_agg_type(__clf_sv),
        _clf_role(score, role, _clf_agg_type(__clf_sv)),
        CASE WHEN role = 'proba' THEN 'probabilities' ELSE 'scores' END) AS ok
FROM (SELECT COLUMNS([y]) AS __clf_yv, COLUMNS([score]) AS __clf_sv FROM query_table(tbl) LIMIT 0);

-- Which of two plans the score macros take, as one row (by_row). DuckDB cannot pick a plan
-- from data statistics inside a macro, so this cheap look at 65,536 rows (whichever the scan
-- yields first: the choice changes the speed, never the result) does. With few distinct scores
-- (ties): GROUP BY score, then window over the distinct scores. With mostly distinct scores
-- that GROUP BY costs as much as a sort and the window then sorts again, so one window over
-- the rows is cheaper. DuckDB skips the other plan's scan (its rows are filtered out by a
-- join with this one-row relation).
CREATE OR REPLACE MACRO _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
SELECT approx_count_distinct(__clf_s) * 2 > count(*) AS by_row
FROM (FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label) LIMIT 65536);

-- One row per window partition of the row plan (none under the GROUP BY plan): __clf_part and
-- its group key __clf_key. The row-level windows carry __clf_part only and join the key back
-- onto their results.
CREATE OR REPLACE MACRO _clf_score_keys(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
SELECT __clf_part, any_value(__clf_key) AS __clf_key
FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label),
    _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label) AS plan
WHERE plan.by_row
GROUP BY __clf_part;

-- The checks of the row plan over every row: TRUE, or an error naming the column when a score
-- is NaN or infinite or a weight NaN, infinite or negative (the weight counts are dropped
-- without a weight column). The GROUP BY plan checks its distinct scores instead, at no extra
-- cost.
CREATE OR REPLACE MACRO _clf_score_row_check(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
SELECT _clf_check_finite(
        count_if(isnan(__clf_s)),
        count_if(isinf(__clf_s)),
        score, 'score')
    AND (weight_col IS NULL OR _clf_check_weights(
        count_if(isnan(__clf_w)),
        count_if(isinf(__clf_w)),
        count_if(__clf_w < 0),
        min(__clf_w),
        printf('column %s (role weight)', _clf_quoted(weight_col)))) AS ok,
    -- the largest weight: the areas divide by it so that products of huge weights stay finite
    coalesce(nullif(CAST(max(__clf_w) AS DOUBLE), 0), 1.0) AS w_scale
FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label),
    _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label) AS plan
WHERE plan.by_row;

-- The GROUP BY plan (no rows under the row plan): one row per group and distinct score, with
-- positive and negative weight and the rows with a nonzero weight (n_live), and the group's
-- __clf_part. Raises when a score is NaN or infinite or a weight NaN, infinite or negative
-- (counted per distinct score in the same GROUP BY). Without a weight column every row weighs
-- 1 and none can be bad: the positives are counted and the negatives are the rest (the two
-- sums and the weight counts took half again as long as the whole GROUP BY); the other
-- branch's filter is a constant, dropped when the call is bound.
-- The GROUP BY runs on the raw group columns (_clf_keys_and) and packs __clf_key afterwards.
CREATE OR REPLACE MACRO _clf_score_groups(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
WITH counted AS (
    SELECT COLUMNS(_clf_keys_and(group_cols, '__clf_s')), NULL::BOOLEAN AS __clf_nogroup,
        count_if(__clf_pos) AS pos,
        count(*) - count_if(__clf_pos) AS neg,
        count(*) AS n_rows,
        count(*) AS n_live,
        0 AS w_nan, 0 AS w_inf, 0 AS w_neg, 1 AS w_lo
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label),
        _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label) AS plan
    WHERE NOT plan.by_row AND weight_col IS NULL
    GROUP BY ALL
    UNION ALL
    SELECT COLUMNS(_clf_keys_and(group_cols, '__clf_s')), NULL::BOOLEAN AS __clf_nogroup,
        sum(CASE WHEN __clf_pos THEN __clf_w ELSE 0 END) AS pos,
        sum(CASE WHEN __clf_pos THEN 0 ELSE __clf_w END) AS neg,
        count(*) AS n_rows,
        count(*) FILTER (WHERE __clf_w <> 0) AS n_live,
        count_if(isnan(__clf_w)) AS w_nan,
        count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg,
        min(__clf_w) AS w_lo
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label),
        _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label) AS plan
    WHERE NOT plan.by_row AND weight_col IS NOT NULL
    GROUP BY ALL
),
g AS MATERIALIZED (
    SELECT __clf_key, COLUMNS(_clf_part_list(group_cols)) AS __clf_part, __clf_s AS threshold,
        pos, neg, n_rows, n_live, w_nan, w_inf, w_neg, w_lo
    FROM (SELECT *, struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key FROM counted)
),
checked AS (
    SELECT _clf_check_finite(
            sum(n_rows) FILTER (WHERE isnan(threshold)),
            sum(n_rows) FILTER (WHERE isinf(threshold)),
            score, 'score')
        AND (weight_col IS NULL OR _clf_check_weights(
            sum(w_nan), sum(w_inf), sum(w_neg), min(w_lo),
            printf('column %s (role weight)', _clf_quoted(weight_col)))) AS ok
    FROM g
)
SELECT g.__clf_key, g.__clf_part, g.threshold, g.pos, g.neg, g.n_rows, g.n_live
FROM g, checked
WHERE checked.ok;

-- The five sums of _clf_score_sums (below) over one group's units, as one struct: an aggregate,
-- written once for both plans.
CREATE OR REPLACE MACRO _clf_area_sums(pos, neg, tp, fp) AS {
    'n_pos': sum(pos),
    'n_neg': sum(neg),
    'neg_tp': sum(neg * tp),
    'pos_fp': sum(pos * fp),
    'pos_prec': sum(pos * _clf_div(tp, tp + fp, 0.0))
};

-- Per group (__clf_key), the sums the areas read: n_pos and n_neg (the positive and negative
-- weight), neg_tp = sum(neg * tp), pos_fp = sum(pos * fp) (Mann-Whitney) and
-- pos_prec = sum(pos * tp / (tp + fp)) (average precision), over units that are the distinct
-- scores of a group (GROUP BY plan) or its rows (row plan), each with its positive and negative
-- weight (pos, neg) and the weight at or above its score (tp, fp; tied rows count in full,
-- whichever plan). Every row counts (zero weights too); weights are divided by the largest
-- weight (the areas are ratios, so the scale cancels, and products of huge weights stay
-- finite); without a weight column the rows keep BIGINT 1. With skip_rows the row plan gives
-- no rows (the caller has a cheaper formula for that case). DuckDB computes only the sums its
-- caller reads. The row plan's window carries __clf_part, not the struct key, and without group
-- columns no PARTITION BY (one partition sorts on one thread; the other branch's filter is a
-- constant, dropped when the call is bound); the key is joined back on the sums.
CREATE OR REPLACE MACRO _clf_score_sums(tbl, y, score, group_cols, weight_col, pos_label, skip_rows) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, score, pos_label, 'score')),
plan AS MATERIALIZED (FROM _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label)),
row_units AS (
    SELECT __clf_part, __clf_s,
        COLUMNS(_clf_typed(weight_col, '__clf_pw')) AS pos,
        COLUMNS(_clf_typed(weight_col, '__clf_nw')) AS neg
    FROM (
        SELECT r.*,
            CASE WHEN __clf_pos THEN __clf_w ELSE 0 END AS __clf_pw__i,
            CASE WHEN __clf_pos THEN 0 ELSE __clf_w END AS __clf_nw__i,
            CASE WHEN __clf_pos THEN __clf_w / c.w_scale ELSE 0.0 END AS __clf_pw__d,
            CASE WHEN __clf_pos THEN 0.0 ELSE __clf_w / c.w_scale END AS __clf_nw__d
        FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label) AS r, plan,
            _clf_score_row_check(tbl, y, score, group_cols, weight_col, pos_label) AS c, args
        WHERE plan.by_row AND c.ok AND args.ok AND NOT skip_rows
    )
),
by_row AS (
    SELECT __clf_part, pos, neg, sum(pos) OVER w_row AS tp, sum(neg) OVER w_row AS fp
    FROM row_units
    WHERE len(group_cols) > 0
    WINDOW w_row AS (
        PARTITION BY __clf_part ORDER BY __clf_s DESC
        RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
    UNION ALL
    SELECT __clf_part, pos, neg, sum(pos) OVER w_row_all, sum(neg) OVER w_row_all
    FROM row_units
    WHERE len(group_cols) = 0
    WINDOW w_row_all AS (ORDER BY __clf_s DESC RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
by_score AS (
    SELECT __clf_key, threshold,
        CAST(pos AS DOUBLE) / CASE WHEN weight_col IS NULL THEN 1.0 ELSE scale END AS pos,
        CAST(neg AS DOUBLE) / CASE WHEN weight_col IS NULL THEN 1.0 ELSE scale END AS neg
    FROM (
        SELECT *, coalesce(nullif(max(greatest(pos, neg)) OVER (), 0), 1.0) AS scale
        FROM _clf_score_groups(tbl, y, score, group_cols, weight_col, pos_label)
    )
),
score_units AS (
    SELECT __clf_key, pos, neg,
        sum(pos) OVER w_score AS tp,
        sum(neg) OVER w_score AS fp
    FROM by_score, args
    WHERE args.ok
    WINDOW w_score AS (
        PARTITION BY __clf_key ORDER BY threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
),
row_sums AS (
    SELECT __clf_part, _clf_area_sums(pos, neg, tp, fp) AS s
    FROM (
        SELECT __clf_part, CAST(pos AS DOUBLE) AS pos, CAST(neg AS DOUBLE) AS neg,
            CAST(tp AS DOUBLE) AS tp, CAST(fp AS DOUBLE) AS fp
        FROM by_row
    )
    GROUP BY __clf_part
)
SELECT __clf_key, unnest(s)
FROM (
    SELECT __clf_key, _clf_area_sums(pos, neg, tp, fp) AS s FROM score_units GROUP BY __clf_key
    UNION ALL
    SELECT k.__clf_key, r.s
    FROM row_sums AS r
    JOIN _clf_score_keys(tbl, y, score, group_cols, weight_col, pos_label) AS k
        ON r.__clf_part IS NOT DISTINCT FROM k.__clf_part
);

-- Counts at every threshold t (a distinct score with nonzero weight; the rule is score >= t):
-- tp and fp are running sums from the highest score down, prev_* and next_* their values at
-- the neighbouring thresholds (NULL at the ends, as lag and lead), n_pos and n_neg the group's
-- totals (scikit-learn's tps[-1] and fps[-1]); __clf_i numbers the thresholds from 1 (highest),
-- __clf_last marks the lowest. Rows of zero weight are left out, as scikit-learn. The row plan
-- sums over rows, keeps the last row of each run of tied scores (its running sums count the
-- whole run), then takes the neighbours over those runs. The totals are the running sums at
-- the last threshold, copied, not summed again (a second sum adds in another order: fn and tn
-- came out as +-1e-10 there, not 0).
CREATE OR REPLACE MACRO _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, score, pos_label, 'score')),
plan AS MATERIALIZED (FROM _clf_score_plan(tbl, y, score, group_cols, weight_col, pos_label)),
score_runs AS (
    SELECT __clf_key, __clf_part, threshold,
        sum(pos) OVER w_score AS tp,
        sum(neg) OVER w_score AS fp
    FROM _clf_score_groups(tbl, y, score, group_cols, weight_col, pos_label)
    WHERE n_live > 0
    WINDOW w_score AS (
        PARTITION BY __clf_part ORDER BY threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
),
row_runs AS (
    SELECT __clf_key, __clf_part, threshold, tp, fp
    FROM (
        SELECT __clf_key, __clf_part, threshold,
            sum(pos) OVER w_row AS tp,
            sum(neg) OVER w_row AS fp,
            lead(threshold) OVER w_row AS __clf_next_s
        FROM (
            SELECT __clf_key, __clf_part, __clf_s AS threshold,
                CASE WHEN __clf_pos THEN __clf_w ELSE 0 END AS pos,
                CASE WHEN __clf_pos THEN 0 ELSE __clf_w END AS neg
            FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label), plan,
                _clf_score_row_check(tbl, y, score, group_cols, weight_col, pos_label) AS c
            WHERE plan.by_row AND c.ok AND __clf_w <> 0
        )
        WINDOW w_row AS (
            PARTITION BY __clf_part ORDER BY threshold DESC
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        )
    )
    -- the last row of its run of tied scores
    WHERE __clf_next_s IS DISTINCT FROM threshold
),
steps AS (
    SELECT __clf_key, threshold, tp, fp,
        lag(tp) OVER w_run AS prev_tp,
        lag(fp) OVER w_run AS prev_fp,
        lead(tp) OVER w_run AS next_tp,
        lead(fp) OVER w_run AS next_fp,
        row_number() OVER w_run AS __clf_i,
        last_value(tp) OVER w_all AS n_pos,
        last_value(fp) OVER w_all AS n_neg
    FROM (FROM score_runs UNION ALL FROM row_runs)
    WINDOW w_run AS (PARTITION BY __clf_part ORDER BY threshold DESC),
        w_all AS (w_run ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
)
SELECT __clf_key, threshold,
    CAST(tp AS DOUBLE) AS tp,
    CAST(fp AS DOUBLE) AS fp,
    CAST(prev_tp AS DOUBLE) AS prev_tp,
    CAST(prev_fp AS DOUBLE) AS prev_fp,
    CAST(next_tp AS DOUBLE) AS next_tp,
    CAST(next_fp AS DOUBLE) AS next_fp,
    __clf_i, next_tp IS NULL AS __clf_last,
    CAST(n_pos AS DOUBLE) AS n_pos,
    CAST(n_neg AS DOUBLE) AS n_neg
FROM steps, args
WHERE args.ok;

CREATE OR REPLACE MACRO clf_confusion(
    tbl, y, yhat, group_cols := [], weight_col := NULL, labels := NULL
) AS TABLE
WITH base AS MATERIALIZED (FROM _clf_label_counts(tbl, y, yhat, group_cols, weight_col, labels, NULL, false)),
classes AS (SELECT __clf_key, actual AS label, __clf_ord FROM base WHERE __clf_ord IS NOT NULL),
pairs AS (SELECT __clf_key, actual, predicted, n FROM base WHERE __clf_ord IS NULL),
cells AS (
    SELECT
        a.__clf_key,
        a.label AS actual,
        p.label AS predicted,
        a.__clf_ord AS __clf_a,
        p.__clf_ord AS __clf_p,
        coalesce(pairs.n, 0.0) AS count__d
    FROM classes AS a
    JOIN classes AS p ON a.__clf_key = p.__clf_key
    LEFT JOIN pairs
        ON pairs.__clf_key = a.__clf_key AND pairs.actual = a.label AND pairs.predicted = p.label
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_a, __clf_p)
FROM (
    SELECT
        unnest(__clf_key), __clf_key, __clf_a, __clf_p, actual, predicted,
        COLUMNS(_clf_typed(weight_col, 'count')) AS count
    FROM (SELECT *, TRY_CAST(count__d AS BIGINT) AS count__i FROM cells)
)
ORDER BY __clf_key, __clf_a, __clf_p;

COMMENT ON MACRO TABLE clf_confusion IS
'Confusion matrix in long form: (group columns..., actual, predicted, count), every pair of classes per group, zeros included. Usage: FROM clf_confusion(''preds'', ''y'', ''yhat'', group_cols := [''model''], weight_col := NULL, labels := NULL). tbl is a table/view name (or file path), columns are names matched exactly. Classes: the sorted values seen in y or yhat per group, or labels := [...] (order and subset; rows with other classes are left out). count is BIGINT, DOUBLE with weight_col. Rows with a NULL in y, yhat or the weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), NaN, infinite or negative weights, and labels that is empty, lists a class twice or NULL, holds another kind than y, or matches no class of the data. Python twin: clfeval.confusion_matrix; scikit-learn: confusion_matrix.';

CREATE OR REPLACE MACRO clf_counts(
    tbl, y, yhat, group_cols := [], weight_col := NULL, labels := NULL
) AS TABLE
WITH classes AS (
    SELECT *,
        tp AS tp__d,
        pred - tp AS fp__d,
        support - tp AS fn__d,
        total - pred - support + tp AS tn__d
    FROM _clf_label_counts(tbl, y, yhat, group_cols, weight_col, labels, NULL, false)
    WHERE __clf_ord IS NOT NULL
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_ord)
FROM (
    SELECT
        unnest(__clf_key), __clf_key, __clf_ord, actual AS label,
        COLUMNS(_clf_typed(weight_col, 'tp')) AS tp,
        COLUMNS(_clf_typed(weight_col, 'fp')) AS fp,
        COLUMNS(_clf_typed(weight_col, 'fn')) AS fn,
        COLUMNS(_clf_typed(weight_col, 'tn')) AS tn,
        COLUMNS(_clf_typed(weight_col, 'support')) AS support
    FROM (
        SELECT *,
            TRY_CAST(tp__d AS BIGINT) AS tp__i,
            TRY_CAST(fp__d AS BIGINT) AS fp__i,
            TRY_CAST(fn__d AS BIGINT) AS fn__i,
            TRY_CAST(tn__d AS BIGINT) AS tn__i,
            support AS support__d,
            TRY_CAST(support AS BIGINT) AS support__i
        FROM classes
    )
)
ORDER BY __clf_key, __clf_ord;

COMMENT ON MACRO TABLE clf_counts IS
'One-vs-rest counts per class: (group columns..., label, tp, fp, fn, tn, support). For class c: tp = actual c and predicted c, fp = predicted c but actual other, fn = actual c but predicted other, tn = the rest, support = tp + fn. Usage: FROM clf_counts(''preds'', ''y'', ''yhat'', group_cols := [], weight_col := NULL, labels := NULL). With labels := [...] only those classes are listed (in that order) but every row counts toward tn, as scikit-learn multilabel_confusion_matrix. Counts are BIGINT, DOUBLE with weight_col. Rows with a NULL in y, yhat or the weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), NaN, infinite or negative weights, and labels that is empty, lists a class twice or NULL, holds another kind than y, or matches no class of the data. Python twin: clfeval.counts.';
