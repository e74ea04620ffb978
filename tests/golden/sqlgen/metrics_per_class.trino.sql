WITH "_clf_csrc" AS (
  SELECT
    "model",
    CASE WHEN "label" = 'a' THEN 1 WHEN "label" = 'b' THEN 2 WHEN "label" = 'c' THEN 3 END AS "_clf_yk",
    1 AS "_clf_w",
    CAST("p_a" AS DOUBLE) AS "_clf_p1",
    CAST("p_b" AS DOUBLE) AS "_clf_p2",
    CAST("p_c" AS DOUBLE) AS "_clf_p3"
  FROM "preds"
  WHERE
    (
      NOT "label" IS NULL
      AND NOT "p_a" IS NULL
      AND NOT "p_b" IS NULL
      AND NOT "p_c" IS NULL
      AND NOT IS_NAN(CAST("p_a" AS DOUBLE))
      AND NOT IS_NAN(CAST("p_b" AS DOUBLE))
      AND NOT IS_NAN(CAST("p_c" AS DOUBLE))
    )
    AND "label" IN ('a', 'b', 'c')
), "_clf_clong" AS (
  SELECT
    "model",
    1 AS "_clf_k",
    "_clf_yk",
    "_clf_p1" AS "_clf_s",
    CASE WHEN "_clf_yk" = 1 THEN "_clf_w" ELSE 0 END AS "_clf_pos",
    CASE WHEN "_clf_yk" = 1 THEN 0 ELSE "_clf_w" END AS "_clf_neg"
  FROM "_clf_csrc"
  UNION ALL
  SELECT
    "model",
    2 AS "_clf_k",
    "_clf_yk",
    "_clf_p2" AS "_clf_s",
    CASE WHEN "_clf_yk" = 2 THEN "_clf_w" ELSE 0 END AS "_clf_pos",
    CASE WHEN "_clf_yk" = 2 THEN 0 ELSE "_clf_w" END AS "_clf_neg"
  FROM "_clf_csrc"
  UNION ALL
  SELECT
    "model",
    3 AS "_clf_k",
    "_clf_yk",
    "_clf_p3" AS "_clf_s",
    CASE WHEN "_clf_yk" = 3 THEN "_clf_w" ELSE 0 END AS "_clf_pos",
    CASE WHEN "_clf_yk" = 3 THEN 0 ELSE "_clf_w" END AS "_clf_neg"
  FROM "_clf_csrc"
), "_clf_cls" AS (
  SELECT
    1 AS "_clf_j"
  UNION ALL
  SELECT
    2 AS "_clf_j"
  UNION ALL
  SELECT
    3 AS "_clf_j"
), "_clf_olong" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
    "_clf_s",
    "_clf_pos",
    "_clf_neg"
  FROM "_clf_clong"
  JOIN "_clf_cls"
    ON "_clf_j" <> "_clf_k" AND (
      "_clf_yk" = "_clf_k" OR "_clf_yk" = "_clf_j"
    )
), "_clf_ovo_pts" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
    "_clf_s",
    CAST(SUM("_clf_pos") AS BIGINT) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS BIGINT) AS "_clf_dn"
  FROM "_clf_olong"
  GROUP BY
    "model",
    "_clf_k",
    "_clf_j",
    "_clf_s"
), "_clf_ovo_cum" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (
      PARTITION BY "model", "_clf_k", "_clf_j"
      ORDER BY "_clf_s" DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BIGINT) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (
      PARTITION BY "model", "_clf_k", "_clf_j"
      ORDER BY "_clf_s" DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BIGINT) AS "_clf_fp",
    ROW_NUMBER() OVER (PARTITION BY "model", "_clf_k", "_clf_j" ORDER BY "_clf_s" DESC) AS "_clf_i"
  FROM "_clf_ovo_pts"
), "_clf_ovo_tot" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    "_clf_tp",
    "_clf_fp",
    "_clf_i",
    MAX("_clf_tp") OVER (PARTITION BY "model", "_clf_k", "_clf_j") AS "_clf_npos",
    MAX("_clf_fp") OVER (PARTITION BY "model", "_clf_k", "_clf_j") AS "_clf_nneg"
  FROM "_clf_ovo_cum"
), "_clf_ovo_area" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
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
  FROM "_clf_ovo_tot"
  GROUP BY
    "model",
    "_clf_k",
    "_clf_j"
), "_clf_ovov" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_j",
    CASE
      WHEN "_clf_npos" = 0 OR "_clf_nneg" = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE "_clf_area" / CAST(2 AS DOUBLE)
    END AS "auroc",
    "_clf_npos" AS "_clf_npos",
    "_clf_nneg" AS "_clf_nneg"
  FROM "_clf_ovo_area"
), "_clf_ovob" AS (
  SELECT
    "model",
    CASE WHEN "_clf_k" < "_clf_j" THEN "_clf_k" ELSE "_clf_j" END AS "_clf_a",
    CASE WHEN "_clf_k" < "_clf_j" THEN "_clf_j" ELSE "_clf_k" END AS "_clf_b",
    "auroc",
    "_clf_npos" + "_clf_nneg" AS "_clf_both"
  FROM "_clf_ovov"
), "_clf_pairs" AS (
  SELECT
    "model",
    CASE
      WHEN COUNT("auroc") = 2
      THEN SUM("auroc") / CAST(2 AS DOUBLE)
      ELSE CAST(NULL AS DOUBLE)
    END AS "auroc",
    MAX("_clf_both") AS "_clf_both"
  FROM "_clf_ovob"
  GROUP BY
    "model",
    "_clf_a",
    "_clf_b"
), "_clf_ovr_pts" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_s",
    CAST(SUM("_clf_pos") AS BIGINT) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS BIGINT) AS "_clf_dn"
  FROM "_clf_clong"
  GROUP BY
    "model",
    "_clf_k",
    "_clf_s"
), "_clf_ovr_cum" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (
      PARTITION BY "model", "_clf_k"
      ORDER BY "_clf_s" DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BIGINT) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (
      PARTITION BY "model", "_clf_k"
      ORDER BY "_clf_s" DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS BIGINT) AS "_clf_fp",
    ROW_NUMBER() OVER (PARTITION BY "model", "_clf_k" ORDER BY "_clf_s" DESC) AS "_clf_i"
  FROM "_clf_ovr_pts"
), "_clf_ovr_tot" AS (
  SELECT
    "model",
    "_clf_k",
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    "_clf_tp",
    "_clf_fp",
    "_clf_i",
    MAX("_clf_tp") OVER (PARTITION BY "model", "_clf_k") AS "_clf_npos",
    MAX("_clf_fp") OVER (PARTITION BY "model", "_clf_k") AS "_clf_nneg"
  FROM "_clf_ovr_cum"
), "_clf_ovr_area" AS (
  SELECT
    "model",
    "_clf_k",
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
  FROM "_clf_ovr_tot"
  GROUP BY
    "model",
    "_clf_k"
), "_clf_ovrv" AS (
  SELECT
    "model",
    "_clf_k",
    CASE
      WHEN "_clf_npos" = 0
      THEN NULL
      ELSE CAST("_clf_ap" AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
    END AS "average_precision",
    "_clf_npos" AS "_clf_npos"
  FROM "_clf_ovr_area"
), "_clf_bad0" AS (
  SELECT
    "model",
    MAX(
      CASE
        WHEN (
          CAST("p_a" AS DOUBLE) < CAST(0 AS DOUBLE)
          OR CAST("p_a" AS DOUBLE) > CAST(1 AS DOUBLE)
        )
        OR (
          CAST("p_b" AS DOUBLE) < CAST(0 AS DOUBLE)
          OR CAST("p_b" AS DOUBLE) > CAST(1 AS DOUBLE)
        )
        OR (
          CAST("p_c" AS DOUBLE) < CAST(0 AS DOUBLE)
          OR CAST("p_c" AS DOUBLE) > CAST(1 AS DOUBLE)
        )
        THEN 1
        ELSE 0
      END
    ) AS "_clf_bad"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "p_a" IS NULL
    AND NOT "p_b" IS NULL
    AND NOT "p_c" IS NULL
    AND NOT IS_NAN(CAST("p_a" AS DOUBLE))
    AND NOT IS_NAN(CAST("p_b" AS DOUBLE))
    AND NOT IS_NAN(CAST("p_c" AS DOUBLE))
  GROUP BY
    "model"
), "_clf_cpsrc" AS (
  SELECT
    "model",
    CASE WHEN "label" = 'a' THEN 1 WHEN "label" = 'b' THEN 2 WHEN "label" = 'c' THEN 3 END AS "_clf_yk",
    1 AS "_clf_w",
    CAST("p_a" AS DOUBLE) AS "_clf_p1",
    CAST("p_b" AS DOUBLE) AS "_clf_p2",
    CAST("p_c" AS DOUBLE) AS "_clf_p3"
  FROM "preds"
  WHERE
    (
      NOT "label" IS NULL
      AND NOT "p_a" IS NULL
      AND NOT "p_b" IS NULL
      AND NOT "p_c" IS NULL
      AND NOT IS_NAN(CAST("p_a" AS DOUBLE))
      AND NOT IS_NAN(CAST("p_b" AS DOUBLE))
      AND NOT IS_NAN(CAST("p_c" AS DOUBLE))
    )
    AND "label" IN ('a', 'b', 'c')
), "_clf_part0" AS (
  SELECT
    "model",
    CASE
      WHEN SUM(CASE WHEN NOT "auroc" IS NULL THEN CAST("_clf_both" AS DOUBLE) END) = 0
      THEN NULL
      ELSE CAST(SUM("auroc" * CAST("_clf_both" AS DOUBLE)) AS DOUBLE) / CAST(SUM(CASE WHEN NOT "auroc" IS NULL THEN CAST("_clf_both" AS DOUBLE) END) AS DOUBLE)
    END AS "auroc"
  FROM "_clf_pairs"
  GROUP BY
    "model"
), "_clf_part1" AS (
  SELECT
    "model",
    CASE
      WHEN SUM(CASE WHEN NOT "average_precision" IS NULL THEN CAST("_clf_npos" AS DOUBLE) END) = 0
      THEN NULL
      ELSE CAST(SUM("average_precision" * CAST("_clf_npos" AS DOUBLE)) AS DOUBLE) / CAST(SUM(CASE WHEN NOT "average_precision" IS NULL THEN CAST("_clf_npos" AS DOUBLE) END) AS DOUBLE)
    END AS "average_precision"
  FROM "_clf_ovrv"
  GROUP BY
    "model"
), "_clf_part2" AS (
  SELECT
    "model",
    CASE
      WHEN SUM(CAST("_clf_w" AS DOUBLE)) = 0
      THEN NULL
      ELSE CAST(SUM(
        CAST("_clf_w" AS DOUBLE) * -LN(
          CASE
            WHEN "_clf_yk" = 1
            THEN CASE
              WHEN "_clf_p1" < CAST('2.220446049250313e-16' AS DOUBLE)
              THEN CAST('2.220446049250313e-16' AS DOUBLE)
              WHEN "_clf_p1" > CAST('0.9999999999999998' AS DOUBLE)
              THEN CAST('0.9999999999999998' AS DOUBLE)
              ELSE "_clf_p1"
            END
            WHEN "_clf_yk" = 2
            THEN CASE
              WHEN "_clf_p2" < CAST('2.220446049250313e-16' AS DOUBLE)
              THEN CAST('2.220446049250313e-16' AS DOUBLE)
              WHEN "_clf_p2" > CAST('0.9999999999999998' AS DOUBLE)
              THEN CAST('0.9999999999999998' AS DOUBLE)
              ELSE "_clf_p2"
            END
            WHEN "_clf_yk" = 3
            THEN CASE
              WHEN "_clf_p3" < CAST('2.220446049250313e-16' AS DOUBLE)
              THEN CAST('2.220446049250313e-16' AS DOUBLE)
              WHEN "_clf_p3" > CAST('0.9999999999999998' AS DOUBLE)
              THEN CAST('0.9999999999999998' AS DOUBLE)
              ELSE "_clf_p3"
            END
          END
        )
      ) AS DOUBLE) / CAST(SUM(CAST("_clf_w" AS DOUBLE)) AS DOUBLE)
    END AS "log_loss",
    CASE
      WHEN SUM(CAST("_clf_w" AS DOUBLE)) = 0
      THEN NULL
      ELSE CAST(SUM(
        CAST("_clf_w" AS DOUBLE) * (
          (
            (
              (
                CASE WHEN "_clf_yk" = 1 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p1"
              ) * (
                CASE WHEN "_clf_yk" = 1 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p1"
              )
            ) + (
              (
                CASE WHEN "_clf_yk" = 2 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p2"
              ) * (
                CASE WHEN "_clf_yk" = 2 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p2"
              )
            )
          ) + (
            (
              CASE WHEN "_clf_yk" = 3 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p3"
            ) * (
              CASE WHEN "_clf_yk" = 3 THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END - "_clf_p3"
            )
          )
        )
      ) AS DOUBLE) / CAST(SUM(CAST("_clf_w" AS DOUBLE)) AS DOUBLE)
    END AS "brier"
  FROM "_clf_cpsrc"
  GROUP BY
    "model"
), "_clf_parts" AS (
  SELECT
    "model",
    "auroc",
    CAST(NULL AS DOUBLE) AS "average_precision",
    CAST(NULL AS DOUBLE) AS "log_loss",
    CAST(NULL AS DOUBLE) AS "brier"
  FROM "_clf_part0"
  UNION ALL
  SELECT
    "model",
    CAST(NULL AS DOUBLE) AS "auroc",
    "average_precision",
    CAST(NULL AS DOUBLE) AS "log_loss",
    CAST(NULL AS DOUBLE) AS "brier"
  FROM "_clf_part1"
  UNION ALL
  SELECT
    "model",
    CAST(NULL AS DOUBLE) AS "auroc",
    CAST(NULL AS DOUBLE) AS "average_precision",
    "log_loss",
    "brier"
  FROM "_clf_part2"
), "_clf_r" AS (
  SELECT
    "model",
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
