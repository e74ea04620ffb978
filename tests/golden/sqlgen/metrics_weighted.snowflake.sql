WITH "_clf_src" AS (
  SELECT
    "model",
    "label" AS "_clf_y",
    "pred" AS "_clf_p",
    CAST("n" AS DOUBLE) AS "_clf_w"
  FROM "preds"
  WHERE
    NOT "label" IS NULL AND NOT "pred" IS NULL AND NOT "n" IS NULL
), "_clf_bad0" AS (
  SELECT
    "model",
    MAX(
      CASE
        WHEN CAST("n" AS DOUBLE) < CAST(0 AS DOUBLE)
        OR NOT (
          (
            CAST("n" AS DOUBLE) - CAST("n" AS DOUBLE)
          ) = CAST(0 AS DOUBLE)
        )
        THEN 1
        ELSE 0
      END
    ) AS "_clf_bad"
  FROM "preds"
  WHERE
    NOT "label" IS NULL AND NOT "pred" IS NULL AND NOT "n" IS NULL
  GROUP BY
    "model"
), "_clf_long" AS (
  SELECT
    "model",
    "_clf_y" AS "_clf_label",
    "_clf_w" AS "_clf_true",
    CAST(0 AS DOUBLE) AS "_clf_pred",
    CASE WHEN "_clf_y" = "_clf_p" THEN "_clf_w" ELSE CAST(0 AS DOUBLE) END AS "_clf_tp"
  FROM "_clf_src"
  UNION ALL
  SELECT
    "model",
    "_clf_p" AS "_clf_label",
    CAST(0 AS DOUBLE) AS "_clf_true",
    "_clf_w" AS "_clf_pred",
    CAST(0 AS DOUBLE) AS "_clf_tp"
  FROM "_clf_src"
), "_clf_lab" AS (
  SELECT
    "model",
    "_clf_label",
    CAST(SUM("_clf_tp") AS DOUBLE) AS "_clf_tp",
    CAST(SUM("_clf_pred") AS DOUBLE) AS "_clf_pred",
    CAST(SUM("_clf_true") AS DOUBLE) AS "_clf_true"
  FROM "_clf_long"
  GROUP BY
    "model",
    "_clf_label"
), "_clf_per" AS (
  SELECT
    "model",
    "_clf_label",
    "_clf_tp",
    "_clf_pred",
    "_clf_true",
    CASE
      WHEN CAST("_clf_pred" AS DOUBLE) = 0
      THEN CAST(0 AS DOUBLE)
      ELSE CAST("_clf_tp" AS DOUBLE) / CAST("_clf_pred" AS DOUBLE)
    END AS "_clf_precision",
    CASE
      WHEN CAST("_clf_true" AS DOUBLE) = 0
      THEN CAST(0 AS DOUBLE)
      ELSE CAST("_clf_tp" AS DOUBLE) / CAST("_clf_true" AS DOUBLE)
    END AS "_clf_recall",
    CASE
      WHEN (
        (
          CAST(1.0 AS DOUBLE) * CAST("_clf_true" AS DOUBLE)
        ) + CAST("_clf_pred" AS DOUBLE)
      ) = 0
      THEN CAST(0 AS DOUBLE)
      ELSE CAST(CAST(2.0 AS DOUBLE) * CAST("_clf_tp" AS DOUBLE) AS DOUBLE) / CAST((
        CAST(1.0 AS DOUBLE) * CAST("_clf_true" AS DOUBLE)
      ) + CAST("_clf_pred" AS DOUBLE) AS DOUBLE)
    END AS "_clf_f1",
    SUM("_clf_true") OVER (PARTITION BY "model") AS "_clf_n",
    ROW_NUMBER() OVER (PARTITION BY "model" ORDER BY "_clf_label" ASC) AS "_clf_o"
  FROM "_clf_lab"
), "_clf_agg" AS (
  SELECT
    "model",
    SUM("_clf_tp") AS "_clf_stp",
    SUM("_clf_pred") AS "_clf_spred",
    SUM("_clf_true") AS "_clf_strue",
    SUM("_clf_n") AS "_clf_sn",
    MAX("_clf_n") AS "_clf_bn",
    AVG("_clf_precision") AS "_clf_mprecision",
    SUM("_clf_precision" * CAST("_clf_true" AS DOUBLE)) AS "_clf_wnprecision",
    SUM(CASE WHEN NOT "_clf_precision" IS NULL THEN CAST("_clf_true" AS DOUBLE) END) AS "_clf_wdprecision",
    AVG("_clf_recall") AS "_clf_mrecall",
    SUM("_clf_recall" * CAST("_clf_true" AS DOUBLE)) AS "_clf_wnrecall",
    SUM(CASE WHEN NOT "_clf_recall" IS NULL THEN CAST("_clf_true" AS DOUBLE) END) AS "_clf_wdrecall",
    AVG("_clf_f1") AS "_clf_mf1",
    SUM("_clf_f1" * CAST("_clf_true" AS DOUBLE)) AS "_clf_wnf1",
    SUM(CASE WHEN NOT "_clf_f1" IS NULL THEN CAST("_clf_true" AS DOUBLE) END) AS "_clf_wdf1",
    AVG(
      CASE
        WHEN "_clf_true" > 0
        THEN CAST("_clf_tp" AS DOUBLE) / CAST("_clf_true" AS DOUBLE)
      END
    ) AS "_clf_balanced",
    SUM(CAST("_clf_true" AS DOUBLE) * CAST("_clf_pred" AS DOUBLE)) AS "_clf_tdotp",
    SUM(CAST("_clf_pred" AS DOUBLE) * CAST("_clf_pred" AS DOUBLE)) AS "_clf_pdotp",
    SUM(CAST("_clf_true" AS DOUBLE) * CAST("_clf_true" AS DOUBLE)) AS "_clf_tdott"
  FROM "_clf_per"
  GROUP BY
    "model"
), "_clf_bad1" AS (
  SELECT
    "model",
    MAX(
      CASE
        WHEN CAST("n" AS DOUBLE) < CAST(0 AS DOUBLE)
        OR NOT (
          (
            CAST("n" AS DOUBLE) - CAST("n" AS DOUBLE)
          ) = CAST(0 AS DOUBLE)
        )
        THEN 1
        ELSE 0
      END
    ) AS "_clf_bad"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "score" IS NULL
    AND NOT "n" IS NULL
    AND NOT CAST("score" AS DOUBLE) = CAST('NaN' AS DOUBLE)
  GROUP BY
    "model"
), "_clf_ssrc" AS (
  SELECT
    "model",
    CAST("score" AS DOUBLE) AS "_clf_s",
    CASE WHEN "label" = 1 THEN CAST("n" AS DOUBLE) ELSE CAST(0 AS DOUBLE) END AS "_clf_pos",
    CASE WHEN "label" = 1 THEN CAST(0 AS DOUBLE) ELSE CAST("n" AS DOUBLE) END AS "_clf_neg"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "score" IS NULL
    AND NOT "n" IS NULL
    AND NOT CAST("score" AS DOUBLE) = CAST('NaN' AS DOUBLE)
), "_clf_pts" AS (
  SELECT
    "model",
    "_clf_s",
    CAST(SUM("_clf_pos") AS DOUBLE) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS DOUBLE) AS "_clf_dn"
  FROM "_clf_ssrc"
  GROUP BY
    "model",
    "_clf_s"
), "_clf_cum" AS (
  SELECT
    "model",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (
      PARTITION BY "model"
      ORDER BY "_clf_s" DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (
      PARTITION BY "model"
      ORDER BY "_clf_s" DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE) AS "_clf_fp",
    ROW_NUMBER() OVER (PARTITION BY "model" ORDER BY "_clf_s" DESC NULLS LAST) AS "_clf_i"
  FROM "_clf_pts"
), "_clf_tot" AS (
  SELECT
    "model",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    "_clf_tp",
    "_clf_fp",
    "_clf_i",
    MAX("_clf_tp") OVER (PARTITION BY "model") AS "_clf_npos",
    MAX("_clf_fp") OVER (PARTITION BY "model") AS "_clf_nneg"
  FROM "_clf_cum"
), "_clf_area" AS (
  SELECT
    "model",
    SUM(
      CASE
        WHEN CAST("_clf_nneg" AS DOUBLE) = 0
        THEN NULL
        ELSE CAST("_clf_dn" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
      END * CASE
        WHEN CAST("_clf_npos" AS DOUBLE) = 0
        THEN NULL
        ELSE CAST((
          CAST(2 AS DOUBLE) * CAST("_clf_tp" AS DOUBLE)
        ) - CAST("_clf_dp" AS DOUBLE) AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
      END
    ) AS "_clf_area",
    SUM(
      CAST("_clf_dp" AS DOUBLE) * CASE
        WHEN (
          CAST("_clf_tp" AS DOUBLE) + CAST("_clf_fp" AS DOUBLE)
        ) = 0
        THEN CAST(0 AS DOUBLE)
        ELSE CAST("_clf_tp" AS DOUBLE) / CAST(CAST("_clf_tp" AS DOUBLE) + CAST("_clf_fp" AS DOUBLE) AS DOUBLE)
      END
    ) AS "_clf_ap",
    CAST(MAX("_clf_npos") AS DOUBLE) AS "_clf_npos",
    CAST(MAX("_clf_nneg") AS DOUBLE) AS "_clf_nneg"
  FROM "_clf_tot"
  GROUP BY
    "model"
), "_clf_psrc" AS (
  SELECT
    "model",
    CASE WHEN "label" = 1 THEN 1 ELSE 0 END AS "_clf_yb",
    CAST("p" AS DOUBLE) AS "_clf_pr",
    CAST("n" AS DOUBLE) AS "_clf_w"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "p" IS NULL
    AND NOT "n" IS NULL
    AND NOT CAST("p" AS DOUBLE) = CAST('NaN' AS DOUBLE)
), "_clf_bad2" AS (
  SELECT
    "model",
    MAX(
      CASE
        WHEN CAST("n" AS DOUBLE) < CAST(0 AS DOUBLE)
        OR NOT (
          (
            CAST("n" AS DOUBLE) - CAST("n" AS DOUBLE)
          ) = CAST(0 AS DOUBLE)
        )
        OR (
          CAST("p" AS DOUBLE) < CAST(0 AS DOUBLE)
          OR CAST("p" AS DOUBLE) > CAST(1 AS DOUBLE)
        )
        THEN 1
        ELSE 0
      END
    ) AS "_clf_bad"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "p" IS NULL
    AND NOT "n" IS NULL
    AND NOT CAST("p" AS DOUBLE) = CAST('NaN' AS DOUBLE)
  GROUP BY
    "model"
), "_clf_part0" AS (
  SELECT
    "model",
    CASE
      WHEN "_clf_strue" = 0
      THEN NULL
      ELSE CAST("_clf_stp" AS DOUBLE) / CAST("_clf_strue" AS DOUBLE)
    END AS "accuracy",
    "_clf_balanced" AS "balanced_accuracy",
    CASE
      WHEN COALESCE("_clf_wdprecision", CAST(0 AS DOUBLE)) = 0
      THEN "_clf_mprecision"
      ELSE "_clf_wnprecision" / "_clf_wdprecision"
    END AS "precision",
    CASE
      WHEN COALESCE("_clf_wdrecall", CAST(0 AS DOUBLE)) = 0
      THEN "_clf_mrecall"
      ELSE "_clf_wnrecall" / "_clf_wdrecall"
    END AS "recall",
    CASE
      WHEN COALESCE("_clf_wdf1", CAST(0 AS DOUBLE)) = 0
      THEN "_clf_mf1"
      ELSE "_clf_wnf1" / "_clf_wdf1"
    END AS "f1",
    CASE
      WHEN (
        (
          (
            CAST("_clf_spred" AS DOUBLE) * CAST("_clf_spred" AS DOUBLE)
          ) - CAST("_clf_pdotp" AS DOUBLE)
        ) * (
          (
            CAST("_clf_spred" AS DOUBLE) * CAST("_clf_spred" AS DOUBLE)
          ) - CAST("_clf_tdott" AS DOUBLE)
        )
      ) = 0
      THEN CAST(0 AS DOUBLE)
      ELSE (
        (
          CAST("_clf_stp" AS DOUBLE) * CAST("_clf_spred" AS DOUBLE)
        ) - CAST("_clf_tdotp" AS DOUBLE)
      ) / SQRT(
        (
          (
            CAST("_clf_spred" AS DOUBLE) * CAST("_clf_spred" AS DOUBLE)
          ) - CAST("_clf_pdotp" AS DOUBLE)
        ) * (
          (
            CAST("_clf_spred" AS DOUBLE) * CAST("_clf_spred" AS DOUBLE)
          ) - CAST("_clf_tdott" AS DOUBLE)
        )
      )
    END AS "mcc"
  FROM "_clf_agg"
), "_clf_part1" AS (
  SELECT
    "model",
    CASE
      WHEN "_clf_npos" = 0 OR "_clf_nneg" = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE "_clf_area" / CAST(2 AS DOUBLE)
    END AS "auroc",
    CASE
      WHEN "_clf_npos" = 0
      THEN NULL
      ELSE CAST("_clf_ap" AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
    END AS "average_precision"
  FROM "_clf_area"
), "_clf_part2" AS (
  SELECT
    "model",
    CASE
      WHEN SUM("_clf_w") = 0
      THEN NULL
      ELSE CAST(SUM(
        "_clf_w" * CASE
          WHEN "_clf_yb" = 1
          THEN -LN(
            CASE
              WHEN "_clf_pr" < CAST('2.220446049250313e-16' AS DOUBLE)
              THEN CAST('2.220446049250313e-16' AS DOUBLE)
              WHEN "_clf_pr" > CAST('0.9999999999999998' AS DOUBLE)
              THEN CAST('0.9999999999999998' AS DOUBLE)
              ELSE "_clf_pr"
            END
          )
          ELSE -LN(
            CASE
              WHEN (
                CAST(1 AS DOUBLE) - "_clf_pr"
              ) < CAST('2.220446049250313e-16' AS DOUBLE)
              THEN CAST('2.220446049250313e-16' AS DOUBLE)
              WHEN (
                CAST(1 AS DOUBLE) - "_clf_pr"
              ) > CAST('0.9999999999999998' AS DOUBLE)
              THEN CAST('0.9999999999999998' AS DOUBLE)
              ELSE CAST(1 AS DOUBLE) - "_clf_pr"
            END
          )
        END
      ) AS DOUBLE) / CAST(SUM("_clf_w") AS DOUBLE)
    END AS "log_loss",
    CASE
      WHEN SUM("_clf_w") = 0
      THEN NULL
      ELSE CAST(SUM(
        "_clf_w" * (
          (
            "_clf_yb" - "_clf_pr"
          ) * (
            "_clf_yb" - "_clf_pr"
          )
        )
      ) AS DOUBLE) / CAST(SUM("_clf_w") AS DOUBLE)
    END AS "brier"
  FROM "_clf_psrc"
  GROUP BY
    "model"
), "_clf_parts" AS (
  SELECT
    "model",
    "accuracy",
    "balanced_accuracy",
    "precision",
    "recall",
    "f1",
    "mcc",
    CAST(NULL AS DOUBLE) AS "auroc",
    CAST(NULL AS DOUBLE) AS "average_precision",
    CAST(NULL AS DOUBLE) AS "log_loss",
    CAST(NULL AS DOUBLE) AS "brier"
  FROM "_clf_part0"
  UNION ALL
  SELECT
    "model",
    CAST(NULL AS DOUBLE) AS "accuracy",
    CAST(NULL AS DOUBLE) AS "balanced_accuracy",
    CAST(NULL AS DOUBLE) AS "precision",
    CAST(NULL AS DOUBLE) AS "recall",
    CAST(NULL AS DOUBLE) AS "f1",
    CAST(NULL AS DOUBLE) AS "mcc",
    "auroc",
    "average_precision",
    CAST(NULL AS DOUBLE) AS "log_loss",
    CAST(NULL AS DOUBLE) AS "brier"
  FROM "_clf_part1"
  UNION ALL
  SELECT
    "model",
    CAST(NULL AS DOUBLE) AS "accuracy",
    CAST(NULL AS DOUBLE) AS "balanced_accuracy",
    CAST(NULL AS DOUBLE) AS "precision",
    CAST(NULL AS DOUBLE) AS "recall",
    CAST(NULL AS DOUBLE) AS "f1",
    CAST(NULL AS DOUBLE) AS "mcc",
    CAST(NULL AS DOUBLE) AS "auroc",
    CAST(NULL AS DOUBLE) AS "average_precision",
    "log_loss",
    "brier"
  FROM "_clf_part2"
), "_clf_r" AS (
  SELECT
    "model",
    MAX("accuracy") AS "accuracy",
    MAX("balanced_accuracy") AS "balanced_accuracy",
    MAX("precision") AS "precision",
    MAX("recall") AS "recall",
    MAX("f1") AS "f1",
    MAX("mcc") AS "mcc",
    MAX("auroc") AS "auroc",
    MAX("average_precision") AS "average_precision",
    MAX("log_loss") AS "log_loss",
    MAX("brier") AS "brier"
  FROM "_clf_parts"
  GROUP BY
    "model"
), "_clf_flags" AS (
  SELECT
    "model",
    "_clf_bad"
  FROM "_clf_bad0"
  UNION ALL
  SELECT
    "model",
    "_clf_bad"
  FROM "_clf_bad1"
  UNION ALL
  SELECT
    "model",
    "_clf_bad"
  FROM "_clf_bad2"
), "_clf_guard" AS (
  SELECT
    "model",
    MAX("_clf_bad") AS "_clf_bad"
  FROM "_clf_flags"
  GROUP BY
    "model"
)
SELECT
  "_clf_r"."model" AS "model",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."accuracy" END AS "accuracy",
  CASE
    WHEN "_clf_guard"."_clf_bad" = 1
    THEN NULL
    ELSE "_clf_r"."balanced_accuracy"
  END AS "balanced_accuracy",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."precision" END AS "precision",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."recall" END AS "recall",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."f1" END AS "f1",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."mcc" END AS "mcc",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."auroc" END AS "auroc",
  CASE
    WHEN "_clf_guard"."_clf_bad" = 1
    THEN NULL
    ELSE "_clf_r"."average_precision"
  END AS "average_precision",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."log_loss" END AS "log_loss",
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."brier" END AS "brier"
FROM "_clf_r"
LEFT JOIN "_clf_guard"
  ON "_clf_r"."model" IS NOT DISTINCT FROM "_clf_guard"."model"
ORDER BY
  "_clf_r"."model" ASC
