-- clfeval SQL layer, file 00: private helpers (_clf_*) shared by every macro family.
-- Python twin: clfeval._label.divide (the zero guard) and clfeval._counts (row selection).
--
-- Conventions of every file in sql/ (load them in file-name order; `cat sql/*.sql | duckdb`):
--   * CREATE OR REPLACE everywhere, so loading twice is harmless.
--   * Public macros are clf_<python name> and carry a COMMENT ON MACRO; helpers are _clf_*.
--   * Ratios go through _clf_div, the one zero guard; no macro relies on DuckDB's
--     (version-dependent) division by zero, and none uses // or %.
--   * Counts come back as BIGINT (DOUBLE when a weight is given), rates as DOUBLE.
--   * Aggregate semantics: a row with a NULL in a column the metric reads is left out; in the
--     aggregate macros a NaN score or probability counts as NULL. Table macros raise on NaN and
--     infinite scores and on probabilities outside [0, 1].
--   * Table macros take the table or view NAME as a string (query_table) and column names as
--     strings matched exactly (COLUMNS([name]); never COLUMNS('regex')), so callers can bind
--     every user string as a prepared-statement parameter. Group columns are packed into one
--     struct column __clf_key (with a constant member __clf_nogroup, so an empty group_cols
--     list needs no separate code path) and unpacked, group columns first, at the end.
--     The __clf_ prefix is reserved for internal columns.
--   * Cost: hashing or sorting that struct once per input row costs more than most metrics, so
--     the row-level steps group by the raw columns and pack the key afterwards
--     (_clf_label_pairs), window over __clf_part, the one group column itself when there is at
--     most one (_clf_score_rows), and the large curve outputs sort by the unpacked columns.

-- num / den as DOUBLE, or z where den = 0 (z = NULL gives NULL).
CREATE OR REPLACE MACRO _clf_div(num, den, z) AS
    CASE
        WHEN den = 0 THEN CAST(z AS DOUBLE)
        ELSE CAST(num AS DOUBLE) / CAST(den AS DOUBLE)
    END;

-- The weight of one row: 1.0 when the macro's weight argument is the literal NULL (no weight
-- given), else the weight as DOUBLE (NULL for a NULL weight, so the row is left out).
CREATE OR REPLACE MACRO _clf_weight(weight) AS
    CASE WHEN typeof(weight) = '"NULL"' THEN 1.0::DOUBLE ELSE CAST(weight AS DOUBLE) END;

-- Total weight of the rows where cond is TRUE (0.0 when there are none).
CREATE OR REPLACE MACRO _clf_sum(cond, weight) AS
    coalesce(sum(CASE WHEN cond THEN _clf_weight(weight) END), 0.0::DOUBLE);

-- fn(value) with value computed once: a let-binding (macro arguments are substituted as text,
-- so a formula that names its argument ten times would otherwise plan it ten times).
CREATE OR REPLACE MACRO _clf_let(value, fn) AS list_transform([value], fn)[1];

-- A NaN score or probability counts as NULL in the aggregate macros.
CREATE OR REPLACE MACRO _clf_num(x) AS
    CASE WHEN isnan(CAST(x AS DOUBLE)) THEN NULL ELSE CAST(x AS DOUBLE) END;

-- The COLUMNS([...]) list that picks a count column by type: name__i (BIGINT) without a
-- weight column, name__d (DOUBLE) with one. The choice is made when the query is bound.
CREATE OR REPLACE MACRO _clf_typed(weight_col, name) AS
    [name || CASE WHEN weight_col IS NULL THEN '__i' ELSE '__d' END];

-- A column name quoted for an error message.
CREATE OR REPLACE MACRO _clf_quoted(col) AS '''' || CAST(col AS VARCHAR) || '''';

-- TRUE, or an error naming the column when it holds NaN or infinite values.
CREATE OR REPLACE MACRO _clf_check_finite(n_nan, n_inf, col, role) AS
    CASE
        WHEN coalesce(n_nan, 0) > 0 THEN error(printf(
            'clfeval: column %s (role %s) has %d NaN value(s); scores must be finite',
            _clf_quoted(col), role, CAST(n_nan AS BIGINT)))
        WHEN coalesce(n_inf, 0) > 0 THEN error(printf(
            'clfeval: column %s (role %s) has %d infinite value(s); scores must be finite',
            _clf_quoted(col), role, CAST(n_inf AS BIGINT)))
        ELSE true
    END;

-- TRUE, or an error naming the column when it holds values that are not probabilities.
CREATE OR REPLACE MACRO _clf_check_proba(n_nan, n_out, lo, hi, col) AS
    CASE
        WHEN coalesce(n_nan, 0) > 0 THEN error(printf(
            'clfeval: column %s (role proba) has %d NaN value(s); probabilities must be in [0, 1]',
            _clf_quoted(col), CAST(n_nan AS BIGINT)))
        WHEN coalesce(n_out, 0) > 0 THEN error(printf(
            'clfeval: column %s (role proba) has %d value(s) outside [0, 1] (min %s, max %s); '
            || 'probabilities must be in [0, 1]',
            _clf_quoted(col), CAST(n_out AS BIGINT), CAST(lo AS VARCHAR), CAST(hi AS VARCHAR)))
        ELSE true
    END;

-- The value of an aggregate probability metric, or an error when a probability lies outside
-- [0, 1] (NaN values are left out before, as NULLs).
CREATE OR REPLACE MACRO _clf_proba_guard(value, p, metric) AS
    CASE
        WHEN min(_clf_num(p)) < 0 OR max(_clf_num(p)) > 1 THEN error(printf(
            'clfeval: %s got probabilities outside [0, 1] (min %s, max %s); '
            || 'probabilities must be in [0, 1]',
            metric, CAST(min(_clf_num(p)) AS VARCHAR), CAST(max(_clf_num(p)) AS VARCHAR)))
        ELSE value
    END;

-- Matthews correlation from binary counts, in scikit-learn's covariance form: with n rows,
-- t = (actual negatives, actual positives) and p = (predicted negatives, predicted positives),
-- (correct n - t.p) / sqrt((n^2 - p.p)(n^2 - t.t)); 0.0 when the denominator is 0.
CREATE OR REPLACE MACRO _clf_mcc(tp, fp, fn, tn) AS
    _clf_div(
        (tp + tn) * (tp + fp + fn + tn) - ((tn + fp) * (tn + fn) + (tp + fn) * (tp + fp)),
        sqrt(greatest(
            ((tp + fp + fn + tn) * (tp + fp + fn + tn) - ((tn + fn) * (tn + fn) + (tp + fp) * (tp + fp)))
            * ((tp + fp + fn + tn) * (tp + fp + fn + tn) - ((tn + fp) * (tn + fp) + (tp + fn) * (tp + fn))),
            0)),
        0.0);

-- Cohen's kappa from binary counts, in scikit-learn's form: 1 - observed disagreement
-- (fp + fn) / expected disagreement (pred_neg true_pos / n + pred_pos true_neg / n); NULL when
-- there are no rows or the expected disagreement is 0.
CREATE OR REPLACE MACRO _clf_kappa(tp, fp, fn, tn) AS
    1 - _clf_div(
        fp + fn,
        _clf_div((tn + fn) * (tp + fn), tp + fp + fn + tn, NULL)
            + _clf_div((tp + fp) * (tn + fp), tp + fp + fn + tn, NULL),
        NULL);

-- Balanced accuracy of two classes: the mean recall over the classes present (weight > 0).
CREATE OR REPLACE MACRO _clf_balanced(tp, fp, fn, tn) AS
    CASE
        WHEN tp + fn > 0 AND tn + fp > 0
            THEN (_clf_div(tp, tp + fn, NULL) + _clf_div(tn, tn + fp, NULL)) / 2
        ELSE coalesce(_clf_div(tp, tp + fn, NULL), _clf_div(tn, tn + fp, NULL))
    END;

-- Balanced accuracy rescaled so that chance is 0: (score - 1/k) / (1 - 1/k) for the k classes
-- present in y; NULL when k is 0 or 1.
CREATE OR REPLACE MACRO _clf_adjusted(tp, fp, fn, tn) AS
    _clf_div(
        _clf_balanced(tp, fp, fn, tn)
            - _clf_div(1, CAST(tp + fn > 0 AS INTEGER) + CAST(tn + fp > 0 AS INTEGER), NULL),
        1 - _clf_div(1, CAST(tp + fn > 0 AS INTEGER) + CAST(tn + fp > 0 AS INTEGER), NULL),
        NULL);
