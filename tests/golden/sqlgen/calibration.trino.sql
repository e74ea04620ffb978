WITH "_clf_psrc" AS (
  SELECT
    CASE WHEN "label" = 'spam' THEN 1 ELSE 0 END AS "_clf_yb",
    CAST("p" AS DOUBLE) AS "_clf_pr",
    CAST(1 AS DOUBLE) AS "_clf_w"
  FROM "preds"
  WHERE
    NOT "label" IS NULL AND NOT "p" IS NULL AND NOT IS_NAN(CAST("p" AS DOUBLE))
), "_clf_bins" AS (
  SELECT
    CASE
      WHEN "_clf_pr" <= CAST('0.25' AS DOUBLE)
      THEN 0
      WHEN "_clf_pr" <= CAST('0.5' AS DOUBLE)
      THEN 1
      WHEN "_clf_pr" <= CAST('0.75' AS DOUBLE)
      THEN 2
      ELSE 3
    END AS "_clf_bin",
    "_clf_pr",
    "_clf_yb",
    "_clf_w"
  FROM "_clf_psrc"
)
SELECT
  CAST("_clf_bin" AS BIGINT) AS "bin",
  CASE
    WHEN SUM("_clf_w") = 0
    THEN NULL
    ELSE CAST(SUM("_clf_w" * "_clf_pr") AS DOUBLE) / CAST(SUM("_clf_w") AS DOUBLE)
  END AS "mean_predicted",
  CASE
    WHEN SUM("_clf_w") = 0
    THEN NULL
    ELSE CAST(SUM("_clf_w" * "_clf_yb") AS DOUBLE) / CAST(SUM("_clf_w") AS DOUBLE)
  END AS "fraction_positive",
  CAST(SUM("_clf_w") AS BIGINT) AS "count"
FROM "_clf_bins"
GROUP BY
  "_clf_bin"
HAVING
  SUM("_clf_w") > 0
ORDER BY
  "bin" ASC
