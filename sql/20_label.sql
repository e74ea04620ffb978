-- clfeval SQL layer, file 20: label metrics, the aggregate macros.
-- Python twin: clfeval._label (accuracy ... prevalence); the table macro clf_metrics is in
-- 25_metrics.sql. Conventions: see 00_helpers.sql.
--
-- The aggregate macros compose with the caller's own GROUP BY:
--   SELECT model, clf_precision(label, pred, pos_label := 1) FROM preds GROUP BY model;
-- Optional named arguments: pos_label := 1, zero_division := 0.0 (also 1.0 or NULL), weight :=
-- NULL (an expression giving a non-negative row weight), and on the ratio macros average :=
-- 'binary' (class pos_label against the rest; raises on more than two classes) or 'micro',
-- 'macro', 'weighted' (over the sorted classes of y and yhat in the group, or labels := [...]),
-- as the Polars expressions. clf_mcc, clf_balanced_accuracy (adjusted := false) and
-- clf_cohen_kappa (weights := NULL | 'linear' | 'quadratic', labels := [...]) are multiclass,
-- from each group's confusion matrix (see their section), and take no pos_label (a given one
-- raises: for two classes their value does not depend on it).
-- Arguments are expressions, so quote identifiers yourself ("my col"). A row with a NULL in y,
-- yhat or the weight is left out.
--
-- Every macro raises (through _clf_agg_guard, 00_helpers.sql), also on no rows: y and yhat of
-- different kinds of label (text never equals a number), pos_label of another kind than y or
-- the NULL literal, a weight with NaN, infinite or negative values (counted over every row with
-- a weight), zero_division other than 0, 1 or NULL, beta that is not a number >= 0, kappa's
-- weights other than NULL, 'linear' or 'quadratic', labels empty, with a duplicate or NULL.

-- --- the averaged forms of the aggregate macros -------------------------------------------
-- average := 'micro' | 'macro' | 'weighted' gather the group's rows into one list (_clf_rows)
-- and compute per-class
-- counts over the sorted union of the classes of y and yhat (or labels := [...], in its order)
-- with list lambdas. Every lambda parameter is named _clf_*: DuckDB would read t.p in a lambda
-- as column p of a caller's table named t.

-- A label as a key of one type whatever the label types: numbers as DOUBLE (_clf_n), text as
-- VARCHAR (_clf_s), so y, yhat and labels lists merge and sort without a cast error (text never
-- equals a number: the guard raises on that first). Numbers sort as numbers, text by code point.
CREATE OR REPLACE MACRO _clf_key(v) AS
    struct_pack(
        _clf_n := CASE WHEN NOT _clf_is_text(typeof(v)) THEN TRY_CAST(v AS DOUBLE) END,
        _clf_s := CASE WHEN _clf_is_text(typeof(v)) THEN CAST(v AS VARCHAR) END);

-- The group's rows with a y, a yhat and a weight (1.0 without one): keys and weight.
CREATE OR REPLACE MACRO _clf_rows(y, yhat, weight) AS
    coalesce(
        list(struct_pack(_clf_y := _clf_key(y), _clf_p := _clf_key(yhat), _clf_w := _clf_weight(weight)))
            FILTER (WHERE y IS NOT NULL AND yhat IS NOT NULL AND _clf_weight(weight) IS NOT NULL),
        []);

-- The sorted union of the classes of y and yhat in the rows r (from _clf_rows).
CREATE OR REPLACE MACRO _clf_row_classes(r) AS
    list_sort(list_distinct(list_concat(
        list_transform(r, lambda _clf_x: _clf_x._clf_y),
        list_transform(r, lambda _clf_x: _clf_x._clf_p))));

-- The classes to average over: labels (keys, in its order) or the sorted union of the data.
CREATE OR REPLACE MACRO _clf_classes(r, labels) AS
    coalesce(list_transform(labels, lambda _clf_v: _clf_key(_clf_v)), _clf_row_classes(r));

-- Total weight of the rows of r that count for class key k as part ('tp': y and yhat are k,
-- 'pred': yhat is k, 'support': y is k).
CREATE OR REPLACE MACRO _clf_row_sum(r, k, part) AS
    coalesce(list_sum(list_transform(
        list_filter(r, lambda _clf_x: CASE part
            WHEN 'tp' THEN _clf_x._clf_y IS NOT DISTINCT FROM k AND _clf_x._clf_p IS NOT DISTINCT FROM k
            WHEN 'pred' THEN _clf_x._clf_p IS NOT DISTINCT FROM k
            ELSE _clf_x._clf_y IS NOT DISTINCT FROM k
        END),
        lambda _clf_x: _clf_x._clf_w)), 0.0::DOUBLE);

-- Per class of the list classes: tp, pred (= tp + fp) and support (= tp + fn) over the rows r.
CREATE OR REPLACE MACRO _clf_per_class(r, classes) AS
    list_transform(classes, lambda _clf_k: struct_pack(
        tp := _clf_row_sum(r, _clf_k, 'tp'),
        pred := _clf_row_sum(r, _clf_k, 'pred'),
        support := _clf_row_sum(r, _clf_k, 'support')));

-- The ratio named metric from one class's counts (tp, pred, support) and the row total, as the
-- registry's formulas (clfeval._metrics); beta for 'fbeta' (inf: recall), 1 for 'f1'.
CREATE OR REPLACE MACRO _clf_ratio_of(metric, beta, tp, pred, support, total, zd) AS
    CASE metric
        WHEN 'precision' THEN _clf_div(tp, pred, zd)
        WHEN 'recall' THEN _clf_div(tp, support, zd)
        WHEN 'specificity' THEN _clf_div(total - pred - support + tp,
            (total - pred - support + tp) + (pred - tp), zd)
        WHEN 'npv' THEN _clf_div(total - pred - support + tp,
            (total - pred - support + tp) + (support - tp), zd)
        WHEN 'fpr' THEN _clf_div(pred - tp, (pred - tp) + (total - pred - support + tp), zd)
        WHEN 'fnr' THEN _clf_div(support - tp, (support - tp) + tp, zd)
        WHEN 'jaccard' THEN _clf_div(tp, support + pred - tp, zd)
        WHEN 'fbeta' THEN CASE
            WHEN isinf(CAST(beta AS DOUBLE)) THEN _clf_div(tp, support, zd)
            ELSE _clf_div((1 + CAST(beta AS DOUBLE) * CAST(beta AS DOUBLE)) * tp,
                CAST(beta AS DOUBLE) * CAST(beta AS DOUBLE) * support + pred, zd)
        END
    END;

-- The ratio metric averaged over the classes (average 'micro', 'macro' or 'weighted'), as
-- clfeval._label.average_ratio: micro pools tp, fp, fn and tn; macro is the mean leaving out
-- NULL ratios; weighted weighs by support leaving out NULLs, the plain mean when the kept
-- support is 0.
CREATE OR REPLACE MACRO _clf_average_of(metric, beta, y, yhat, weight, labels, average, zd) AS
    _clf_let(_clf_rows(y, yhat, weight), lambda _clf_r: _clf_let(
        struct_pack(
            k := _clf_per_class(_clf_r, _clf_classes(_clf_r, labels)),
            total := coalesce(list_sum(list_transform(_clf_r, lambda _clf_x: _clf_x._clf_w)), 0.0::DOUBLE)),
        lambda _clf_c: _clf_let(
            list_transform(_clf_c.k, lambda _clf_q: struct_pack(
                v := _clf_ratio_of(metric, beta, _clf_q.tp, _clf_q.pred, _clf_q.support, _clf_c.total, zd),
                s := _clf_q.support,
                tn := _clf_c.total - _clf_q.pred - _clf_q.support + _clf_q.tp)),
            lambda _clf_v: CASE CAST(average AS VARCHAR)
                WHEN 'micro' THEN _clf_let(
                    struct_pack(
                        tp := coalesce(list_sum(list_transform(_clf_c.k, lambda _clf_q: _clf_q.tp)), 0.0),
                        pred := coalesce(list_sum(list_transform(_clf_c.k, lambda _clf_q: _clf_q.pred)), 0.0),
                        support := coalesce(list_sum(list_transform(_clf_c.k, lambda _clf_q: _clf_q.support)), 0.0),
                        tn := coalesce(list_sum(list_transform(_clf_v, lambda _clf_q: _clf_q.tn)), 0.0)),
                    -- total chosen so that total - pred - support + tp is the summed tn
                    lambda _clf_u: _clf_ratio_of(metric, beta, _clf_u.tp, _clf_u.pred, _clf_u.support,
                        _clf_u.tn + _clf_u.pred + _clf_u.support - _clf_u.tp, zd))
                WHEN 'macro' THEN list_avg(list_transform(_clf_v, lambda _clf_q: _clf_q.v))
                WHEN 'weighted' THEN CASE
                    WHEN coalesce(list_sum(list_transform(
                            list_filter(_clf_v, lambda _clf_q: _clf_q.v IS NOT NULL),
                            lambda _clf_q: _clf_q.s)), 0.0) = 0
                        THEN list_avg(list_transform(_clf_v, lambda _clf_q: _clf_q.v))
                    ELSE coalesce(list_sum(list_transform(_clf_v, lambda _clf_q: _clf_q.v * _clf_q.s)), 0.0)
                        / list_sum(list_transform(
                            list_filter(_clf_v, lambda _clf_q: _clf_q.v IS NOT NULL),
                            lambda _clf_q: _clf_q.s))
                END
            END)));

-- The number of classes in y and yhat of the group (rows with a NULL in y, yhat or weight
-- left out), for the check of average := 'binary'.
CREATE OR REPLACE MACRO _clf_n_classes(y, yhat, weight) AS
    len(list_distinct(list_concat(
        coalesce(list(DISTINCT _clf_key(y))
            FILTER (WHERE y IS NOT NULL AND yhat IS NOT NULL AND _clf_weight(weight) IS NOT NULL), []),
        coalesce(list(DISTINCT _clf_key(yhat))
            FILTER (WHERE y IS NOT NULL AND yhat IS NOT NULL AND _clf_weight(weight) IS NOT NULL), []))));

-- TRUE, or an error when average is not 'binary', 'micro', 'macro' or 'weighted'.
CREATE OR REPLACE MACRO _clf_check_average(average, who) AS
    CASE
        WHEN CAST(average AS VARCHAR) IN ('binary', 'micro', 'macro', 'weighted') THEN true
        ELSE error(printf(
            'clfeval: %s: average = %s is not one of ''binary'', ''micro'', ''macro'', ''weighted''',
            who, _clf_show(average)))
    END;

-- value (the binary one under average := 'binary', else averaged), with every check of a ratio
-- macro: average, zero_division, labels; then those of _clf_agg_guard (pos_label only under
-- 'binary'); then, under 'binary', at most two classes in the group.
CREATE OR REPLACE MACRO _clf_avg_guard(bin_value, avg_value, y, yhat, pos_label, zero_division, weight, average, labels, who) AS
    CASE
        WHEN _clf_check_average(average, who)
            AND _clf_check_zero_division(zero_division, who || ': ')
            AND _clf_check_labels(labels, _clf_agg_type(y), printf('%s: y (%s)', who, _clf_agg_type(y)))
            THEN _clf_agg_guard(
                CASE
                    WHEN CAST(average AS VARCHAR) <> 'binary' THEN avg_value
                    WHEN _clf_n_classes(y, yhat, weight) > 2 THEN error(printf(
                        'clfeval: %s: y and yhat hold %d classes but average = ''binary''; '
                        || 'choose average := ''macro'', ''micro'' or ''weighted''',
                        who, _clf_n_classes(y, yhat, weight)))
                    ELSE bin_value
                END,
                y, yhat, pos_label, CAST(average AS VARCHAR) = 'binary', weight, who)
    END;

CREATE OR REPLACE MACRO clf_accuracy(y, yhat, weight := NULL) AS
    _clf_agg_guard(
        _clf_div(
            _clf_sum(_clf_eq(y, yhat), weight),
            _clf_sum(y IS NOT NULL AND yhat IS NOT NULL, weight),
            NULL),
        y, yhat, NULL, false, weight, 'clf_accuracy');

COMMENT ON MACRO clf_accuracy IS
'Accuracy: the (weighted) share of rows with y = yhat. Aggregate macro: clf_accuracy(y, yhat, weight := NULL). NULL when no row is left. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number) and a NaN, infinite or negative weight. Python twin: clfeval.accuracy; scikit-learn: accuracy_score.';

CREATE OR REPLACE MACRO clf_precision(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_tp(y, yhat, pos_label, weight),
            _clf_tp(y, yhat, pos_label, weight) + _clf_fp(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('precision', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_precision');

COMMENT ON MACRO clf_precision IS
'Precision: tp / (tp + fp) for the class pos_label. Aggregate macro: clf_precision(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no predicted positive the result is zero_division (0.0, 1.0 or NULL). Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.precision; scikit-learn: precision_score.';

CREATE OR REPLACE MACRO clf_recall(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_tp(y, yhat, pos_label, weight),
            _clf_tp(y, yhat, pos_label, weight) + _clf_fn(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('recall', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_recall');

COMMENT ON MACRO clf_recall IS
'Recall (sensitivity, TPR): tp / (tp + fn) for the class pos_label. Aggregate macro: clf_recall(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual positive the result is zero_division (0.0, 1.0 or NULL). Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.recall; scikit-learn: recall_score.';

-- scikit-learn's form: (1 + b^2) tp / (b^2 (tp + fn) + (tp + fp)); b = inf gives recall.
CREATE OR REPLACE MACRO clf_fbeta(y, yhat, beta, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    CASE WHEN _clf_check_beta(beta, 'clf_fbeta: ') THEN _clf_avg_guard(
            CASE
                WHEN isinf(CAST(beta AS DOUBLE)) THEN _clf_div(
                    _clf_tp(y, yhat, pos_label, weight),
                    _clf_tp(y, yhat, pos_label, weight) + _clf_fn(y, yhat, pos_label, weight),
                    zero_division)
                ELSE _clf_div(
                    (1 + CAST(beta AS DOUBLE) * CAST(beta AS DOUBLE)) * _clf_tp(y, yhat, pos_label, weight),
                    CAST(beta AS DOUBLE) * CAST(beta AS DOUBLE)
                        * (_clf_tp(y, yhat, pos_label, weight) + _clf_fn(y, yhat, pos_label, weight))
                        + (_clf_tp(y, yhat, pos_label, weight) + _clf_fp(y, yhat, pos_label, weight)),
                    zero_division)
            END,
            _clf_average_of('fbeta', beta, y, yhat, weight, labels, average, zero_division),
            y, yhat, pos_label, zero_division, weight, average, labels, 'clf_fbeta')
    END;

COMMENT ON MACRO clf_fbeta IS
'F-beta: (1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp) for the class pos_label; beta > 1 favours recall. Aggregate macro: clf_fbeta(y, yhat, beta, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual and no predicted positive the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on beta that is not a number >= 0, y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.fbeta; scikit-learn: fbeta_score.';

CREATE OR REPLACE MACRO clf_f1(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            2 * _clf_tp(y, yhat, pos_label, weight),
            (_clf_tp(y, yhat, pos_label, weight) + _clf_fn(y, yhat, pos_label, weight))
                + (_clf_tp(y, yhat, pos_label, weight) + _clf_fp(y, yhat, pos_label, weight)),
            zero_division),
        _clf_average_of('fbeta', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_f1');

COMMENT ON MACRO clf_f1 IS
'F1: 2 tp / (2 tp + fp + fn) for the class pos_label, the harmonic mean of precision and recall. Aggregate macro: clf_f1(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual and no predicted positive the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.f1; scikit-learn: f1_score.';

CREATE OR REPLACE MACRO clf_specificity(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_tn(y, yhat, pos_label, weight),
            _clf_tn(y, yhat, pos_label, weight) + _clf_fp(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('specificity', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_specificity');

COMMENT ON MACRO clf_specificity IS
'Specificity (TNR): tn / (tn + fp), negatives being every class other than pos_label. Aggregate macro: clf_specificity(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual negative the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.specificity.';

CREATE OR REPLACE MACRO clf_npv(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_tn(y, yhat, pos_label, weight),
            _clf_tn(y, yhat, pos_label, weight) + _clf_fn(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('npv', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_npv');

COMMENT ON MACRO clf_npv IS
'Negative predictive value: tn / (tn + fn). Aggregate macro: clf_npv(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no predicted negative the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.npv.';

CREATE OR REPLACE MACRO clf_fpr(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_fp(y, yhat, pos_label, weight),
            _clf_fp(y, yhat, pos_label, weight) + _clf_tn(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('fpr', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_fpr');

COMMENT ON MACRO clf_fpr IS
'False positive rate: fp / (fp + tn). Aggregate macro: clf_fpr(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual negative the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.fpr.';

CREATE OR REPLACE MACRO clf_fnr(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_fn(y, yhat, pos_label, weight),
            _clf_fn(y, yhat, pos_label, weight) + _clf_tp(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('fnr', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_fnr');

COMMENT ON MACRO clf_fnr IS
'False negative rate: fn / (fn + tp). Aggregate macro: clf_fnr(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual positive the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.fnr.';

CREATE OR REPLACE MACRO clf_jaccard(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL,
    average := 'binary', labels := NULL) AS
    _clf_avg_guard(
        _clf_div(
            _clf_tp(y, yhat, pos_label, weight),
            _clf_tp(y, yhat, pos_label, weight) + _clf_fp(y, yhat, pos_label, weight)
                + _clf_fn(y, yhat, pos_label, weight),
            zero_division),
        _clf_average_of('jaccard', 1.0, y, yhat, weight, labels, average, zero_division),
        y, yhat, pos_label, zero_division, weight, average, labels, 'clf_jaccard');

COMMENT ON MACRO clf_jaccard IS
'Jaccard index: tp / (tp + fp + fn) for the class pos_label. Aggregate macro: clf_jaccard(y, yhat, pos_label := 1, zero_division := 0.0, weight := NULL, average := ''binary'', labels := NULL). average := ''micro'' pools the per-class counts, ''macro'' is their mean leaving out NULL ratios, ''weighted'' weighs by support (leaving out NULLs; the plain mean when that support is 0), over the sorted classes of y and yhat in the group or labels := [...] (classes and order, as scikit-learn''s labels=); pos_label is used (and checked) only under the default ''binary'', which raises on more than two classes. With no actual and no predicted positive the result is zero_division. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL, a NaN, infinite or negative weight and zero_division other than 0, 1 or NULL. Python twin: clfeval.jaccard; scikit-learn: jaccard_score.';

-- --- clf_mcc, clf_balanced_accuracy, clf_cohen_kappa: multiclass, from the confusion matrix ---
-- Each group's (weighted) confusion matrix is a short list with one entry per distinct pair of
-- classes (at most k^2), and the three metrics are list lambdas over it. Without a weight one
-- hash aggregate, histogram of the (y, yhat) pairs, is the whole matrix. With a weight (DuckDB
-- has no weighted histogram) the same histogram gives the distinct pairs, and each pair's total
-- weight is one dot product of the weights of its part of the matrix (diagonal, below, above)
-- with the indicator of its pair, found by a 64-bit hash of (y, yhat) (a collision of two
-- pairs of a group raises); a part with one pair is a plain sum. The branch is chosen on
-- typeof(weight), a constant, so an unweighted call computes the histogram only.

-- The rows counted: y, yhat and the weight present.
CREATE OR REPLACE MACRO _clf_pair_ok(y, yhat, weight) AS
    y IS NOT NULL AND yhat IS NOT NULL AND _clf_weight(weight) IS NOT NULL;

-- a < b as text or as DOUBLE (binds for any two label types; the branch is folded when bound).
-- Only a split of the pairs: it need not be the class order, only a function of the values.
CREATE OR REPLACE MACRO _clf_lt(a, b) AS
    CASE
        WHEN _clf_is_text(typeof(a)) THEN CAST(a AS VARCHAR) < CAST(b AS VARCHAR)
        ELSE TRY_CAST(a AS DOUBLE) < TRY_CAST(b AS DOUBLE)
    END;

-- The part of the matrix an entry (y, yhat) falls in: 0 on the diagonal, 1 below (y < yhat),
-- 2 otherwise.
CREATE OR REPLACE MACRO _clf_part(a, b) AS
    CASE WHEN _clf_eq(a, b) THEN 0 WHEN _clf_lt(a, b) THEN 1 ELSE 2 END;

-- The weights and pair hashes of the rows counted in one part of the matrix.
CREATE OR REPLACE MACRO _clf_part_rows(y, yhat, weight, part) AS
    struct_pack(
        w := coalesce(list(CAST(weight AS DOUBLE))
            FILTER (WHERE _clf_pair_ok(y, yhat, weight) AND _clf_part(y, yhat) = part), []),
        h := coalesce(list(hash(y, yhat))
            FILTER (WHERE _clf_pair_ok(y, yhat, weight) AND _clf_part(y, yhat) = part), []));

-- The group's confusion matrix: a list of struct(_clf_y, _clf_p, _clf_w), the keys (_clf_key)
-- of a pair of classes and its total weight (its row count without a weight), in no order.
-- Weighted, the rows are split in three lists (diagonal, below, above), so that a pair's dot
-- product runs over its own part only, and a part holding one pair (each off-diagonal part
-- with two classes) is a plain sum.
CREATE OR REPLACE MACRO _clf_matrix(y, yhat, weight) AS
    CASE
        WHEN typeof([min(weight)]) = '"NULL"[]' THEN list_transform(
            map_entries(coalesce(
                histogram(struct_pack(_clf_y := y, _clf_p := yhat))
                    FILTER (WHERE y IS NOT NULL AND yhat IS NOT NULL),
                MAP())),
            lambda _clf_e: struct_pack(
                _clf_y := _clf_key(_clf_e.key._clf_y), _clf_p := _clf_key(_clf_e.key._clf_p),
                _clf_w := CAST(_clf_e.value AS DOUBLE)))
        ELSE _clf_let(
            struct_pack(
                h := list_transform(
                    coalesce(map_keys(histogram(struct_pack(_clf_y := y, _clf_p := yhat))
                        FILTER (WHERE _clf_pair_ok(y, yhat, weight))), []),
                    lambda _clf_k: struct_pack(k := _clf_k,
                        part := _clf_part(_clf_k._clf_y, _clf_k._clf_p),
                        hash := hash(_clf_k._clf_y, _clf_k._clf_p))),
                d := _clf_part_rows(y, yhat, weight, 0),
                l := _clf_part_rows(y, yhat, weight, 1),
                u := _clf_part_rows(y, yhat, weight, 2)),
            lambda _clf_a: CASE
                WHEN len(list_distinct(list_transform(_clf_a.h, lambda _clf_k: _clf_k.hash)))
                        < len(_clf_a.h)
                    THEN error('clfeval: two pairs of classes of a group have one hash; '
                        || 'cast y and yhat to other types')
                ELSE list_transform(_clf_a.h, lambda _clf_k: struct_pack(
                    _clf_y := _clf_key(_clf_k.k._clf_y), _clf_p := _clf_key(_clf_k.k._clf_p),
                    _clf_w := CASE
                        WHEN len(list_filter(_clf_a.h, lambda _clf_o: _clf_o.part = _clf_k.part)) = 1
                            THEN coalesce(list_sum(CASE _clf_k.part
                                WHEN 0 THEN _clf_a.d.w WHEN 1 THEN _clf_a.l.w ELSE _clf_a.u.w END), 0.0::DOUBLE)
                        WHEN _clf_k.part = 0 THEN list_dot_product(_clf_a.d.w, list_transform(_clf_a.d.h,
                            lambda _clf_z: CAST(_clf_z = _clf_k.hash AS DOUBLE)))
                        WHEN _clf_k.part = 1 THEN list_dot_product(_clf_a.l.w, list_transform(_clf_a.l.h,
                            lambda _clf_z: CAST(_clf_z = _clf_k.hash AS DOUBLE)))
                        ELSE list_dot_product(_clf_a.u.w, list_transform(_clf_a.u.h,
                            lambda _clf_z: CAST(_clf_z = _clf_k.hash AS DOUBLE)))
                    END))
            END)
    END;

-- Total weight of the entries of the matrix m that count for class key c as part ('t': y is
-- c, 'p': yhat is c, 'tp': both; NULL: every entry).
CREATE OR REPLACE MACRO _clf_msum(m, c, part) AS
    coalesce(list_sum(list_transform(
        list_filter(m, lambda _clf_e: CASE part
            WHEN 't' THEN _clf_e._clf_y IS NOT DISTINCT FROM c
            WHEN 'p' THEN _clf_e._clf_p IS NOT DISTINCT FROM c
            WHEN 'tp' THEN _clf_e._clf_y IS NOT DISTINCT FROM c AND _clf_e._clf_p IS NOT DISTINCT FROM c
            ELSE true
        END),
        lambda _clf_e: _clf_e._clf_w)), 0.0::DOUBLE);

-- Per class of y or yhat in the matrix m: its actual total t, predicted total p and correct
-- total tp, with the matrix total s.
CREATE OR REPLACE MACRO _clf_marginals(m) AS
    struct_pack(
        s := _clf_msum(m, NULL, NULL),
        k := list_transform(
            list_distinct(list_concat(list_transform(m, lambda _clf_e: _clf_e._clf_y),
                list_transform(m, lambda _clf_e: _clf_e._clf_p))),
            lambda _clf_c: struct_pack(
                t := _clf_msum(m, _clf_c, 't'),
                p := _clf_msum(m, _clf_c, 'p'),
                tp := _clf_msum(m, _clf_c, 'tp'))));

-- Gorodkin's multiclass MCC in scikit-learn's covariance form on shares of the total s:
-- (c - sum t_k p_k) / sqrt((1 - sum p_k^2)(1 - sum t_k^2)); 0.0 when a factor is 0 or s is 0.
CREATE OR REPLACE MACRO _clf_mcc_of(g) AS
    _clf_div(
        _clf_div(coalesce(list_sum(list_transform(g.k, lambda _clf_q: _clf_q.tp)), 0.0), g.s, 0.0)
            - coalesce(list_sum(list_transform(g.k, lambda _clf_q:
                _clf_div(_clf_q.t, g.s, 0.0) * _clf_div(_clf_q.p, g.s, 0.0))), 0.0),
        sqrt(greatest(
            (1 - coalesce(list_sum(list_transform(g.k, lambda _clf_q:
                _clf_div(_clf_q.p, g.s, 0.0) * _clf_div(_clf_q.p, g.s, 0.0))), 0.0))
            * (1 - coalesce(list_sum(list_transform(g.k, lambda _clf_q:
                _clf_div(_clf_q.t, g.s, 0.0) * _clf_div(_clf_q.t, g.s, 0.0))), 0.0)), 0)),
        0.0);

-- The mean recall over the classes with an actual total > 0 (NULL with none); adjusted:
-- rescaled so chance (1/k for k such classes) is 0, NULL when k = 1.
CREATE OR REPLACE MACRO _clf_balanced_of(g, adjusted) AS
    _clf_let(
        list_transform(list_filter(g.k, lambda _clf_q: _clf_q.t > 0),
            lambda _clf_q: _clf_q.tp / _clf_q.t),
        lambda _clf_r: CASE
            WHEN adjusted THEN _clf_div(list_avg(_clf_r) - _clf_div(1, len(_clf_r), NULL),
                1 - _clf_div(1, len(_clf_r), NULL), NULL)
            ELSE list_avg(_clf_r)
        END);

-- The disagreement weight of classes at positions i and j (weights: NULL, 'linear', 'quadratic').
CREATE OR REPLACE MACRO _clf_kappa_w(weights, i, j) AS
    CASE
        WHEN weights IS NULL THEN CAST(i <> j AS DOUBLE)
        WHEN CAST(weights AS VARCHAR) = 'linear' THEN CAST(abs(i - j) AS DOUBLE)
        ELSE CAST((i - j) * (i - j) AS DOUBLE)
    END;

-- Cohen's kappa of the matrix m over the classes cls (keys, in order; the rows of other
-- classes left out): 1 - sum w_ij O_ij / sum w_ij E_ij with O and E = outer(t, p) as shares of
-- the total; NULL when the expected disagreement is (within 1e-12 of) 0 or no row is left.
CREATE OR REPLACE MACRO _clf_kappa_of(m, cls, weights) AS
    _clf_let(
        list_transform(
            list_filter(m, lambda _clf_e: list_position(cls, _clf_e._clf_y) IS NOT NULL
                AND list_position(cls, _clf_e._clf_p) IS NOT NULL),
            lambda _clf_e: struct_pack(i := list_position(cls, _clf_e._clf_y),
                j := list_position(cls, _clf_e._clf_p), w := _clf_e._clf_w)),
        lambda _clf_o: _clf_let(
            struct_pack(
                s := coalesce(list_sum(list_transform(_clf_o, lambda _clf_e: _clf_e.w)), 0.0::DOUBLE),
                t := list_transform(range(1, len(cls) + 1), lambda _clf_i: coalesce(list_sum(
                    list_transform(list_filter(_clf_o, lambda _clf_e: _clf_e.i = _clf_i),
                        lambda _clf_e: _clf_e.w)), 0.0::DOUBLE)),
                p := list_transform(range(1, len(cls) + 1), lambda _clf_j: coalesce(list_sum(
                    list_transform(list_filter(_clf_o, lambda _clf_e: _clf_e.j = _clf_j),
                        lambda _clf_e: _clf_e.w)), 0.0::DOUBLE))),
            lambda _clf_g: CASE WHEN _clf_g.s > 0 THEN _clf_let(
                struct_pack(
                    observed := coalesce(list_sum(list_transform(_clf_o, lambda _clf_e:
                        _clf_kappa_w(weights, _clf_e.i, _clf_e.j) * (_clf_e.w / _clf_g.s))), 0.0),
                    expected := coalesce(list_sum(list_transform(range(1, len(cls) + 1),
                        lambda _clf_i: list_sum(list_transform(range(1, len(cls) + 1),
                            lambda _clf_j: _clf_kappa_w(weights, _clf_i, _clf_j)
                                * (_clf_g.t[_clf_i] / _clf_g.s) * (_clf_g.p[_clf_j] / _clf_g.s))))), 0.0)),
                lambda _clf_x: CASE
                    WHEN abs(_clf_x.expected) <= 1e-12 THEN NULL
                    ELSE 1 - _clf_x.observed / _clf_x.expected
                END)
            END));

-- TRUE, or an error when pos_label is given to a macro that has none (who: 'clf_mcc').
CREATE OR REPLACE MACRO _clf_check_no_pos(pos_label, who) AS
    CASE
        WHEN typeof(pos_label) = '"NULL"' THEN true
        ELSE error(printf('clfeval: %s: pos_label = %s is not used: the metric is multiclass, '
            || 'and for two classes it does not depend on which one is positive (as '
            || 'scikit-learn''s); drop pos_label', who, _clf_show(pos_label)))
    END;

-- TRUE, or an error when weights is not NULL, 'linear' or 'quadratic'; name is the option's
-- name ('weights', or clf_metrics' 'kappa_weights'), who starts the message.
CREATE OR REPLACE MACRO _clf_check_kappa_weights(weights, who, name) AS
    CASE
        WHEN weights IS NULL OR (_clf_is_text(typeof(weights))
                AND CAST(weights AS VARCHAR) IN ('linear', 'quadratic')) THEN true
        ELSE error(printf('clfeval: %s%s = %s is not one of NULL, ''linear'', ''quadratic''; '
            || '%s sets how far apart two classes are in the class order',
            who, name, _clf_show(weights), name))
    END;

CREATE OR REPLACE MACRO clf_mcc(y, yhat, weight := NULL, pos_label := NULL) AS
    CASE WHEN _clf_check_no_pos(pos_label, 'clf_mcc') THEN _clf_agg_guard(
        _clf_let(_clf_matrix(y, yhat, weight), lambda _clf_m: _clf_let(_clf_marginals(_clf_m),
            lambda _clf_g: _clf_mcc_of(_clf_g))),
        y, yhat, NULL, false, weight, 'clf_mcc') END;

COMMENT ON MACRO clf_mcc IS
'Matthews correlation coefficient, binary and multiclass (Gorodkin''s R_K): (c s - sum_k t_k p_k) / sqrt((s^2 - sum_k p_k^2)(s^2 - sum_k t_k^2)), c the correct rows, s the rows, t_k and p_k the actual and predicted totals of class k (computed on shares of s). Aggregate macro: clf_mcc(y, yhat, weight := NULL). 0.0 when a factor of the denominator is 0 (one class only) or no row is left, as scikit-learn. pos_label is gone (a given one raises): the value does not depend on it. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), a NaN, infinite or negative weight and a pos_label. Python twin: clfeval.mcc; scikit-learn: matthews_corrcoef.';

CREATE OR REPLACE MACRO clf_balanced_accuracy(y, yhat, adjusted := false, weight := NULL, pos_label := NULL) AS
    CASE WHEN _clf_check_no_pos(pos_label, 'clf_balanced_accuracy') THEN _clf_agg_guard(
        _clf_let(_clf_matrix(y, yhat, weight), lambda _clf_m: _clf_let(_clf_marginals(_clf_m),
            lambda _clf_g: _clf_balanced_of(_clf_g, adjusted))),
        y, yhat, NULL, false, weight, 'clf_balanced_accuracy') END;

COMMENT ON MACRO clf_balanced_accuracy IS
'Balanced accuracy, binary and multiclass: the mean recall over the classes present in y (total weight > 0; classes only in yhat are left out). Aggregate macro: clf_balanced_accuracy(y, yhat, adjusted := false, weight := NULL); adjusted rescales so chance is 0: (score - 1/k) / (1 - 1/k) for k classes (NULL with one class). NULL when no row is left. pos_label is gone (a given one raises): the value does not depend on it. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), a NaN, infinite or negative weight and a pos_label. Python twin: clfeval.balanced_accuracy; scikit-learn: balanced_accuracy_score.';

CREATE OR REPLACE MACRO clf_cohen_kappa(y, yhat, weights := NULL, labels := NULL, weight := NULL, pos_label := NULL) AS
    CASE WHEN _clf_check_no_pos(pos_label, 'clf_cohen_kappa')
        AND _clf_check_kappa_weights(weights, 'clf_cohen_kappa: ', 'weights')
        AND _clf_check_labels(labels, _clf_agg_type(y), printf('clf_cohen_kappa: y (%s)', _clf_agg_type(y)))
        THEN _clf_agg_guard(
            _clf_let(_clf_matrix(y, yhat, weight), lambda _clf_m: _clf_let(
                _clf_classes(_clf_m, labels), lambda _clf_cls: _clf_kappa_of(_clf_m, _clf_cls, weights))),
            y, yhat, NULL, false, weight, 'clf_cohen_kappa') END;

COMMENT ON MACRO clf_cohen_kappa IS
'Cohen''s kappa, binary and multiclass: 1 - sum w_ij O_ij / sum w_ij E_ij, O the confusion matrix and E = outer(actual totals, predicted totals) / s, w_ij = 1 - [i = j] (weights := NULL), |i - j| (''linear'') or (i - j)^2 (''quadratic'') for the classes at positions i, j of the sorted classes of y and yhat in the group, or of labels := [...] (classes and order, as scikit-learn''s labels=; rows of other classes are left out). Aggregate macro: clf_cohen_kappa(y, yhat, weights := NULL, labels := NULL, weight := NULL). NULL when the expected disagreement is 0 (one class only) or no row is left, as scikit-learn''s default replace_undefined_by=nan. pos_label is gone (a given one raises): the value does not depend on it. Rows with a NULL in y, yhat or weight are left out. Errors (clfeval: ...) on y and yhat of different kinds (text never equals a number), a NaN, infinite or negative weight, weights other than NULL, ''linear'' or ''quadratic'', labels that is empty, lists a class twice or NULL or holds another kind than y, and a pos_label. Python twin: clfeval.cohen_kappa; scikit-learn: cohen_kappa_score.';

CREATE OR REPLACE MACRO clf_prevalence(y, pos_label := 1, weight := NULL) AS
    _clf_agg_guard(
        _clf_div(_clf_sum(_clf_eq(y, pos_label), weight), _clf_sum(y IS NOT NULL, weight), NULL),
        y, NULL, pos_label, true, weight, 'clf_prevalence');

COMMENT ON MACRO clf_prevalence IS
'Prevalence: the (weighted) share of rows whose y is pos_label. Aggregate macro: clf_prevalence(y, pos_label := 1, weight := NULL). NULL when no row is left. Rows with a NULL in y or weight are left out. Errors (clfeval: ...) on pos_label of another kind than y (for text labels pass pos_label := ''1'') or NULL and a NaN, infinite or negative weight. Python twin: clfeval.prevalence.';
