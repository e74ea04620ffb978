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
--   * Bad input raises a DuckDB error() whose text starts with 'clfeval: ' (clfeval.sql parses
--     it): negative, NaN or infinite weights; labels of different kinds (text never equals a
--     number; see _clf_kind); a NULL pos_label where it is used; options out of range. Checks of
--     types and options are constant expressions that DuckDB folds when it binds the query, so
--     they cost nothing on good input; checks of values are counts folded into a pass over the
--     rows that the macro makes anyway. A table macro raises when its input has a row; an
--     aggregate macro raises also on no rows.
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

-- --- checks -------------------------------------------------------------------------------
-- Each _clf_check_* macro is TRUE or raises; 'who' starts the message ('clf_precision: ' in the
-- aggregate macros, which take expressions, '' in the table macros, which name columns).

-- Whether a type name is text (VARCHAR, ENUM): a short form of _clf_kind(t) = 'text' for the
-- tests repeated in every row expression (every macro call binds each one anew: about 0.1 ms a test).
CREATE OR REPLACE MACRO _clf_is_text(t) AS left(t, 4) IN ('VARC', 'ENUM');

-- The kind of a label type, given as typeof() names it: 'number' (integers, floats, DECIMAL and
-- BOOLEAN, which compares with 0/1 as in Polars), 'text' (VARCHAR, ENUM), NULL for the untyped
-- NULL literal (it matches any kind), else the type itself. Labels of two kinds never compare:
-- DuckDB would cast text to a number ('01' = 1, ' 1' = 1) or fail on a row.
CREATE OR REPLACE MACRO _clf_kind(t) AS
    CASE
        WHEN t = '"NULL"' THEN NULL
        WHEN t IN ('BOOLEAN', 'TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT',
                'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT', 'FLOAT', 'DOUBLE', 'VARINT', 'BIGNUM')
            OR starts_with(t, 'DECIMAL(') THEN 'number'
        WHEN _clf_is_text(t) THEN 'text'
        ELSE t
    END;

-- The element type of a list type name ('INTEGER[]' -> 'INTEGER'); '"NULL"' stays '"NULL"'.
CREATE OR REPLACE MACRO _clf_elem_type(t) AS regexp_replace(t, '\[\]$', '');

-- The type name of an argument of an aggregate macro, which may be a column: typeof(col) alone
-- is refused outside an aggregate, and typeof(min(NULL)) is not folded, but typeof([min(x)])
-- is folded to a constant when the query is bound, so the min is never computed.
CREATE OR REPLACE MACRO _clf_agg_type(x) AS _clf_elem_type(typeof([min(x)]));

-- A string as an SQL literal, and a value as it would be written in SQL (for messages).
CREATE OR REPLACE MACRO _clf_literal(s) AS '''' || replace(s, '''', '''''') || '''';
CREATE OR REPLACE MACRO _clf_show(v) AS
    CASE
        WHEN v IS NULL THEN 'NULL'
        WHEN _clf_kind(typeof(v)) = 'text' THEN _clf_literal(CAST(v AS VARCHAR))
        ELSE CAST(v AS VARCHAR)
    END;
CREATE OR REPLACE MACRO _clf_show_list(l) AS
    CASE
        WHEN l IS NULL THEN 'NULL'
        ELSE '[' || array_to_string(list_transform(l, lambda v: _clf_show(v)), ', ') || ']'
    END;

-- An option as DOUBLE, or NULL when it is not a plain number (text, BOOLEAN, ... : through
-- VARCHAR, so that any type binds).
CREATE OR REPLACE MACRO _clf_option_number(v) AS
    CASE
        WHEN _clf_kind(typeof(v)) = 'number' AND typeof(v) <> 'BOOLEAN'
            THEN TRY_CAST(CAST(v AS VARCHAR) AS DOUBLE)
    END;

-- TRUE, or an error when two label arguments hold different kinds of labels. ta and tb are
-- their type names, da and db their descriptions (with the type), hint what to do.
CREATE OR REPLACE MACRO _clf_check_kinds(ta, tb, da, db, hint) AS
    CASE
        WHEN _clf_kind(ta) <> _clf_kind(tb) THEN error(printf(
            'clfeval: %s and %s hold different kinds of labels; %s (%s)', da, db, hint,
            CASE
                WHEN _clf_is_text(ta) <> _clf_is_text(tb) THEN 'text never equals a number'
                ELSE 'labels compare only within one kind'
            END))
        ELSE true
    END;

-- a = b, or NULL when one of the two is text and the other not: the aggregate macros compare
-- labels through this, so that a row never fails on DuckDB's implicit text-to-number cast
-- before the macro's kind check (_clf_agg_guard, once per group) raises its own error. Folded
-- to a = b when the query is bound.
CREATE OR REPLACE MACRO _clf_eq(a, b) AS
    CASE WHEN _clf_is_text(typeof(a)) = _clf_is_text(typeof(b)) THEN a = b END;

-- What to pass as pos_label for labels of type ty.
CREATE OR REPLACE MACRO _clf_pos_hint(ty, pos_label) AS
    CASE
        WHEN _clf_is_text(ty)
            THEN 'pass pos_label := ' || _clf_literal(CAST(pos_label AS VARCHAR))
        WHEN TRY_CAST(CAST(pos_label AS VARCHAR) AS DOUBLE) IS NOT NULL
            THEN 'pass pos_label := ' || CAST(pos_label AS VARCHAR)
        ELSE 'pass a pos_label of the kind of y'
    END;

-- TRUE, or an error when pos_label (type tpos; is_null: a typed NULL) is NULL or of another
-- kind than y (type ty, described as dy).
CREATE OR REPLACE MACRO _clf_check_pos(ty, tpos, is_null, pos_label, dy, who) AS
    CASE
        WHEN tpos = '"NULL"' OR is_null THEN error(
            'clfeval: ' || who || 'pos_label is NULL; pass the class that counts as positive')
        ELSE _clf_check_kinds(ty, tpos, dy, printf('pos_label (%s)', tpos),
            _clf_pos_hint(ty, pos_label))
    END;

-- TRUE, or an error when the list labels is empty, lists a class twice or NULL, or holds
-- another kind of label than y (type ty, described as dy). NULL (every class) passes.
CREATE OR REPLACE MACRO _clf_check_labels(labels, ty, dy) AS
    CASE
        WHEN labels IS NULL THEN true
        WHEN len(labels) = 0 THEN error(
            'clfeval: labels = [] lists no class; pass at least one class, or labels := NULL for '
            || 'every class in the data')
        WHEN len(list_filter(labels, lambda v: v IS NULL)) > 0 THEN error(printf(
            'clfeval: labels = %s lists NULL; a NULL label is never a class (its rows are left out)',
            _clf_show_list(labels)))
        WHEN len(list_distinct(labels)) < len(labels) THEN error(printf(
            'clfeval: labels = %s lists a class more than once; list each class once, in the '
            || 'order you want them', _clf_show_list(labels)))
        ELSE _clf_check_kinds(ty, _clf_elem_type(typeof(labels)), dy,
            printf('labels (%s)', typeof(labels)),
            CASE
                WHEN _clf_is_text(ty) THEN 'pass labels := ['
                    || array_to_string(list_transform(labels,
                        lambda v: _clf_literal(CAST(v AS VARCHAR))), ', ') || ']'
                ELSE 'list labels of the kind of y'
            END)
    END;

-- TRUE, or an error when scores or probabilities (type t, described as d) are not numbers.
CREATE OR REPLACE MACRO _clf_check_number(t, d, what) AS
    CASE
        WHEN _clf_kind(t) IS DISTINCT FROM 'number' AND t <> '"NULL"' THEN error(printf(
            'clfeval: %s holds no numbers; %s must be numbers (cast the column)', d, what))
        ELSE true
    END;

-- TRUE, or an error naming the weight (what: "column 'w' (role weight)", or
-- 'clf_accuracy: weight') when it holds NaN, infinite or negative values.
CREATE OR REPLACE MACRO _clf_check_weights(n_nan, n_inf, n_neg, lo, what) AS
    CASE
        WHEN coalesce(n_nan, 0) > 0 THEN error(printf(
            'clfeval: %s has %d NaN value(s); weights must be finite and >= 0',
            what, CAST(n_nan AS BIGINT)))
        WHEN coalesce(n_inf, 0) > 0 THEN error(printf(
            'clfeval: %s has %d infinite value(s); weights must be finite and >= 0',
            what, CAST(n_inf AS BIGINT)))
        WHEN coalesce(n_neg, 0) > 0 THEN error(printf(
            'clfeval: %s has %d negative value(s) (min %s); weights must be finite and >= 0',
            what, CAST(n_neg AS BIGINT), CAST(lo AS VARCHAR)))
        ELSE true
    END;

-- The weight check of an aggregate macro, over every row with a weight (NULL weights are left
-- out). Without a weight (the literal NULL) it is folded to TRUE and its counts are dropped.
CREATE OR REPLACE MACRO _clf_check_agg_weight(weight, who) AS
    CASE
        WHEN typeof([min(weight)]) = '"NULL"[]' THEN true
        ELSE _clf_check_weights(
            count_if(isnan(CAST(weight AS DOUBLE))),
            count_if(isinf(CAST(weight AS DOUBLE))),
            count_if(CAST(weight AS DOUBLE) < 0),
            min(weight),
            who || 'weight')
    END;

-- TRUE, or an error when zero_division is not 0, 1 or NULL.
CREATE OR REPLACE MACRO _clf_check_zero_division(zero_division, who) AS
    CASE
        WHEN zero_division IS NULL OR _clf_option_number(zero_division) IN (0, 1) THEN true
        ELSE error(printf('clfeval: %szero_division = %s is not 0.0, 1.0 or NULL; %s', who,
            _clf_show(zero_division),
            CASE
                WHEN isnan(_clf_option_number(zero_division))
                    THEN 'pass NULL for an undefined ratio (scikit-learn''s np.nan)'
                ELSE 'NULL makes an undefined ratio NULL, left out of the averages'
            END))
    END;

-- TRUE, or an error when beta is not a number >= 0 (inf is allowed: F-beta is then recall).
CREATE OR REPLACE MACRO _clf_check_beta(beta, who) AS
    CASE
        WHEN _clf_option_number(beta) >= 0 AND NOT isnan(_clf_option_number(beta)) THEN true
        ELSE error(printf('clfeval: %sbeta = %s is not a number >= 0; beta > 1 weighs recall '
            || 'more, beta < 1 precision (0 is precision, inf recall)', who, _clf_show(beta)))
    END;

-- TRUE, or an error when the option name holds anything but true or false.
CREATE OR REPLACE MACRO _clf_check_flag(value, who, name) AS
    CASE
        WHEN typeof(value) = 'BOOLEAN' AND value IS NOT NULL THEN true
        ELSE error(printf('clfeval: %s%s = %s is not true or false; pass %s := true or false',
            who, name, _clf_show(value), name))
    END;

-- n_bins, or an error when it is not a whole number from 1 to 1000 (clfeval._options.MAX_BINS).
CREATE OR REPLACE MACRO _clf_checked_bins(n_bins) AS
    CASE
        WHEN _clf_option_number(n_bins) BETWEEN 1 AND 1000
            AND _clf_option_number(n_bins) = floor(_clf_option_number(n_bins)) THEN n_bins
        ELSE error(printf('clfeval: n_bins = %s is not an integer from 1 to 1,000; n_bins is '
            || 'the number of probability bins', _clf_show(n_bins)))
    END;

-- The bin of p among n equal bins of [0, 1], as numpy.searchsorted(inner edges, p) with the
-- edges k * (1 / n) (numpy.linspace's): a value on an inner edge goes to the lower
-- bin. No search: with k = round(p n), p is within half a step of the edge k * (1 / n), so the
-- bin is k - 1 or k by the side of that one edge p is on (_clf_bin_edge, a DOUBLE: -1 for
-- p = 0, n for a p just below 1 when n * (1 / n) < 1), then clipped to [0, n - 1]
-- (_clf_bin_clip). A GROUP BY on the unclipped key clips its few groups afterwards instead of
-- every row (clf_calibration). Python twin: clfeval._prob.uniform_bin, bit for bit. A NaN or
-- infinite p gets a bin without failing the cast (the callers raise on it or leave it out).
-- _clf_uniform_bin takes n_bins as given, read as a DOUBLE through text (so text or a boolean
-- binds, and the caller's _clf_checked_bins raises on it); _clf_bin_among takes a DOUBLE n
-- (a column where it can: each nested macro copy of n costs binding time).
CREATE OR REPLACE MACRO _clf_bin_side(p, k, step) AS k - CAST(p <= k * step AS DOUBLE);
CREATE OR REPLACE MACRO _clf_bin_edge(p, n) AS _clf_bin_side(p, round(p * n), 1.0::DOUBLE / n);
CREATE OR REPLACE MACRO _clf_bin_clip(bin, n) AS
    CAST(least(greatest(bin, 0.0::DOUBLE), n - 1.0) AS BIGINT);
CREATE OR REPLACE MACRO _clf_bin_among(p, n) AS _clf_bin_clip(_clf_bin_edge(p, n), n);
CREATE OR REPLACE MACRO _clf_uniform_bin(p, n_bins) AS
    _clf_bin_among(p, TRY_CAST(CAST(n_bins AS VARCHAR) AS DOUBLE));

-- value, or an error from the checks of an aggregate macro named who: y and yhat hold one kind
-- of label (yhat NULL: none), and so do y and pos_label when pos_used; the weight is finite
-- and >= 0. The type names are bound once (_clf_let) and checked once per group; without a
-- weight the weight counts fold away.
CREATE OR REPLACE MACRO _clf_agg_guard(value, y, yhat, pos_label, pos_used, weight, who) AS
    CASE
        WHEN _clf_let(
                struct_pack(
                    ty := _clf_agg_type(y),
                    tyhat := _clf_agg_type(yhat),
                    tpos := _clf_agg_type(pos_label),
                    pos := CASE WHEN pos_used THEN CAST(any_value(pos_label) AS VARCHAR) END),
                lambda k: _clf_check_kinds(k.ty, k.tyhat, printf('%s: y (%s)', who, k.ty),
                        printf('yhat (%s)', k.tyhat), 'cast one of them')
                    -- a CASE, not NOT pos_used OR ...: OR does not skip its right side here
                    AND CASE
                        WHEN pos_used THEN _clf_check_pos(k.ty, k.tpos, false, k.pos,
                            printf('%s: y (%s)', who, k.ty), who || ': ')
                        ELSE true
                    END)
            AND _clf_check_agg_weight(weight, who || ': ')
            THEN value
    END;

-- --- values ---------------------------------------------------------------------------------

-- A NaN score or probability counts as NULL in the aggregate macros; so does any value of a
-- text column (text is never parsed; _clf_check_number raises on it).
CREATE OR REPLACE MACRO _clf_num(x) AS
    CASE
        WHEN _clf_is_text(typeof(x)) THEN NULL
        WHEN isnan(CAST(x AS DOUBLE)) THEN NULL
        ELSE CAST(x AS DOUBLE)
    END;

-- The COLUMNS([...]) list that picks a count column by type: name__i (BIGINT) without a
-- weight column, name__d (DOUBLE) with one. The choice is made when the query is bound.
CREATE OR REPLACE MACRO _clf_typed(weight_col, name) AS
    [name || CASE WHEN weight_col IS NULL THEN '__i' ELSE '__d' END];

-- The group columns and the constant member __clf_nogroup, the list that every COLUMNS(...)
-- of the group columns reads. The cast: DuckDB 1.5 types the default group_cols := [] as
-- INTEGER[], which list_concat refuses with VARCHAR[] (2.0 types it "NULL"[]).
CREATE OR REPLACE MACRO _clf_group_list(group_cols) AS
    list_concat(CAST(group_cols AS VARCHAR[]), ['__clf_nogroup']);

-- The group columns, then col: the keys of a GROUP BY on the raw group columns (never an empty
-- list, which COLUMNS refuses). Such a GROUP BY lists NULL::BOOLEAN AS __clf_nogroup in its
-- own SELECT, where DuckDB drops the constant key (read from a subquery, the constant costs
-- a third of the count), and packs the struct __clf_key on its few result rows: hashing a
-- struct per input row costs more than the whole count.
CREATE OR REPLACE MACRO _clf_keys_and(group_cols, col) AS
    list_concat(CAST(group_cols AS VARCHAR[]), [col]);

-- The window partition column of the score rows (_clf_score_rows): the group column itself
-- when there is at most one (the constant __clf_nogroup when there is none), else __clf_key.
CREATE OR REPLACE MACRO _clf_part_list(group_cols) AS
    CASE WHEN len(group_cols) <= 1 THEN _clf_group_list(group_cols)[1:1] ELSE ['__clf_key'] END;

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

-- MCC from shares of the rows (correct c, predicted p1/p0, actual t1/t0): scikit-learn's
-- covariance form, (c - t.p) / sqrt((1 - p.p)(1 - t.t)), on shares, so huge weights cannot
-- overflow the products; 0.0 when a marginal is constant (a one-class marginal is exactly 1,
-- its total being the row count itself).
CREATE OR REPLACE MACRO _clf_mcc_shares(c, p1, p0, t1, t0) AS
    _clf_div(
        c - (t0 * p0 + t1 * p1),
        sqrt(greatest((1 - (p0 * p0 + p1 * p1)) * (1 - (t0 * t0 + t1 * t1)), 0)),
        0.0);

-- Matthews correlation of pos_label against the rest, from binary counts (as shares).
CREATE OR REPLACE MACRO _clf_mcc(tp, fp, fn, tn) AS
    _clf_mcc_shares(
        _clf_div(tp + tn, tp + fp + fn + tn, 0.0),
        _clf_div(tp + fp, tp + fp + fn + tn, 0.0), _clf_div(tn + fn, tp + fp + fn + tn, 0.0),
        _clf_div(tp + fn, tp + fp + fn + tn, 0.0), _clf_div(tn + fp, tp + fp + fn + tn, 0.0));

-- Cohen's kappa from binary counts, in scikit-learn's form on shares of the rows: 1 - observed
-- disagreement (fp + fn) / expected disagreement (pred_neg true_pos + pred_pos true_neg); NULL
-- when there are no rows or the expected disagreement is 0.
CREATE OR REPLACE MACRO _clf_kappa(tp, fp, fn, tn) AS
    1 - _clf_div(
        _clf_div(fp + fn, tp + fp + fn + tn, NULL),
        _clf_div(tn + fn, tp + fp + fn + tn, NULL) * _clf_div(tp + fn, tp + fp + fn + tn, NULL)
            + _clf_div(tp + fp, tp + fp + fn + tn, NULL) * _clf_div(tn + fp, tp + fp + fn + tn, NULL),
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

-- --- decisions (60_decide.sql, clf_thresholds, clf_metrics) ---------------------------------

-- prevalence as DOUBLE (NULL: not given), or an error when it is not a number in (0, 1)
-- (clfeval._options.prevalence; DuckDB orders NaN above every number, so NaN fails the < 1).
CREATE OR REPLACE MACRO _clf_checked_prevalence(prevalence) AS
    CASE
        WHEN prevalence IS NULL THEN NULL::DOUBLE
        WHEN _clf_option_number(prevalence) > 0 AND _clf_option_number(prevalence) < 1
            THEN _clf_option_number(prevalence)
        ELSE error(printf('clfeval: prevalence = %s is not a number in (0, 1); pass the share '
            || 'of pos_label in the population you care about, e.g. prevalence := 0.01',
            _clf_show(prevalence)))
    END;

-- TRUE, or an error when a cost or benefit (named role) is not a finite number >= 0.
CREATE OR REPLACE MACRO _clf_check_cost(v, role) AS
    CASE
        WHEN _clf_option_number(v) >= 0 AND NOT isnan(_clf_option_number(v))
            AND NOT isinf(_clf_option_number(v)) THEN true
        ELSE error(printf('clfeval: %s = %s is not a finite number >= 0; costs and benefits are '
            || 'per row, in one unit (e.g. cost_fp := 1, cost_fn := 20)', role, _clf_show(v)))
    END;

-- TRUE, or an error on the costs of a binary decision: cost_fp and cost_fn given together
-- (both NULL: no cost), each cost and benefit a finite number >= 0.
CREATE OR REPLACE MACRO _clf_check_costs(cost_fp, cost_fn, benefit_tp, benefit_tn) AS
    CASE
        WHEN cost_fp IS NULL AND cost_fn IS NULL THEN true
        WHEN cost_fp IS NULL THEN error('clfeval: cost_fn is given but cost_fp is not; pass both '
            || 'cost_fp and cost_fn (0 is a valid cost)')
        WHEN cost_fn IS NULL THEN error('clfeval: cost_fp is given but cost_fn is not; pass both '
            || 'cost_fp and cost_fn (0 is a valid cost)')
        ELSE _clf_check_cost(cost_fp, 'cost_fp') AND _clf_check_cost(cost_fn, 'cost_fn')
            AND _clf_check_cost(benefit_tp, 'benefit_tp') AND _clf_check_cost(benefit_tn, 'benefit_tn')
    END;
