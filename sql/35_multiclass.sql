-- clfeval SQL layer, file 35: table macros over per-class score columns (multiclass AUROC,
-- top-k accuracy, top-label calibration error), and the binary lift curve and calibration
-- error. Python twin: clfeval._score (auroc with multi_class=, top_k_accuracy), clfeval._prob
-- (ece), clfeval._curves (lift_curve). Conventions: see 00_helpers.sql.
--
-- Per-class scores are a list of column names, scores := ['p_a', 'p_b', 'p_c'], with the
-- classes they score in the same order, labels := ['a', 'b', 'c'] (clfeval's score= list with
-- labels=; a Python mapping {label: column} is passed as the two lists). The names are matched
-- exactly (COLUMNS(list), never a regex); COLUMNS(list) yields the columns in table order, so
-- _clf_class_args computes once per call the permutation that puts them in `scores` order.
-- _clf_class_rows reads the rows once: the group key, the class index of y in labels
-- (__clf_c, 1-based), the scores as one DOUBLE list in labels order (__clf_v) and the weight.
-- Rows with a NULL in y, in any score column or in the weight are left out, and so are rows
-- whose y is not one of labels (as clfeval's expressions). NaN or infinite scores raise, and
-- so do probabilities outside [0, 1] and NaN, infinite or negative weights (_clf_class_check).
-- A group none of whose rows is kept gets no row.

-- The list of score column names for COLUMNS(): a list as it is; a single string fails to
-- cast (COLUMNS('text') would read it as a regular expression, never wanted here).
CREATE OR REPLACE MACRO _clf_score_list(scores) AS
    list_concat(CAST(scores AS VARCHAR[]), CAST([] AS VARCHAR[]));

-- TRUE, or an error when value (an option) is not one of the texts in allowed.
CREATE OR REPLACE MACRO _clf_check_choice(value, allowed, role, hint) AS
    CASE
        WHEN _clf_is_text(typeof(value)) AND list_contains(allowed, CAST(value AS VARCHAR)) THEN true
        ELSE error(printf('clfeval: %s = %s is not one of %s; %s', role, _clf_show(value),
            _clf_show_list(allowed), hint))
    END;

-- One row (__clf_ok, __clf_perm): TRUE, or an error on the arguments (fewer than two score
-- columns, a column listed twice, labels missing or of another length, labels of another kind
-- than y (_clf_check_labels), score columns that are not numbers); and the positions, in
-- table order, of the columns of `scores` (COLUMNS(_clf_score_list(scores)) yields them in table order). It
-- reads no row: the one row comes from a join with LIMIT 0.
CREATE OR REPLACE MACRO _clf_class_args(tbl, y, scores, labels, role) AS TABLE
SELECT
    CASE
        WHEN scores IS NULL OR len(scores) < 2 THEN error(printf(
            'clfeval: multiclass scores need at least two classes, got %s; pass one column per '
            || 'class (and labels := [...] in their order)', _clf_show_list(scores)))
        WHEN len(list_distinct(scores)) < len(scores) THEN error(printf(
            'clfeval: scores = %s lists a column more than once; list one column per class',
            _clf_show_list(scores)))
        WHEN labels IS NULL OR len(labels) <> len(scores) THEN error(printf(
            'clfeval: a list of %d %s columns needs labels := of the same length; pass '
            || 'labels := [...] in the order of the columns', len(scores), role))
        ELSE _clf_check_labels(labels, __clf_ty, _clf_role(y, 'y', __clf_ty))
    END
    AND _clf_check_number(__clf_st,
        printf('columns %s (role %s, %s)', _clf_show_list(scores), role, __clf_st),
        CASE WHEN role = 'proba' THEN 'probabilities' ELSE 'scores' END) AS __clf_ok,
    list_transform(scores, lambda _clf_c: list_position(__clf_names, _clf_c)) AS __clf_perm
FROM (
    SELECT
        typeof(__clf_yv) AS __clf_ty,
        _clf_elem_type(typeof(list_value(*COLUMNS(_clf_score_list(scores))))) AS __clf_st,
        map_keys(CAST(struct_pack(*COLUMNS(_clf_score_list(scores))) AS MAP(VARCHAR, VARCHAR))) AS __clf_names
    FROM (SELECT 1 AS __clf_one) AS __clf_o
    LEFT JOIN (SELECT COLUMNS([y]) AS __clf_yv, COLUMNS(_clf_score_list(scores)) FROM query_table(tbl) LIMIT 0)
        ON true
);

-- (__clf_key, __clf_part, __clf_c, __clf_v, __clf_w): the rows with y one of labels and no
-- NULL in a score or the weight; __clf_part as in _clf_score_rows (the one group column
-- itself, else the struct), __clf_w DOUBLE (1.0 without a weight column). Raises on the
-- arguments (_clf_class_args) when the table has a row.
CREATE OR REPLACE MACRO _clf_class_rows(tbl, y, scores, labels, group_cols, weight_col, role) AS TABLE
SELECT
    __clf_key,
    COLUMNS(CASE
        WHEN len(group_cols) <= 1 THEN _clf_group_list(group_cols)[1:1]
        ELSE ['__clf_key']
    END) AS __clf_part,
    __clf_c, __clf_v, __clf_w
FROM (
    SELECT *,
        struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_key,
        list_position(list_transform(labels, lambda _clf_l: _clf_eq(_clf_l, __clf_yv)), true)
            AS __clf_c,
        list_select(CAST(list_value(*COLUMNS(_clf_score_list(scores))) AS DOUBLE[]), __clf_perm) AS __clf_v,
        CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup, 1.0::DOUBLE AS __clf_one,
            COLUMNS([y]) AS __clf_yv
        FROM query_table(tbl)
    ), _clf_class_args(tbl, y, scores, labels, role)
    WHERE __clf_ok
)
WHERE __clf_c IS NOT NULL AND __clf_w IS NOT NULL AND list_count(__clf_v) = len(__clf_v);

-- TRUE, or an error naming the first score column (in `scores` order) that holds a NaN or
-- infinite score (role 'score') or a value outside [0, 1] (role 'proba'), or the weight column
-- when a weight is NaN, infinite or negative. bad is the aggregate first_bad over the rows,
-- n_nan... the counts of that column.
CREATE OR REPLACE MACRO _clf_class_verdict(first_bad, n_nan, n_inf, n_out, lo, hi, w_nan, w_inf, w_neg, w_lo, scores, weight_col, role) AS
    CASE
        WHEN first_bad IS NULL THEN true
        WHEN role = 'proba' THEN _clf_check_proba(n_nan, n_out, lo, hi, scores[first_bad])
        ELSE _clf_check_finite(n_nan, n_inf, scores[first_bad], role)
    END
    AND (weight_col IS NULL OR _clf_check_weights(w_nan, w_inf, w_neg, w_lo,
        printf('column %s (role weight)', _clf_quoted(weight_col))));

-- Whether a score is bad for its role (NaN or infinite; for probabilities also outside [0, 1]).
CREATE OR REPLACE MACRO _clf_bad_score(x, role) AS
    CASE WHEN role = 'proba' THEN NOT (x BETWEEN 0 AND 1) ELSE NOT isfinite(x) END;

-- TRUE, or an error when k is not a whole number from 1 to 2^31 (clfeval._options.k).
CREATE OR REPLACE MACRO _clf_check_k(k, who) AS
    CASE
        WHEN _clf_option_number(k) BETWEEN 1 AND 2147483648
            AND _clf_option_number(k) = floor(_clf_option_number(k)) THEN true
        ELSE error(printf('clfeval: %sk = %s is not an integer from 1 to 2,147,483,648; k is how '
            || 'many of the highest-scored classes count as a hit', who, _clf_show(k)))
    END;

-- TRUE, or an error when multi_class is not 'ovr' or 'ovo', or average not one of its
-- averages. The macro checks it on its rows, which the one-vs-rest branch reads for any
-- multi_class but 'ovo' (a branch filtered out by a constant would skip the check).
CREATE OR REPLACE MACRO _clf_check_multi_class(multi_class, average) AS
    CASE
        WHEN _clf_check_choice(multi_class, ['ovr', 'ovo'], 'multi_class',
                '''ovr'' is one-vs-rest, ''ovo'' is Hand & Till''s one-vs-one')
            AND _clf_check_choice(average,
                CASE WHEN multi_class = 'ovo' THEN ['macro', 'weighted']
                    ELSE ['macro', 'weighted', 'micro'] END,
                'average', '''macro'' is the plain mean over classes (pairs with ovo), '
                || '''weighted'' weights them by support (pair prevalence), ''micro'' pools the '
                || '(row, class) pairs')
            THEN true
    END;

CREATE OR REPLACE MACRO clf_auroc_multiclass(
    tbl, y, scores, labels := NULL, group_cols := [], weight_col := NULL,
    multi_class := 'ovr', average := 'macro'
) AS TABLE
WITH rows AS MATERIALIZED (
    FROM _clf_class_rows(tbl, y, scores, labels, group_cols, weight_col, 'score')
    WHERE _clf_check_multi_class(multi_class, average)
),
bad AS (
    SELECT min(list_position(list_transform(__clf_v, lambda _clf_x: _clf_bad_score(_clf_x, 'score')), true))
        FILTER (WHERE NOT isfinite(list_sum(__clf_v))) AS first_bad,
        count_if(isnan(__clf_w)) AS w_nan, count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg, min(__clf_w) AS w_lo,
        -- the largest weight: dividing by it keeps the products of huge weights finite
        coalesce(nullif(max(__clf_w), 0), 1.0) AS w_scale
    FROM rows
),
checked AS (
    SELECT _clf_class_verdict(any_value(first_bad), count_if(isnan(__clf_v[first_bad])),
            count_if(isinf(__clf_v[first_bad])), 0, NULL, NULL, any_value(w_nan),
            any_value(w_inf), any_value(w_neg), any_value(w_lo), scores, weight_col, 'score') AS ok,
        any_value(w_scale) AS w_scale
    FROM rows, bad
),
-- (row, class) pairs: one-vs-rest per class (__clf_a = class, __clf_b = 0), or all pooled
-- (micro: __clf_a = 0); one-vs-one: per ordered pair (a, b) the rows of a or b, scored by
-- column a, positive when the row is of class a (2 (K - 1) pairs per row).
pairs AS (
    SELECT __clf_key, __clf_part,
        CASE WHEN average = 'micro' THEN 0 ELSE __clf_k END AS __clf_a, 0 AS __clf_b,
        __clf_v[__clf_k] AS s,
        CASE WHEN __clf_c = __clf_k THEN __clf_w / w_scale ELSE 0.0 END AS pos,
        CASE WHEN __clf_c = __clf_k THEN 0.0 ELSE __clf_w / w_scale END AS neg
    FROM (
        SELECT *, unnest(range(1, len(labels) + 1)) AS __clf_k
        FROM rows, checked
        WHERE checked.ok AND multi_class <> 'ovo'
    )
    UNION ALL
    SELECT __clf_key, __clf_part, __clf_c, __clf_j, __clf_v[__clf_c], __clf_w / w_scale, 0.0
    FROM (
        SELECT *, unnest(list_filter(range(1, len(labels) + 1), lambda _clf_j: _clf_j <> __clf_c))
            AS __clf_j
        FROM rows, checked
        WHERE checked.ok AND multi_class = 'ovo'
    )
    UNION ALL
    SELECT __clf_key, __clf_part, __clf_j, __clf_c, __clf_v[__clf_j], 0.0, __clf_w / w_scale
    FROM (
        SELECT *, unnest(list_filter(range(1, len(labels) + 1), lambda _clf_j: _clf_j <> __clf_c))
            AS __clf_j
        FROM rows, checked
        WHERE checked.ok AND multi_class = 'ovo'
    )
),
-- Mann-Whitney per (group, a, b), as clf_auroc: tp, fp the weight at or above the score
cum AS (
    SELECT __clf_key, __clf_part, __clf_a, __clf_b, pos, neg,
        sum(pos) OVER w_s AS tp, sum(neg) OVER w_s AS fp
    FROM pairs
    WINDOW w_s AS (
        PARTITION BY __clf_part, __clf_a, __clf_b ORDER BY s DESC
        RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
),
areas AS (
    SELECT any_value(__clf_key) AS __clf_key, __clf_part, __clf_a, __clf_b,
        sum(pos) AS support, sum(pos) + sum(neg) AS n,
        _clf_div((sum(pos) * sum(neg) + sum(neg * tp) - sum(pos * fp)) / 2, sum(pos) * sum(neg), NULL)
            AS auroc
    FROM cum
    GROUP BY __clf_part, __clf_a, __clf_b
),
-- one-vs-one: the unordered pair's area is the mean of its two directed areas
units AS (
    SELECT __clf_key, __clf_part, auroc, support FROM areas
    WHERE multi_class <> 'ovo'
    UNION ALL
    SELECT any_value(__clf_key), __clf_part,
        CASE WHEN count(auroc) = 2 THEN sum(auroc) / 2 END, max(n)
    FROM areas
    WHERE multi_class = 'ovo'
    GROUP BY __clf_part, least(__clf_a, __clf_b), greatest(__clf_a, __clf_b)
),
averaged AS (
    SELECT any_value(__clf_key) AS __clf_key,
        CASE
            WHEN average = 'weighted' THEN _clf_div(
                sum(auroc * support) FILTER (WHERE auroc IS NOT NULL),
                sum(support) FILTER (WHERE auroc IS NOT NULL), NULL)
            ELSE avg(auroc)
        END AS auroc
    FROM units
    GROUP BY __clf_part
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (SELECT unnest(__clf_key), __clf_key, CAST(auroc AS DOUBLE) AS auroc FROM averaged)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_auroc_multiclass IS
'Multiclass AUROC per group: (group columns..., auroc) from one score column per class. multi_class := ''ovr'' (one-vs-rest): the binary AUROC of each class against the rest (ties counting half), averaged: ''macro'' the mean over the classes, ''weighted'' weighted by the class weight in y, ''micro'' the AUROC of all (row, class) pairs pooled. multi_class := ''ovo'' (Hand & Till): the mean over class pairs (a, b) of (AUC(a | a, b) + AUC(b | a, b)) / 2 on the rows of a or b, ''macro'' or ''weighted'' by the pair''s weight. A class (pair) without both sides is NULL and left out of the average; NULL when none is left. Usage: FROM clf_auroc_multiclass(''preds'', ''y'', [''p_a'', ''p_b'', ''p_c''], labels := [''a'', ''b'', ''c''], group_cols := [], weight_col := NULL, multi_class := ''ovr'', average := ''macro''). Equals scikit-learn roc_auc_score(multi_class=..., average=...) (ovo weighted: by pair weight). Rows with a NULL in y, a score column or the weight, or whose y is not one of labels, are left out. Errors (clfeval: ...) on fewer than two score columns, a column listed twice, labels missing, of another length, with a duplicate or NULL, or of another kind than y, score columns that are not numbers, NaN or infinite scores, NaN, infinite or negative weights, and multi_class or average out of range. Python twin: clfeval.auroc(y, {label: column}, multi_class=, average=).';

CREATE OR REPLACE MACRO clf_top_k_accuracy(
    tbl, y, scores, labels := NULL, k := 2, group_cols := [], weight_col := NULL
) AS TABLE
WITH rows AS MATERIALIZED (
    FROM _clf_class_rows(tbl, y, scores, labels, group_cols, weight_col, 'score')
    WHERE _clf_check_k(k, '')
),
bad AS (
    SELECT min(list_position(list_transform(__clf_v, lambda _clf_x: _clf_bad_score(_clf_x, 'score')), true))
        FILTER (WHERE NOT isfinite(list_sum(__clf_v))) AS first_bad,
        count_if(isnan(__clf_w)) AS w_nan, count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg, min(__clf_w) AS w_lo
    FROM rows
),
checked AS (
    SELECT _clf_class_verdict(any_value(first_bad), count_if(isnan(__clf_v[first_bad])),
            count_if(isinf(__clf_v[first_bad])), 0, NULL, NULL, any_value(w_nan),
            any_value(w_inf), any_value(w_neg), any_value(w_lo), scores, weight_col, 'score') AS ok
    FROM rows, bad
),
-- a row is a hit when fewer than k classes rank above its own: a higher score, or an equal
-- score of a class listed later (scikit-learn's tie rule)
hits AS (
    SELECT any_value(__clf_key) AS __clf_key,
        _clf_div(
            sum(__clf_w * CAST(len(list_filter(range(1, len(labels) + 1), lambda _clf_i:
                __clf_v[_clf_i] > __clf_v[__clf_c]
                OR (__clf_v[_clf_i] = __clf_v[__clf_c] AND _clf_i > __clf_c))) < k AS DOUBLE)),
            sum(__clf_w), NULL) AS top_k_accuracy
    FROM rows, checked
    WHERE checked.ok
    GROUP BY __clf_part
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (SELECT unnest(__clf_key), __clf_key, top_k_accuracy FROM hits)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_top_k_accuracy IS
'Top-k accuracy per group: (group columns..., top_k_accuracy), the (weighted) share of rows whose class is among the k highest of the per-class scores; among equal scores the class listed later ranks higher (scikit-learn top_k_accuracy_score). Usage: FROM clf_top_k_accuracy(''preds'', ''y'', [''p_a'', ''p_b'', ''p_c''], labels := [''a'', ''b'', ''c''], k := 2, group_cols := [], weight_col := NULL). NULL when the group''s weight is 0. Per-class score columns only (scikit-learn''s binary form with one score column is not offered). Rows with a NULL in y, a score column or the weight, or whose y is not one of labels, are left out. Errors (clfeval: ...) on k that is not an integer from 1 to 2^31, fewer than two score columns, a column listed twice, labels missing, of another length, with a duplicate or NULL, or of another kind than y, score columns that are not numbers, NaN or infinite scores, and NaN, infinite or negative weights. Python twin: clfeval.top_k_accuracy.';

-- ECE from (key, part, p, hit, w) rows: shared by the binary and the top-label macro.
-- expected: sum over bins of |sum w (hit - p)| / total weight; max: the largest
-- |sum w (hit - p)| / bin weight over the bins of nonzero weight.
CREATE OR REPLACE MACRO _clf_ece_value(gap, size, kind) AS
    CASE
        WHEN NOT sum(size) > 0 THEN NULL
        WHEN kind = 'max' THEN max(abs(gap) / size) FILTER (WHERE size > 0)
        ELSE sum(abs(gap)) / sum(size)
    END;

CREATE OR REPLACE MACRO clf_ece(
    tbl, y, proba, group_cols := [], weight_col := NULL, pos_label := 1, n_bins := 10,
    kind := 'expected'
) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, proba, pos_label, 'proba')),
rows AS MATERIALIZED (
    SELECT r.__clf_key, r.__clf_part, r.__clf_pos, r.__clf_s, r.__clf_w
    FROM _clf_score_rows(tbl, y, proba, group_cols, weight_col, pos_label) AS r, args
    WHERE args.ok AND _clf_checked_bins(n_bins) IS NOT NULL
        AND _clf_check_choice(kind, ['expected', 'max'], 'kind',
            '''expected'' weighs each bin by its size, ''max'' takes the worst bin')
),
checked AS (
    SELECT _clf_check_proba(count_if(isnan(__clf_s)), count_if(__clf_s < 0 OR __clf_s > 1),
            min(__clf_s), max(__clf_s), proba)
        AND (weight_col IS NULL OR _clf_check_weights(
            count_if(isnan(__clf_w)), count_if(isinf(__clf_w)), count_if(__clf_w < 0),
            min(__clf_w), printf('column %s (role weight)', _clf_quoted(weight_col)))) AS ok
    FROM rows
),
bins AS (
    SELECT any_value(__clf_key) AS __clf_key, __clf_part,
        sum(__clf_w * (CAST(__clf_pos AS DOUBLE) - __clf_s)) AS gap,
        CAST(sum(__clf_w) AS DOUBLE) AS size
    FROM rows, checked
    WHERE checked.ok
    GROUP BY __clf_part, _clf_uniform_bin(__clf_s, n_bins)
),
value AS (
    SELECT any_value(__clf_key) AS __clf_key, _clf_ece_value(gap, size, kind) AS ece
    FROM bins GROUP BY __clf_part
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key,
        COLUMNS(CASE WHEN kind = 'max' THEN ['mce'] ELSE ['ece'] END)
    FROM (SELECT __clf_key, ece, ece AS mce FROM value)
)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_ece IS
'Expected calibration error per group: (group columns..., ece), sum over uniform bins b of (n_b / n) |acc_b - conf_b|, where acc_b is the share of pos_label and conf_b the mean probability in bin b; bins [0, 1/n], (1/n, 2/n], ... as clf_calibration. kind := ''max'' gives the maximum calibration error max_b |acc_b - conf_b| over bins of nonzero weight, in a column named mce. Weights weigh rows and bins. Usage: FROM clf_ece(''preds'', ''y'', ''proba'', group_cols := [], weight_col := NULL, pos_label := 1, n_bins := 10, kind := ''expected''). NULL when the group''s weight is 0. Rows with a NULL in y, proba or the weight are left out. Errors (clfeval: ...) on pos_label of another kind than y or NULL, a proba column that holds no numbers, probabilities NaN or outside [0, 1], NaN, infinite or negative weights, n_bins not an integer from 1 to 1,000, and kind other than ''expected'' or ''max''. For per-class probabilities see clf_ece_multiclass. Python twin: clfeval.ece.';

CREATE OR REPLACE MACRO clf_ece_multiclass(
    tbl, y, scores, labels := NULL, group_cols := [], weight_col := NULL, n_bins := 10,
    kind := 'expected'
) AS TABLE
WITH rows AS MATERIALIZED (
    FROM _clf_class_rows(tbl, y, scores, labels, group_cols, weight_col, 'proba')
    WHERE _clf_checked_bins(n_bins) IS NOT NULL
        AND _clf_check_choice(kind, ['expected', 'max'], 'kind',
            '''expected'' weighs each bin by its size, ''max'' takes the worst bin')
),
bad AS (
    SELECT min(list_position(list_transform(__clf_v, lambda _clf_x: _clf_bad_score(_clf_x, 'proba')), true))
        FILTER (WHERE NOT (list_min(__clf_v) >= 0 AND list_max(__clf_v) <= 1)) AS first_bad,
        count_if(isnan(__clf_w)) AS w_nan, count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg, min(__clf_w) AS w_lo
    FROM rows
),
checked AS (
    SELECT _clf_class_verdict(any_value(first_bad), count_if(isnan(__clf_v[first_bad])), 0,
            count_if(__clf_v[first_bad] < 0 OR __clf_v[first_bad] > 1),
            min(__clf_v[first_bad]), max(__clf_v[first_bad]), any_value(w_nan),
            any_value(w_inf), any_value(w_neg), any_value(w_lo), scores, weight_col, 'proba') AS ok
    FROM rows, bad
),
-- the top label: the largest probability, its class the first listed that has it
tops AS (
    SELECT __clf_key, __clf_part, __clf_w, list_max(__clf_v) AS p,
        list_position(__clf_v, list_max(__clf_v)) = __clf_c AS hit
    FROM rows, checked
    WHERE checked.ok
),
bins AS (
    SELECT any_value(__clf_key) AS __clf_key, __clf_part,
        sum(__clf_w * (CAST(hit AS DOUBLE) - p)) AS gap, sum(__clf_w) AS size
    FROM tops
    GROUP BY __clf_part, _clf_uniform_bin(p, n_bins)
),
value AS (
    SELECT any_value(__clf_key) AS __clf_key, _clf_ece_value(gap, size, kind) AS ece
    FROM bins GROUP BY __clf_part
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key,
        COLUMNS(CASE WHEN kind = 'max' THEN ['mce'] ELSE ['ece'] END)
    FROM (SELECT __clf_key, ece, ece AS mce FROM value)
)
ORDER BY __clf_key;

COMMENT ON MACRO TABLE clf_ece_multiclass IS
'Top-label expected calibration error per group (Guo et al. 2017, as torchmetrics): (group columns..., ece) from one probability column per class: p is the largest probability of the row and acc_b the share of rows whose class has it (ties: the first class listed), over uniform bins of p as clf_ece; kind := ''max'' gives the maximum calibration error in a column named mce. Usage: FROM clf_ece_multiclass(''preds'', ''y'', [''p_a'', ''p_b'', ''p_c''], labels := [''a'', ''b'', ''c''], group_cols := [], weight_col := NULL, n_bins := 10, kind := ''expected''). NULL when the group''s weight is 0. Rows are not checked to sum to 1. Rows with a NULL in y, a probability column or the weight, or whose y is not one of labels, are left out. Errors (clfeval: ...) on fewer than two columns, a column listed twice, labels missing, of another length, with a duplicate or NULL, or of another kind than y, columns that are not numbers, probabilities NaN or outside [0, 1], NaN, infinite or negative weights, n_bins not an integer from 1 to 1,000, and kind other than ''expected'' or ''max''. Python twin: clfeval.ece(y, {label: column}).';

CREATE OR REPLACE MACRO clf_lift(
    tbl, y, score, group_cols := [], weight_col := NULL, pos_label := 1
) AS TABLE
WITH counts AS (FROM _clf_score_counts(tbl, y, score, group_cols, weight_col, pos_label))
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_i)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_i,
        _clf_div(tp + fp, n_pos + n_neg, NULL) AS fraction_targeted,
        _clf_div(_clf_div(tp, n_pos, NULL), _clf_div(tp + fp, n_pos + n_neg, NULL), NULL) AS lift
    FROM counts
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_i;

COMMENT ON MACRO TABLE clf_lift IS
'Lift curve: (group columns..., fraction_targeted, lift). Targeting the rows with score >= t, fraction_targeted is their share of all rows (of the total weight) and lift = gain / fraction_targeted, how many times more positives they hold than a random pick of the same size; one point per distinct score, highest first, ending at lift 1 (the gain curve''s origin, 0 / 0, is left out: clf_gain has it). Usage: FROM clf_lift(''preds'', ''y'', ''score'', group_cols := [], weight_col := NULL, pos_label := 1). lift is NULL when the group has no positive. NaN or infinite scores raise. Rows with a NULL in y, score or the weight are left out, and rows of zero weight make no point. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a score column that holds no numbers, and NaN, infinite or negative weights. Python twin: clfeval.lift_curve.';

-- Counts at every threshold of every class (one-vs-rest), as _clf_score_counts for one score
-- column: one row per group, class (__clf_k, its position in labels) and distinct score of
-- that class's column, with tp, fp from the highest score down, their neighbours (prev_*,
-- next_*: NULL at the ends), __clf_i numbering the thresholds from 1, __clf_last marking the
-- lowest, and the totals n_pos, n_neg. A score whose rows all weigh 0 makes no threshold.
-- Raises as clf_auroc_multiclass on the arguments, scores and weights.
CREATE OR REPLACE MACRO _clf_class_counts(tbl, y, scores, labels, group_cols, weight_col) AS TABLE
WITH rows AS MATERIALIZED (
    FROM _clf_class_rows(tbl, y, scores, labels, group_cols, weight_col, 'score')
),
bad AS (
    SELECT min(list_position(list_transform(__clf_v, lambda _clf_x: _clf_bad_score(_clf_x, 'score')), true))
        FILTER (WHERE NOT isfinite(list_sum(__clf_v))) AS first_bad,
        count_if(isnan(__clf_w)) AS w_nan, count_if(isinf(__clf_w)) AS w_inf,
        count_if(__clf_w < 0) AS w_neg, min(__clf_w) AS w_lo
    FROM rows
),
checked AS (
    SELECT _clf_class_verdict(any_value(first_bad), count_if(isnan(__clf_v[first_bad])),
            count_if(isinf(__clf_v[first_bad])), 0, NULL, NULL, any_value(w_nan),
            any_value(w_inf), any_value(w_neg), any_value(w_lo), scores, weight_col, 'score') AS ok
    FROM rows, bad
),
by_score AS (
    SELECT any_value(__clf_key) AS __clf_key, __clf_part, __clf_k, __clf_v[__clf_k] AS threshold,
        sum(CASE WHEN __clf_c = __clf_k THEN __clf_w ELSE 0.0 END) AS pos,
        sum(CASE WHEN __clf_c = __clf_k THEN 0.0 ELSE __clf_w END) AS neg,
        count(*) FILTER (WHERE __clf_w <> 0) AS n_live
    FROM (
        SELECT *, unnest(range(1, len(labels) + 1)) AS __clf_k
        FROM rows, checked
        WHERE checked.ok
    )
    GROUP BY __clf_part, __clf_k, threshold
),
running AS (
    SELECT __clf_key, __clf_part, __clf_k, threshold,
        sum(pos) OVER w_score AS tp,
        sum(neg) OVER w_score AS fp
    FROM by_score
    WHERE n_live > 0
    WINDOW w_score AS (
        PARTITION BY __clf_part, __clf_k ORDER BY threshold DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    )
)
-- the neighbours by lag and lead; the totals are the running sums at the last threshold,
-- copied (a second sum adds in another order, and tpr, fpr then missed 1 by 1e-16)
SELECT __clf_key, __clf_k, threshold, tp, fp,
    lag(tp) OVER w_step AS prev_tp,
    lag(fp) OVER w_step AS prev_fp,
    lead(tp) OVER w_step AS next_tp,
    lead(fp) OVER w_step AS next_fp,
    row_number() OVER w_step AS __clf_i,
    lead(tp) OVER w_step IS NULL AS __clf_last,
    last_value(tp) OVER w_all AS n_pos,
    last_value(fp) OVER w_all AS n_neg
FROM running
WINDOW w_step AS (PARTITION BY __clf_part, __clf_k ORDER BY threshold DESC),
    w_all AS (w_step ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING);

CREATE OR REPLACE MACRO clf_roc_curve_multiclass(
    tbl, y, scores, labels := NULL, group_cols := [], weight_col := NULL,
    drop_intermediate := true
) AS TABLE
WITH counts AS (FROM _clf_class_counts(tbl, y, scores, labels, group_cols, weight_col)),
points AS (
    SELECT __clf_key, __clf_k, __clf_i, threshold, tp, fp, n_pos, n_neg
    FROM counts
    WHERE NOT drop_intermediate OR __clf_i = 1 OR __clf_last
        OR (next_fp - fp) - (fp - prev_fp) <> 0 OR (next_tp - tp) - (tp - prev_tp) <> 0
    UNION ALL
    SELECT __clf_key, __clf_k, 0, 'inf'::DOUBLE, 0.0::DOUBLE, 0.0::DOUBLE, n_pos, n_neg
    FROM counts
    WHERE __clf_i = 1
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_k, __clf_i)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_k, __clf_i, labels[__clf_k] AS label, threshold,
        _clf_div(fp, n_neg, NULL) AS fpr,
        _clf_div(tp, n_pos, NULL) AS tpr
    FROM points
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_k, __clf_i;

COMMENT ON MACRO TABLE clf_roc_curve_multiclass IS
'One-vs-rest ROC curves from one score column per class: (group columns..., label, threshold, fpr, tpr), for each class in labels order the points of clf_roc_curve for that class against the rest, scored by its column. Usage: FROM clf_roc_curve_multiclass(''preds'', ''y'', [''p_a'', ''p_b''], labels := [''a'', ''b''], group_cols := [], weight_col := NULL, drop_intermediate := true). fpr (tpr) is NULL when the class has no negative (positive) in the group. Rows with a NULL in y, a score column or the weight, or whose y is not one of labels, are left out (clfeval.roc_curve raises on such a y instead). Errors (clfeval: ...) on fewer than two score columns, a column listed twice, labels missing, of another length, with a duplicate or NULL, or of another kind than y, score columns that are not numbers, NaN or infinite scores, and NaN, infinite or negative weights. Python twin: clfeval.roc_curve(df, y, {label: column}).';

CREATE OR REPLACE MACRO clf_pr_curve_multiclass(
    tbl, y, scores, labels := NULL, group_cols := [], weight_col := NULL,
    drop_intermediate := false
) AS TABLE
WITH counts AS (FROM _clf_class_counts(tbl, y, scores, labels, group_cols, weight_col)),
points AS (
    SELECT __clf_key, __clf_k, -__clf_i AS __clf_o, threshold,
        _clf_div(tp, tp + fp, 0.0) AS precision,
        _clf_div(tp, n_pos, 1.0) AS recall
    FROM counts
    WHERE NOT drop_intermediate OR __clf_i = 1 OR __clf_last OR tp <> prev_tp OR next_tp <> tp
    UNION ALL
    SELECT __clf_key, __clf_k, 1, NULL::DOUBLE, 1.0::DOUBLE, 0.0::DOUBLE FROM counts WHERE __clf_i = 1
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key, __clf_k, __clf_o)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_k, __clf_o, labels[__clf_k] AS label, threshold,
        precision, recall
    FROM points
)
ORDER BY COLUMNS(_clf_group_list(group_cols)), __clf_k, __clf_o;

COMMENT ON MACRO TABLE clf_pr_curve_multiclass IS
'One-vs-rest precision-recall curves from one score column per class: (group columns..., label, threshold, precision, recall), for each class in labels order the points of clf_pr_curve for that class against the rest. Usage: FROM clf_pr_curve_multiclass(''preds'', ''y'', [''p_a'', ''p_b''], labels := [''a'', ''b''], group_cols := [], weight_col := NULL, drop_intermediate := false). As scikit-learn, recall is 1 at every threshold when the class has no positive in the group. Rows with a NULL in y, a score column or the weight, or whose y is not one of labels, are left out (clfeval.pr_curve raises on such a y instead). Errors (clfeval: ...) on fewer than two score columns, a column listed twice, labels missing, of another length, with a duplicate or NULL, or of another kind than y, score columns that are not numbers, NaN or infinite scores, and NaN, infinite or negative weights. Python twin: clfeval.pr_curve(df, y, {label: column}).';
