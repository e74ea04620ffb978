WITH "_clf_src" AS (
  SELECT
    "label" AS "_clf_y",
    "pred" AS "_clf_p",
    1 AS "_clf_w"
  FROM "preds"
  WHERE
    NOT "label" IS NULL AND NOT "pred" IS NULL
), "_clf_long" AS (
  SELECT
    "_clf_y" AS "_clf_label",
    "_clf_w" AS "_clf_true",
    0 AS "_clf_pred",
    CASE WHEN "_clf_y" = "_clf_p" THEN "_clf_w" ELSE 0 END AS "_clf_tp"
  FROM "_clf_src"
  UNION ALL
  SELECT
    "_clf_p" AS "_clf_label",
    0 AS "_clf_true",
    "_clf_w" AS "_clf_pred",
    0 AS "_clf_tp"
  FROM "_clf_src"
), "_clf_lab" AS (
  SELECT
    "_clf_label",
    CAST(SUM("_clf_tp") AS BIGINT) AS "_clf_tp",
    CAST(SUM("_clf_pred") AS BIGINT) AS "_clf_pred",
    CAST(SUM("_clf_true") AS BIGINT) AS "_clf_true"
  FROM "_clf_long"
  GROUP BY
    "_clf_label"
), "_clf_per" AS (
  SELECT
    "_clf_label",
    "_clf_tp",
    "_clf_pred",
    "_clf_true",
    CASE
      WHEN CAST("_clf_pred" AS DOUBLE PRECISION) = 0
      THEN CAST(0 AS DOUBLE PRECISION)
      ELSE CAST("_clf_tp" AS DOUBLE PRECISION) / CAST("_clf_pred" AS DOUBLE PRECISION)
    END AS "_clf_precision",
    CASE
      WHEN CAST("_clf_true" AS DOUBLE PRECISION) = 0
      THEN CAST(0 AS DOUBLE PRECISION)
      ELSE CAST("_clf_tp" AS DOUBLE PRECISION) / CAST("_clf_true" AS DOUBLE PRECISION)
    END AS "_clf_recall",
    CASE
      WHEN (
        (
          CAST(1.0 AS DOUBLE PRECISION) * CAST("_clf_true" AS DOUBLE PRECISION)
        ) + CAST("_clf_pred" AS DOUBLE PRECISION)
      ) = 0
      THEN CAST(0 AS DOUBLE PRECISION)
      ELSE CAST(CAST(2.0 AS DOUBLE PRECISION) * CAST("_clf_tp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST((
        CAST(1.0 AS DOUBLE PRECISION) * CAST("_clf_true" AS DOUBLE PRECISION)
      ) + CAST("_clf_pred" AS DOUBLE PRECISION) AS DOUBLE PRECISION)
    END AS "_clf_f1",
    SUM("_clf_true") OVER () AS "_clf_n",
    ROW_NUMBER() OVER (ORDER BY "_clf_label" ASC) AS "_clf_o"
  FROM "_clf_lab"
), "_clf_agg" AS (
  SELECT
    SUM("_clf_tp") AS "_clf_stp",
    SUM("_clf_pred") AS "_clf_spred",
    SUM("_clf_true") AS "_clf_strue",
    SUM("_clf_n") AS "_clf_sn",
    MAX("_clf_n") AS "_clf_bn",
    AVG("_clf_precision") AS "_clf_mprecision",
    SUM("_clf_precision" * CAST("_clf_true" AS DOUBLE PRECISION)) AS "_clf_wnprecision",
    SUM(
      CASE
        WHEN NOT "_clf_precision" IS NULL
        THEN CAST("_clf_true" AS DOUBLE PRECISION)
      END
    ) AS "_clf_wdprecision",
    AVG("_clf_recall") AS "_clf_mrecall",
    SUM("_clf_recall" * CAST("_clf_true" AS DOUBLE PRECISION)) AS "_clf_wnrecall",
    SUM(
      CASE WHEN NOT "_clf_recall" IS NULL THEN CAST("_clf_true" AS DOUBLE PRECISION) END
    ) AS "_clf_wdrecall",
    AVG("_clf_f1") AS "_clf_mf1",
    SUM("_clf_f1" * CAST("_clf_true" AS DOUBLE PRECISION)) AS "_clf_wnf1",
    SUM(CASE WHEN NOT "_clf_f1" IS NULL THEN CAST("_clf_true" AS DOUBLE PRECISION) END) AS "_clf_wdf1",
    AVG(
      CASE
        WHEN "_clf_true" > 0
        THEN CAST("_clf_tp" AS DOUBLE PRECISION) / CAST("_clf_true" AS DOUBLE PRECISION)
      END
    ) AS "_clf_balanced",
    SUM(CAST("_clf_true" AS DOUBLE PRECISION) * CAST("_clf_pred" AS DOUBLE PRECISION)) AS "_clf_tdotp",
    SUM(CAST("_clf_pred" AS DOUBLE PRECISION) * CAST("_clf_pred" AS DOUBLE PRECISION)) AS "_clf_pdotp",
    SUM(CAST("_clf_true" AS DOUBLE PRECISION) * CAST("_clf_true" AS DOUBLE PRECISION)) AS "_clf_tdott"
  FROM "_clf_per"
), "_clf_rows" AS (
  SELECT
    0 AS "_clf_k",
    "_clf_o",
    CAST("_clf_label" AS VARCHAR) AS "label",
    "_clf_precision" AS "precision",
    "_clf_recall" AS "recall",
    "_clf_f1" AS "f1",
    "_clf_true" AS "support"
  FROM "_clf_per"
  UNION ALL
  SELECT
    1,
    0,
    CAST('accuracy' AS VARCHAR),
    CAST(NULL AS DOUBLE PRECISION),
    CAST(NULL AS DOUBLE PRECISION),
    CASE
      WHEN (
        (
          CAST(1.0 AS DOUBLE PRECISION) * CAST("_clf_strue" AS DOUBLE PRECISION)
        ) + CAST("_clf_spred" AS DOUBLE PRECISION)
      ) = 0
      THEN CAST(0 AS DOUBLE PRECISION)
      ELSE CAST(CAST(2.0 AS DOUBLE PRECISION) * CAST("_clf_stp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST((
        CAST(1.0 AS DOUBLE PRECISION) * CAST("_clf_strue" AS DOUBLE PRECISION)
      ) + CAST("_clf_spred" AS DOUBLE PRECISION) AS DOUBLE PRECISION)
    END,
    CAST("_clf_strue" AS BIGINT)
  FROM "_clf_agg"
  UNION ALL
  SELECT
    2,
    0,
    CAST('macro avg' AS VARCHAR),
    "_clf_mprecision",
    "_clf_mrecall",
    "_clf_mf1",
    CAST("_clf_strue" AS BIGINT)
  FROM "_clf_agg"
  UNION ALL
  SELECT
    3,
    0,
    CAST('weighted avg' AS VARCHAR),
    CASE
      WHEN COALESCE("_clf_wdprecision", CAST(0 AS DOUBLE PRECISION)) = 0
      THEN "_clf_mprecision"
      ELSE CAST("_clf_wnprecision" AS DOUBLE PRECISION) / "_clf_wdprecision"
    END,
    CASE
      WHEN COALESCE("_clf_wdrecall", CAST(0 AS DOUBLE PRECISION)) = 0
      THEN "_clf_mrecall"
      ELSE CAST("_clf_wnrecall" AS DOUBLE PRECISION) / "_clf_wdrecall"
    END,
    CASE
      WHEN COALESCE("_clf_wdf1", CAST(0 AS DOUBLE PRECISION)) = 0
      THEN "_clf_mf1"
      ELSE CAST("_clf_wnf1" AS DOUBLE PRECISION) / "_clf_wdf1"
    END,
    CAST("_clf_strue" AS BIGINT)
  FROM "_clf_agg"
)
SELECT
  "label",
  "precision",
  "recall",
  "f1",
  "support"
FROM "_clf_rows"
ORDER BY
  "_clf_k" ASC,
  "_clf_o" ASC
