WITH "_clf_src" AS (
  SELECT
    "model",
    "label" AS "_clf_y",
    "pred" AS "_clf_p",
    1 AS "_clf_w"
  FROM "cat"."db"."preds"
  WHERE
    NOT "label" IS NULL AND NOT "pred" IS NULL
), "_clf_long" AS (
  SELECT
    "model",
    "_clf_y" AS "_clf_label",
    "_clf_w" AS "_clf_true",
    0 AS "_clf_pred",
    CASE WHEN "_clf_y" = "_clf_p" THEN "_clf_w" ELSE 0 END AS "_clf_tp"
  FROM "_clf_src"
  UNION ALL
  SELECT
    "model",
    "_clf_p" AS "_clf_label",
    0 AS "_clf_true",
    "_clf_w" AS "_clf_pred",
    0 AS "_clf_tp"
  FROM "_clf_src"
), "_clf_lab" AS (
  SELECT
    "model",
    "_clf_label",
    CAST(SUM("_clf_tp") AS BIGINT) AS "_clf_tp",
    CAST(SUM("_clf_pred") AS BIGINT) AS "_clf_pred",
    CAST(SUM("_clf_true") AS BIGINT) AS "_clf_true"
  FROM "_clf_long"
  GROUP BY
    "model",
    "_clf_label"
), "_clf_cells" AS (
  SELECT
    "model",
    "_clf_y",
    "_clf_p",
    "_clf_w"
  FROM "_clf_src"
  UNION ALL
  SELECT
    "_clf_a"."model",
    "_clf_a"."_clf_label" AS "_clf_y",
    "_clf_b"."_clf_label" AS "_clf_p",
    0 AS "_clf_w"
  FROM "_clf_lab" AS "_clf_a"
  JOIN "_clf_lab" AS "_clf_b"
    ON "_clf_a"."model" IS NOT DISTINCT FROM "_clf_b"."model"
)
SELECT
  "model",
  "_clf_y" AS "actual",
  "_clf_p" AS "predicted",
  CAST(SUM("_clf_w") AS BIGINT) AS "count"
FROM "_clf_cells"
GROUP BY
  "model",
  "_clf_y",
  "_clf_p"
ORDER BY
  "model" ASC,
  "actual" ASC,
  "predicted" ASC
