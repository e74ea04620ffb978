-- clfeval SQL layer, file 70: uncertainty. The Poisson bootstrap on counts (clf_bootstrap,
-- clf_bootstrap_scores, clf_metrics_ci), with the draws, the normal distribution and the
-- interval helpers that file 75 (DeLong's interval and the paired tests) reads too.
-- Python twins: clfeval.bootstrap and clfeval.metrics(ci=) (clfeval._bootstrap, with the draws
-- of clfeval._draws), and the normal distribution of clfeval._normal.
-- Conventions: see 00_helpers.sql.
--
-- The draws are the Python ones, bit for bit: replicate r of cell c is a counter-based draw,
-- SplitMix64 at position c * 2^17 + r + 1 of the stream seeded with mix64(seed), turned into
-- a Poisson count by the exact inverse CDF below a mean of 100 and by a Cornish-Fisher
-- expansion from 100 on (clfeval._draws documents both). Cells are numbered in the order of
-- the group columns, then the class columns (label tables) or the score and the class (score
-- tables, numbered from 2^46), NULLs last, as Polars sorts them. 64-bit products wrap modulo
-- 2^64 through UHUGEINT (DuckDB's UBIGINT raises on overflow).

-- --- arithmetic modulo 2^64 and the uniform of a (seed, cell, replicate) --------------------

CREATE OR REPLACE MACRO _clf_mul64(a, b) AS
    CAST((CAST(a AS UHUGEINT) * CAST(b AS UHUGEINT))
        & CAST(18446744073709551615 AS UHUGEINT) AS UBIGINT);

CREATE OR REPLACE MACRO _clf_add64(a, b) AS
    CAST((CAST(a AS UHUGEINT) + CAST(b AS UHUGEINT))
        & CAST(18446744073709551615 AS UHUGEINT) AS UBIGINT);

-- SplitMix64's output function (Steele, Lea & Flood 2014): clfeval._draws.mix64.
CREATE OR REPLACE MACRO _clf_mix64(x) AS
    _clf_let(_clf_mul64(xor(CAST(x AS UBIGINT), CAST(x AS UBIGINT) >> 30), 13787848793156543929),
        lambda _clf_a: _clf_let(_clf_mul64(xor(_clf_a, _clf_a >> 27), 10723151780598845931),
            lambda _clf_b: xor(_clf_b, _clf_b >> 31)));

-- The uniform in (0, 1) of replicate rep of cell cell: (top 52 bits + 1/2) / 2^52.
CREATE OR REPLACE MACRO _clf_uniform(seed, cell, rep) AS
    (CAST(_clf_mix64(_clf_add64(_clf_mix64(CAST(seed AS UBIGINT)),
        _clf_mul64(CAST(cell AS UBIGINT) * 131072 + CAST(rep AS UBIGINT) + 1,
            11400714819323198485))) >> 12 AS DOUBLE) + 0.5)
        / CAST(4503599627370496 AS DOUBLE);

-- --- the normal distribution (clfeval._normal) --------------------------------------------

-- The standard normal quantile, Wichura's AS241 (PPND16), of p in (0, 1), from rc =
-- 0.180625 - (p - 1/2)^2 and rt = sqrt(-ln(min(p, 1 - p))) computed once by the caller (the
-- bootstrap draws millions; a let-binding per row costs more than the polynomials).
CREATE OR REPLACE MACRO _clf_ndtri_staged(p, rc, rt) AS
    CASE
        WHEN abs(p - 0.5) <= 0.425 THEN
            (p - 0.5) * (((((((2.5090809287301226727e3 * rc + 3.3430575583588128105e4) * rc
                + 6.7265770927008700853e4) * rc + 4.5921953931549871457e4) * rc
                + 1.3731693765509461125e4) * rc + 1.9715909503065514427e3) * rc
                + 1.3314166789178437745e2) * rc + 3.3871328727963666080e0)
            / (((((((5.2264952788528545610e3 * rc + 2.8729085735721942674e4) * rc
                + 3.9307895800092710610e4) * rc + 2.1213794301586595867e4) * rc
                + 5.3941960214247511077e3) * rc + 6.8718700749205790830e2) * rc
                + 4.2313330701600911252e1) * rc + 1.0)
        WHEN rt <= 5.0 THEN CASE WHEN p < 0.5 THEN -1.0 ELSE 1.0 END
            * ((((((((7.7454501427834140764e-4 * (rt - 1.6) + 2.2723844989269184583e-2) * (rt - 1.6)
                + 2.4178072517745061177e-1) * (rt - 1.6) + 1.2704582524523683826e0) * (rt - 1.6)
                + 3.6478483247632046050e0) * (rt - 1.6) + 5.7694972214606914055e0) * (rt - 1.6)
                + 4.6303378461565452959e0) * (rt - 1.6) + 1.4234371107496835773e0)
            / (((((((1.0507500716444168432e-9 * (rt - 1.6) + 5.4759380849953449460e-4) * (rt - 1.6)
                + 1.5198666563616457197e-2) * (rt - 1.6) + 1.4810397642748007459e-1) * (rt - 1.6)
                + 6.8976733498510000455e-1) * (rt - 1.6) + 1.6763848301838038494e0) * (rt - 1.6)
                + 2.0531916266377588219e0) * (rt - 1.6) + 1.0))
        ELSE CASE WHEN p < 0.5 THEN -1.0 ELSE 1.0 END
            * ((((((((2.0103343992922881327e-7 * (rt - 5.0) + 2.7115555687434875782e-5) * (rt - 5.0)
                + 1.2426609473880784386e-3) * (rt - 5.0) + 2.6532189526576123093e-2) * (rt - 5.0)
                + 2.9656057182850489123e-1) * (rt - 5.0) + 1.7848265399172913358e0) * (rt - 5.0)
                + 5.4637849111641143699e0) * (rt - 5.0) + 6.6579046435011037772e0)
            / (((((((2.0442631033899397856e-15 * (rt - 5.0) + 1.4215117583164458887e-7) * (rt - 5.0)
                + 1.8463183175100546818e-5) * (rt - 5.0) + 7.8686913114561325910e-4) * (rt - 5.0)
                + 1.4875361290850614853e-2) * (rt - 5.0) + 1.3692988092273580531e-1) * (rt - 5.0)
                + 5.9983220655588793769e-1) * (rt - 5.0) + 1.0))
    END;

-- The standard normal quantile of p in (0, 1) (clfeval._normal.ndtri).
CREATE OR REPLACE MACRO _clf_ndtri(p) AS
    _clf_ndtri_staged(p, 0.180625 - (p - 0.5) * (p - 0.5),
        sqrt(-ln(CASE WHEN p < 0.5 THEN p ELSE 1.0 - p END)));

-- The complementary error function for x >= 0 (Cephes' erfc, W. J. Cody's rational forms;
-- 1 - erf(x) below 1). DuckDB has no erf.
CREATE OR REPLACE MACRO _clf_erfc(x) AS
    CASE
        WHEN x < 1.0 THEN 1.0 - x * ((((9.60497373987051638749e0 * (x * x)
                + 9.00260197203842689217e1) * (x * x) + 2.23200534594684319226e3) * (x * x)
                + 7.00332514112805075473e3) * (x * x) + 5.55923013010394962768e4)
            / (((((1.0 * (x * x) + 3.35617141647503099647e1) * (x * x)
                + 5.21357949780152679795e2) * (x * x) + 4.59432382970980127987e3) * (x * x)
                + 2.26290000613890934246e4) * (x * x) + 4.92673942608635921086e4)
        WHEN x < 8.0 THEN exp(-(x * x)) * ((((((((2.46196981473530512524e-10 * x
                + 5.64189564831068821977e-1) * x + 7.46321056442269912687e0) * x
                + 4.86371970985681366614e1) * x + 1.96520832956077098242e2) * x
                + 5.26445194995477358631e2) * x + 9.34528527171957607540e2) * x
                + 1.02755188689515710272e3) * x + 5.57535335369399327526e2)
            / ((((((((1.0 * x + 1.32281951154744992508e1) * x + 8.67072140885989742329e1) * x
                + 3.54937778887819891062e2) * x + 9.75708501743205489753e2) * x
                + 1.82390916687909736289e3) * x + 2.24633760818710981792e3) * x
                + 1.65666309194161350182e3) * x + 5.57535340817727675546e2)
        ELSE exp(-(x * x)) * (((((5.64189583547755073984e-1 * x + 1.27536670759978104416e0) * x
                + 5.01905042251180477414e0) * x + 6.16021097993053585195e0) * x
                + 7.40974269950448939160e0) * x + 2.97886665372100240670e0)
            / ((((((1.0 * x + 2.26052863220117276590e0) * x + 9.39603524938001434673e0) * x
                + 1.20489539808096656605e1) * x + 1.70814450747565897222e1) * x
                + 9.60896809063285878198e0) * x + 3.36907645100081516050e0)
    END;

-- The two-sided normal p-value of z: 2 Phi(-|z|) = erfc(|z| / sqrt(2)); NULL for NULL or NaN.
CREATE OR REPLACE MACRO _clf_p_value(z) AS
    CASE WHEN NOT isnan(z) THEN _clf_erfc(abs(z) * 0.7071067811865476) END;

-- --- Poisson counts -----------------------------------------------------------------------

-- F(0), F(1), ..., F(K) of Poisson(lam) (0 < lam < 100), K = floor(lam + 10 sqrt(lam)) + 10:
-- p(0) = exp(-lam), p(k) = p(k - 1) * (lam / k), summed left to right (clfeval._draws.cdf_table).
CREATE OR REPLACE MACRO _clf_poisson_cdf(lam) AS
    list_reduce(
        list_concat(
            [{'p': exp(-lam), 'f': exp(-lam), 'fs': [exp(-lam)]}],
            list_transform(range(1, CAST(floor(lam + 10 * sqrt(lam)) AS BIGINT) + 11),
                lambda _clf_k: {'p': CAST(_clf_k AS DOUBLE), 'f': 0.0::DOUBLE,
                    'fs': []::DOUBLE[]})),
        -- the first element starts the sums; each later one carries its k in p
        lambda _clf_acc, _clf_x: {
            'p': _clf_acc.p * (lam / _clf_x.p),
            'f': _clf_acc.f + _clf_acc.p * (lam / _clf_x.p),
            'fs': list_append(_clf_acc.fs, _clf_acc.f + _clf_acc.p * (lam / _clf_x.p))}).fs;

-- The Poisson(lam) quantile of u = Phi(z) for lam >= 100: the Cornish-Fisher expansion to
-- order 1/lam with its continuity correction, rounded up from x - 1/2; an error above
-- lam = 2^53, where a double no longer holds every whole count (clfeval._draws.check_means).
CREATE OR REPLACE MACRO _clf_poisson_cf(z, lam) AS
    CASE WHEN lam > 9007199254740992.0 THEN error('clfeval: a cell of the count table weighs '
            || 'more than 2^53 (its summed weights): the bootstrap draws whole Poisson counts, '
            || 'exact in a double only up to 2^53; hint: rescale the weights')
        ELSE CAST(greatest(ceil(lam + sqrt(lam) * z + (z * z - 1.0) / 6.0
            - (z * z * z + 2.0 * z) / (72.0 * sqrt(lam))
            + (3.0 * (z * z * z * z) + 7.0 * (z * z) - 16.0) / (810.0 * lam)
            - 0.5), 0) AS BIGINT)
    END;

-- TRUE, or an error when n_boot is not a whole number from 1 to 100,000 or seed not one from
-- 0 to 2^63 - 1 (clfeval._options.n_boot and seed).
CREATE OR REPLACE MACRO _clf_check_boot(n_boot, seed) AS
    CASE
        WHEN NOT coalesce(_clf_option_number(n_boot) BETWEEN 1 AND 100000
                AND _clf_option_number(n_boot) = floor(_clf_option_number(n_boot)), false)
            THEN error(printf('clfeval: n_boot = %s is not an integer from 1 to 100,000; n_boot '
                || 'is the number of bootstrap replicates', _clf_show(n_boot)))
        WHEN NOT coalesce(_clf_option_number(seed) >= 0
                AND _clf_option_number(seed) = floor(_clf_option_number(seed))
                AND TRY_CAST(seed AS BIGINT) IS NOT NULL, false)
            THEN error(printf('clfeval: seed = %s is not an integer from 0 to 2^63 - 1',
                _clf_show(seed)))
        ELSE true
    END;

-- level as DOUBLE, or an error when it is not a number strictly between 0 and 1.
CREATE OR REPLACE MACRO _clf_checked_level(level) AS
    CASE
        WHEN coalesce(_clf_option_number(level) > 0 AND _clf_option_number(level) < 1, false)
            THEN CAST(level AS DOUBLE)
        ELSE error(printf('clfeval: level = %s is not a number in (0, 1); level is the '
            || 'confidence level of the intervals, e.g. level := 0.95', _clf_show(level)))
    END;

-- Every cell of the relation named cells (__clf_cell UBIGINT, __clf_lam DOUBLE, any other
-- columns) in every replicate __clf_rep = 0 .. n_boot - 1, with its Poisson count __clf_n.
CREATE OR REPLACE MACRO _clf_boot_draws(cells, n_boot, seed) AS TABLE
-- the uniform of _clf_uniform, its three mixing steps staged (one column each)
-- (the cells' other columns join back at the end: narrow rows are cheaper to draw)
WITH h AS (
    SELECT c.__clf_cell, c.__clf_lam, r.range AS __clf_rep,
        _clf_add64(_clf_mix64(CAST(seed AS UBIGINT)),
            _clf_mul64(CAST(c.__clf_cell AS UBIGINT) * 131072 + CAST(r.range AS UBIGINT) + 1,
                11400714819323198485)) AS __clf_h
    -- the options are checked in range()'s argument, a constant: raised even with no cell
    FROM query_table(cells) AS c,
        range(CAST(CASE WHEN _clf_check_boot(n_boot, seed) THEN n_boot END AS BIGINT)) AS r
),
h1 AS (
    SELECT * REPLACE (_clf_mul64(xor(__clf_h, __clf_h >> 30), 13787848793156543929) AS __clf_h)
    FROM h
),
h2 AS (
    SELECT * REPLACE (_clf_mul64(xor(__clf_h, __clf_h >> 27), 10723151780598845931) AS __clf_h)
    FROM h1
),
d AS (
    SELECT * EXCLUDE (__clf_h),
        (CAST(xor(__clf_h, __clf_h >> 31) >> 12 AS DOUBLE) + 0.5)
            / CAST(4503599627370496 AS DOUBLE) AS __clf_u
    FROM h2
),
cdf AS (
    SELECT __clf_lam AS lam, f, max(k) AS k
    FROM (
        SELECT __clf_lam, unnest(fs) AS f, unnest(range(0, len(fs))) AS k
        FROM (
            SELECT __clf_lam, _clf_poisson_cdf(__clf_lam) AS fs
            FROM (SELECT DISTINCT __clf_lam FROM query_table(cells))
            WHERE __clf_lam > 0 AND __clf_lam < 100
        )
    )
    GROUP BY ALL
),
-- Phi^-1(u) for the cells of mean 100 and more, staged as clfeval._normal.ndtri_columns
z AS (
    SELECT * EXCLUDE (__clf_rc, __clf_rt), _clf_ndtri_staged(__clf_u, __clf_rc, __clf_rt) AS __clf_z
    FROM (
        SELECT *, 0.180625 - (__clf_u - 0.5) * (__clf_u - 0.5) AS __clf_rc,
            sqrt(-ln(CASE WHEN __clf_u < 0.5 THEN __clf_u ELSE 1.0 - __clf_u END)) AS __clf_rt
        FROM d
        WHERE __clf_lam >= 100
    )
),
x AS (
    SELECT d.* EXCLUDE (__clf_u), coalesce(cdf.k + 1, 0) AS __clf_x
    FROM d ASOF LEFT JOIN cdf ON d.__clf_lam = cdf.lam AND d.__clf_u > cdf.f
    WHERE d.__clf_lam > 0 AND d.__clf_lam < 100
    UNION ALL
    SELECT * EXCLUDE (__clf_u, __clf_z), _clf_poisson_cf(__clf_z, __clf_lam) FROM z
    UNION ALL
    SELECT d.* EXCLUDE (__clf_u), 0 FROM d WHERE NOT __clf_lam > 0
)
SELECT c.*, x.__clf_rep, x.__clf_x AS __clf_n
FROM x JOIN query_table(cells) AS c USING (__clf_cell);

-- --- the bootstrap of the label metrics -----------------------------------------------------

-- The cells of the (group columns, y, yhat) count table of tbl: the group columns, y and yhat
-- under their own names, __clf_g (the groups packed), __clf_cell and __clf_lam, the cell's
-- count or, with a weight column, its total weight (weights are frequencies: a cell of weight
-- W draws Poisson(W), as its rows repeated would). Raises on the label arguments (as
-- _clf_label_pairs) and on NaN, infinite or negative weights.
CREATE OR REPLACE MACRO _clf_boot_label_cells(tbl, y, yhat, group_cols, weight_col, labels, pos_label, pos_used) AS TABLE
WITH counts AS (
    SELECT COLUMNS(_clf_group_list(group_cols)), COLUMNS([y]), COLUMNS([yhat]),
        __clf_sort_y, __clf_sort_yhat,
        count(*) AS __clf_c, sum(__clf_w) AS __clf_sw,
        count_if(isnan(__clf_w)) AS __clf_n_nan, count_if(isinf(__clf_w)) AS __clf_n_inf,
        count_if(__clf_w < 0) AS __clf_n_neg, min(__clf_w) AS __clf_lo
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup,
            COLUMNS([y]) AS __clf_sort_y, COLUMNS([yhat]) AS __clf_sort_yhat,
            CAST(COLUMNS([coalesce(weight_col, '__clf_one')]) AS DOUBLE) AS __clf_w
        FROM (SELECT *, 1.0::DOUBLE AS __clf_one FROM query_table(tbl))
    )
    WHERE __clf_sort_y IS NOT NULL AND __clf_sort_yhat IS NOT NULL AND __clf_w IS NOT NULL
        AND _clf_check_label_args(typeof(__clf_sort_y), typeof(__clf_sort_yhat), y, yhat,
            labels, pos_label, pos_used)
    GROUP BY ALL
),
checked AS (
    SELECT weight_col IS NULL OR _clf_check_weights(sum(__clf_n_nan), sum(__clf_n_inf),
        sum(__clf_n_neg), min(__clf_lo), printf('column %s (role weight)', _clf_quoted(weight_col)))
        AS ok
    FROM counts
),
keyed AS (
    SELECT *, struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_g
    FROM counts, checked
    WHERE checked.ok
)
SELECT * EXCLUDE (__clf_nogroup, __clf_c, __clf_sw, __clf_n_nan, __clf_n_inf, __clf_n_neg,
        __clf_lo, __clf_sort_y, __clf_sort_yhat, ok),
    CAST(row_number() OVER (ORDER BY __clf_g, __clf_sort_y, __clf_sort_yhat) - 1 AS UBIGINT)
        AS __clf_cell,
    CASE WHEN weight_col IS NULL THEN CAST(__clf_c AS DOUBLE) ELSE __clf_sw END AS __clf_lam
FROM keyed;

-- The label metrics of every replicate of the cells relation named cells (as
-- _clf_boot_label_cells gives them): (group columns..., replicate, the metrics of clf_metrics).
CREATE OR REPLACE MACRO _clf_boot_label_metrics(
    cells, y, yhat, n_boot, seed, group_cols, average, pos_label, labels, zero_division
) AS TABLE
WITH
-- the data itself, for clf_metrics' checks of the class set (binary: at most two classes,
-- pos_label among them) before any replicate is scored
__clf_boot_point AS (
    SELECT * EXCLUDE (__clf_g, __clf_cell, __clf_lam), __clf_lam AS __clf_n
    FROM query_table(cells)
),
checked AS (
    SELECT count(*) >= 0 AS ok
    FROM clf_metrics('__clf_boot_point', y, yhat, group_cols := group_cols,
        weight_col := '__clf_n', average := average, pos_label := pos_label, labels := labels,
        zero_division := zero_division)
),
__clf_boot_rows AS MATERIALIZED (
    SELECT d.* EXCLUDE (__clf_cell, __clf_lam)
    FROM _clf_boot_draws(cells, n_boot, seed) AS d, checked
    WHERE checked.ok
),
-- average = 'binary': tp, predicted, actual and total per group and replicate, then the
-- formulas of clfeval._metrics (one GROUP BY, not clf_metrics' per-class plan per replicate)
bin_counts AS (
    SELECT __clf_g, __clf_rep,
        CAST(sum(CASE WHEN __clf_is_pos AND __clf_says THEN __clf_n ELSE 0 END) AS DOUBLE) AS tp,
        CAST(sum(CASE WHEN __clf_says THEN __clf_n ELSE 0 END) AS DOUBLE) AS pred,
        CAST(sum(CASE WHEN __clf_is_pos THEN __clf_n ELSE 0 END) AS DOUBLE) AS sup,
        CAST(sum(__clf_n) AS DOUBLE) AS tot
    FROM (
        SELECT __clf_g, __clf_rep, __clf_n,
            COLUMNS([y]) = pos_label AS __clf_is_pos,
            COLUMNS([yhat]) = pos_label AS __clf_says
        FROM __clf_boot_rows
        WHERE average = 'binary'
    )
    GROUP BY __clf_g, __clf_rep
),
fast AS (
    SELECT * EXCLUDE (__clf_nogroup, __clf_g)
    FROM (
        SELECT unnest(__clf_g), __clf_g, __clf_rep AS replicate,
            CASE WHEN tot > 0 THEN _clf_div(tp + (tot - pred - sup + tp), tot, NULL) END
                AS accuracy,
            _clf_balanced(tp, pred - tp, sup - tp, tot - pred - sup + tp) AS balanced_accuracy,
            _clf_div(tp, pred, zero_division) AS precision,
            _clf_div(tp, sup, zero_division) AS recall,
            _clf_div(2 * tp, sup + pred, zero_division) AS f1,
            _clf_mcc(tp, pred - tp, sup - tp, tot - pred - sup + tp) AS mcc
        FROM bin_counts
    )
    ORDER BY __clf_g, replicate
),
-- the other averages: clf_metrics on every replicate
averaged AS (
    SELECT * RENAME (__clf_rep AS replicate)
    FROM clf_metrics('__clf_boot_rows', y, yhat,
        group_cols := list_concat(CAST(group_cols AS VARCHAR[]), ['__clf_rep']),
        weight_col := '__clf_n', average := average, pos_label := pos_label, labels := labels,
        zero_division := zero_division)
    WHERE average IS DISTINCT FROM 'binary'
)
FROM fast
UNION ALL BY NAME
FROM averaged;

CREATE OR REPLACE MACRO clf_bootstrap(
    tbl, y, yhat, n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL,
    average := 'binary', pos_label := 1, labels := NULL, zero_division := 0.0
) AS TABLE
WITH __clf_boot_cells AS MATERIALIZED (
    FROM _clf_boot_label_cells(tbl, y, yhat, group_cols, weight_col, labels, pos_label,
        average = 'binary')
)
FROM _clf_boot_label_metrics('__clf_boot_cells', y, yhat, n_boot, seed, group_cols, average,
    pos_label, labels, zero_division);

COMMENT ON MACRO TABLE clf_bootstrap IS
'Poisson bootstrap replicates of the label metrics: (group columns..., replicate, accuracy, balanced_accuracy, precision, recall, f1, mcc), one row per group and replicate 0 .. n_boot - 1. Each cell of the (group, y, yhat) count table is redrawn as a Poisson count of its size (with weight_col: of its total weight; weights are frequencies, so integer weights give the draws of the repeated rows), then clf_metrics runs on every replicate. The same seed gives the same draws as clfeval.bootstrap in Python, bit for bit. Usage: FROM clf_bootstrap(''preds'', ''y'', ''yhat'', n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL, average := ''binary'', pos_label := 1, labels := NULL, zero_division := 0.0). Errors (clfeval: ...) as clf_metrics, and on n_boot outside 1 .. 100,000 or a negative seed. Python twin: clfeval.bootstrap.';

-- --- the bootstrap of the score metrics -----------------------------------------------------

-- The cells of the (group, score, positive) table of tbl, numbered from 2^46: __clf_key,
-- __clf_s, __clf_pos, __clf_cell, __clf_lam (count or weight), and __clf_prob (whether every score
-- of the group lies in [0, 1]). Raises as the score macros on their arguments, on NaN or
-- infinite scores and on bad weights.
CREATE OR REPLACE MACRO _clf_boot_score_cells(tbl, y, score, group_cols, weight_col, pos_label) AS TABLE
WITH args AS MATERIALIZED (FROM _clf_score_args(tbl, y, score, pos_label, 'score')),
counts AS (
    SELECT __clf_key, __clf_s, __clf_pos,
        count(*) AS __clf_c, sum(__clf_w) AS __clf_sw,
        count_if(isnan(__clf_w)) AS n_nan, count_if(isinf(__clf_w)) AS n_inf,
        count_if(__clf_w < 0) AS n_neg, min(__clf_w) AS lo
    FROM _clf_score_rows(tbl, y, score, group_cols, weight_col, pos_label)
    GROUP BY ALL
),
checked AS (
    SELECT _clf_check_finite(sum(__clf_c) FILTER (WHERE isnan(__clf_s)),
            sum(__clf_c) FILTER (WHERE isinf(__clf_s)), score, 'score')
        AND (weight_col IS NULL OR _clf_check_weights(sum(n_nan), sum(n_inf), sum(n_neg),
            min(lo), printf('column %s (role weight)', _clf_quoted(weight_col)))) AS ok
    FROM counts
)
SELECT __clf_key, __clf_s, __clf_pos,
    CAST(row_number() OVER (ORDER BY __clf_key, __clf_s, __clf_pos) - 1 AS UBIGINT)
        + CAST(70368744177664 AS UBIGINT) AS __clf_cell,
    CAST(CASE WHEN weight_col IS NULL THEN __clf_c ELSE __clf_sw END AS DOUBLE) AS __clf_lam,
    bool_and(__clf_s BETWEEN 0 AND 1) OVER (PARTITION BY __clf_key) AS __clf_prob
FROM counts, checked, args
WHERE checked.ok AND args.ok;

CREATE OR REPLACE MACRO clf_bootstrap_scores(
    tbl, y, score, n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL,
    pos_label := 1
) AS TABLE
WITH __clf_boot_cells AS MATERIALIZED (
    FROM _clf_boot_score_cells(tbl, y, score, group_cols, weight_col, pos_label)
),
-- one row per group, replicate and distinct score: its positive and negative counts, and the
-- log loss and squared gaps of its rows (clfeval._bootstrap.score_replicates)
by_score AS (
    SELECT __clf_key, __clf_rep, __clf_s, bool_and(__clf_prob) AS prob,
        CAST(coalesce(sum(__clf_n) FILTER (WHERE __clf_pos), 0) AS DOUBLE) AS pos,
        CAST(coalesce(sum(__clf_n) FILTER (WHERE NOT __clf_pos), 0) AS DOUBLE) AS neg,
        sum(__clf_n * -ln(CASE
            WHEN __clf_pos THEN least(greatest(__clf_s, 2.220446049250313e-16), 0.9999999999999998)
            ELSE least(greatest(1.0 - __clf_s, 2.220446049250313e-16), 0.9999999999999998)
        END)) AS ll,
        sum(__clf_n * (CAST(__clf_pos AS DOUBLE) - __clf_s) * (CAST(__clf_pos AS DOUBLE) - __clf_s))
            AS sq
    FROM _clf_boot_draws('__clf_boot_cells', n_boot, seed)
    GROUP BY ALL
),
-- running sums from the highest score down, and the class totals
cum AS (
    SELECT *,
        sum(pos) OVER w AS tp, sum(neg) OVER w AS fp,
        sum(pos) OVER (PARTITION BY __clf_key, __clf_rep) AS n_pos,
        sum(neg) OVER (PARTITION BY __clf_key, __clf_rep) AS n_neg
    FROM by_score
    WINDOW w AS (PARTITION BY __clf_key, __clf_rep ORDER BY __clf_s DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
-- trapezoids under (fpr, tpr), recall steps times precision, the weighted means
sums AS (
    SELECT __clf_key, __clf_rep, max(n_pos) AS n_pos, max(n_neg) AS n_neg,
        sum((neg / n_neg) * ((tp + (tp - pos)) / n_pos)) AS auc,
        sum(CASE WHEN pos > 0 THEN (pos / n_pos) * (tp / (tp + fp)) ELSE 0.0 END) AS ap,
        sum(ll) AS ll, sum(sq) AS sq, sum(pos + neg) AS w, bool_and(prob) AS prob
    FROM cum
    GROUP BY ALL
)
SELECT * EXCLUDE (__clf_nogroup, __clf_key)
FROM (
    SELECT unnest(__clf_key), __clf_key, __clf_rep AS replicate,
        CASE WHEN n_pos > 0 AND n_neg > 0 THEN auc / 2.0 END AS auroc,
        CASE WHEN n_pos > 0 THEN greatest(ap, 0.0) END AS average_precision,
        CASE WHEN prob AND w > 0 THEN ll / w END AS log_loss,
        CASE WHEN prob AND w > 0 THEN sq / w END AS brier
    FROM sums
)
ORDER BY __clf_key, replicate;

COMMENT ON MACRO TABLE clf_bootstrap_scores IS
'Poisson bootstrap replicates of the score metrics of pos_label: (group columns..., replicate, auroc, average_precision, log_loss, brier), one row per group and replicate 0 .. n_boot - 1. Each cell of the (group, distinct score, class) table is redrawn as a Poisson count of its size (with weight_col: of its total weight, weights being frequencies), then the metrics are computed on the replicate counts: AUROC (NULL for a replicate with one class), average precision (NULL without positives), log loss and Brier (NULL unless every score of the group lies in [0, 1]). Cost: one cell per distinct score and class, so continuous scores cost rows x n_boot; clf_auroc_ci (DeLong) is one sort. The same seed gives the same draws as clfeval.bootstrap(score=...) in Python. Usage: FROM clf_bootstrap_scores(''preds'', ''y'', ''score'', n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL, pos_label := 1). Python twin: clfeval.bootstrap.';

-- --- intervals ------------------------------------------------------------------------------

-- The percentile interval's ends (a level outside (0, 1) is refused by _clf_checked_level in
-- the same query; here it only must not stop DuckDB from binding the constant quantile).
CREATE OR REPLACE MACRO _clf_lo(x, level) AS
    quantile_cont(x, CASE WHEN level > 0 AND level < 1 THEN (1.0 - level) / 2.0 ELSE 0.5 END);
CREATE OR REPLACE MACRO _clf_hi(x, level) AS
    quantile_cont(x, CASE WHEN level > 0 AND level < 1 THEN 1.0 - (1.0 - level) / 2.0 ELSE 0.5 END);

CREATE OR REPLACE MACRO clf_metrics_ci(
    tbl, y, yhat, level := 0.95, n_boot := 1000, seed := 0, group_cols := [],
    weight_col := NULL, average := 'binary', pos_label := 1, labels := NULL,
    zero_division := 0.0
) AS TABLE
-- one pass over tbl: the count table, whose counts (weights) give the metrics of the data
-- and whose Poisson draws give the replicates
WITH __clf_ci_cells AS MATERIALIZED (
    FROM _clf_boot_label_cells(tbl, y, yhat, group_cols, weight_col, labels, pos_label,
        average = 'binary')
),
__clf_ci_point AS (
    SELECT * EXCLUDE (__clf_g, __clf_cell, __clf_lam), __clf_lam AS __clf_n FROM __clf_ci_cells
),
point AS (
    SELECT struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_g, *
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup
        FROM clf_metrics('__clf_ci_point', y, yhat, group_cols := group_cols,
            weight_col := '__clf_n', average := average, pos_label := pos_label,
            labels := labels, zero_division := zero_division)
    )
),
reps AS (
    SELECT struct_pack(*COLUMNS(_clf_group_list(group_cols))) AS __clf_g, *
    FROM (
        SELECT *, NULL::BOOLEAN AS __clf_nogroup
        FROM _clf_boot_label_metrics('__clf_ci_cells', y, yhat, n_boot, seed, group_cols,
            average, pos_label, labels, zero_division)
    )
),
ints AS (
    SELECT __clf_g,
        _clf_lo(accuracy, level) AS accuracy_lo,
        _clf_hi(accuracy, level) AS accuracy_hi,
        _clf_lo(balanced_accuracy, level) AS balanced_accuracy_lo,
        _clf_hi(balanced_accuracy, level) AS balanced_accuracy_hi,
        _clf_lo(precision, level) AS precision_lo,
        _clf_hi(precision, level) AS precision_hi,
        _clf_lo(recall, level) AS recall_lo,
        _clf_hi(recall, level) AS recall_hi,
        _clf_lo(f1, level) AS f1_lo,
        _clf_hi(f1, level) AS f1_hi,
        _clf_lo(mcc, level) AS mcc_lo,
        _clf_hi(mcc, level) AS mcc_hi,
        CAST(count_if(accuracy IS NULL) AS BIGINT) AS accuracy_n_undefined,
        CAST(count_if(balanced_accuracy IS NULL) AS BIGINT) AS balanced_accuracy_n_undefined,
        CAST(count_if(precision IS NULL) AS BIGINT) AS precision_n_undefined,
        CAST(count_if(recall IS NULL) AS BIGINT) AS recall_n_undefined,
        CAST(count_if(f1 IS NULL) AS BIGINT) AS f1_n_undefined,
        CAST(count_if(mcc IS NULL) AS BIGINT) AS mcc_n_undefined
    FROM reps
    WHERE _clf_checked_level(level) > 0
    GROUP BY __clf_g
)
SELECT point.* EXCLUDE (__clf_g, __clf_nogroup, accuracy, balanced_accuracy, precision, recall,
        f1, mcc, specificity, fpr, npv, fnr, jaccard, fbeta, cohen_kappa),
    accuracy, accuracy_lo, accuracy_hi, balanced_accuracy, balanced_accuracy_lo,
    balanced_accuracy_hi, precision, precision_lo, precision_hi, recall, recall_lo, recall_hi,
    f1, f1_lo, f1_hi, mcc, mcc_lo, mcc_hi, accuracy_n_undefined, balanced_accuracy_n_undefined,
    precision_n_undefined, recall_n_undefined, f1_n_undefined, mcc_n_undefined
FROM point LEFT JOIN ints USING (__clf_g)
ORDER BY point.__clf_g;

COMMENT ON MACRO TABLE clf_metrics_ci IS
'Label metrics with percentile bootstrap intervals: (group columns..., accuracy, accuracy_lo, accuracy_hi, balanced_accuracy, ..., mcc, mcc_lo, mcc_hi, then accuracy_n_undefined ... mcc_n_undefined), the values of clf_metrics and the (1 - level) / 2 and (1 + level) / 2 quantiles (quantile_cont) of the clf_bootstrap replicates; a NULL replicate is left out and counted in <metric>_n_undefined. Usage: FROM clf_metrics_ci(''preds'', ''y'', ''yhat'', level := 0.95, n_boot := 1000, seed := 0, group_cols := [], weight_col := NULL, average := ''binary'', pos_label := 1, labels := NULL, zero_division := 0.0). The same seed gives the numbers of clfeval.metrics(..., ci=level) in Python. Errors (clfeval: ...) as clf_metrics and clf_bootstrap, and on a level outside (0, 1). Python twin: clfeval.metrics(ci=).';
