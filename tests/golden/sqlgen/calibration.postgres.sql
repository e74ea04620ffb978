WITH "_clf_psrc" AS (
  SELECT
    CASE WHEN "label" = 'spam' THEN 1 ELSE 0 END AS "_clf_yb",
    CAST("p" AS DOUBLE PRECISION) AS "_clf_pr",
    CAST(1 AS DOUBLE PRECISION) AS "_clf_w"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "p" IS NULL
    AND NOT CAST("p" AS DOUBLE PRECISION) = CAST('NaN' AS DOUBLE PRECISION)
), "_clf_bad0" AS (
  SELECT
    MAX(
      CASE
        WHEN CAST("p" AS DOUBLE PRECISION) < CAST(0 AS DOUBLE PRECISION)
        OR CAST("p" AS DOUBLE PRECISION) > CAST(1 AS DOUBLE PRECISION)
        THEN 1
        ELSE 0
      END
    ) AS "_clf_bad"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "p" IS NULL
    AND NOT CAST("p" AS DOUBLE PRECISION) = CAST('NaN' AS DOUBLE PRECISION)
), "_clf_bins" AS (
  SELECT
    CASE
      WHEN "_clf_pr" <= CAST('0.25' AS DOUBLE PRECISION)
      THEN 0
      WHEN "_clf_pr" <= CAST('0.5' AS DOUBLE PRECISION)
      THEN 1
      WHEN "_clf_pr" <= CAST('0.75' AS DOUBLE PRECISION)
      THEN 2
      ELSE 3
    END AS "_clf_bin",
    "_clf_pr",
    "_clf_yb",
    "_clf_w"
  FROM "_clf_psrc"
), "_clf_r" AS (
  SELECT
    CAST("_clf_bin" AS BIGINT) AS "bin",
    CASE
      WHEN SUM("_clf_w") = 0
      THEN NULL
      ELSE CAST(SUM("_clf_w" * "_clf_pr") AS DOUBLE PRECISION) / CAST(SUM("_clf_w") AS DOUBLE PRECISION)
    END AS "mean_predicted",
    CASE
      WHEN SUM("_clf_w") = 0
      THEN NULL
      ELSE CAST(SUM("_clf_w" * "_clf_yb") AS DOUBLE PRECISION) / CAST(SUM("_clf_w") AS DOUBLE PRECISION)
    END AS "fraction_positive",
    CAST(SUM("_clf_w") AS BIGINT) AS "count"
  FROM "_clf_bins"
  GROUP BY
    "_clf_bin"
  HAVING
    SUM("_clf_w") > 0
), "_clf_flags" AS (
  SELECT
    "_clf_bad"
  FROM "_clf_bad0"
), "_clf_guard" AS (
  SELECT
    MAX("_clf_bad") AS "_clf_bad"
  FROM "_clf_flags"
)
SELECT
  "_clf_r"."bin" AS "bin",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."mean_predicted" END AS "mean_predicted",
  CASE
    WHEN "_clf_guard"."_clf_bad" = 1
    THEN NULL
    ELSE "_clf_r"."fraction_positive"
  END AS "fraction_positive",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."count" END AS "count"
FROM "_clf_r"
CROSS JOIN "_clf_guard"
ORDER BY
  "_clf_r"."bin" ASC
