WITH "_clf_bad0" AS (
  SELECT
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
    AND NOT IS_NAN(CAST("score" AS DOUBLE))
), "_clf_ssrc" AS (
  SELECT
    CAST("score" AS DOUBLE) AS "_clf_s",
    CASE WHEN "label" = 1 THEN CAST("n" AS DOUBLE) ELSE CAST(0 AS DOUBLE) END AS "_clf_pos",
    CASE WHEN "label" = 1 THEN CAST(0 AS DOUBLE) ELSE CAST("n" AS DOUBLE) END AS "_clf_neg"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "score" IS NULL
    AND NOT "n" IS NULL
    AND NOT IS_NAN(CAST("score" AS DOUBLE))
), "_clf_pts" AS (
  SELECT
    "_clf_s",
    CAST(SUM("_clf_pos") AS DOUBLE) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS DOUBLE) AS "_clf_dn"
  FROM "_clf_ssrc"
  GROUP BY
    "_clf_s"
), "_clf_cum" AS (
  SELECT
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (ORDER BY "_clf_s" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (ORDER BY "_clf_s" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS DOUBLE) AS "_clf_fp",
    ROW_NUMBER() OVER (ORDER BY "_clf_s" DESC) AS "_clf_i"
  FROM "_clf_pts"
), "_clf_tot" AS (
  SELECT
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    "_clf_tp",
    "_clf_fp",
    "_clf_i",
    MAX("_clf_tp") OVER () AS "_clf_npos",
    MAX("_clf_fp") OVER () AS "_clf_nneg"
  FROM "_clf_cum"
), "_clf_area" AS (
  SELECT
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
    CAST(MAX("_clf_nneg") AS DOUBLE) AS "_clf_nneg",
    SUM(
      CASE
        WHEN CASE
          WHEN CAST("_clf_nneg" AS DOUBLE) = 0
          THEN NULL
          ELSE CAST("_clf_fp" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
        END <= CAST('0.1' AS DOUBLE)
        THEN (
          (
            CASE
              WHEN CAST("_clf_nneg" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST("_clf_fp" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
            END - CASE
              WHEN CAST("_clf_nneg" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
            END
          ) * (
            CASE
              WHEN CAST("_clf_npos" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST("_clf_tp" AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
            END + CASE
              WHEN CAST("_clf_npos" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_tp" AS DOUBLE) - CAST("_clf_dp" AS DOUBLE) AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
            END
          )
        ) / CAST(2 AS DOUBLE)
        WHEN CASE
          WHEN CAST("_clf_nneg" AS DOUBLE) = 0
          THEN NULL
          ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
        END <= CAST('0.1' AS DOUBLE)
        THEN (
          (
            CAST('0.1' AS DOUBLE) - CASE
              WHEN CAST("_clf_nneg" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
            END
          ) * (
            CASE
              WHEN CAST("_clf_npos" AS DOUBLE) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_tp" AS DOUBLE) - CAST("_clf_dp" AS DOUBLE) AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
            END + (
              (
                CASE
                  WHEN (
                    CASE
                      WHEN CAST("_clf_nneg" AS DOUBLE) = 0
                      THEN NULL
                      ELSE CAST("_clf_fp" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
                    END - CASE
                      WHEN CAST("_clf_nneg" AS DOUBLE) = 0
                      THEN NULL
                      ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
                    END
                  ) = 0
                  THEN NULL
                  ELSE CAST(CASE
                    WHEN CAST("_clf_npos" AS DOUBLE) = 0
                    THEN NULL
                    ELSE CAST("_clf_tp" AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
                  END - CASE
                    WHEN CAST("_clf_npos" AS DOUBLE) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_tp" AS DOUBLE) - CAST("_clf_dp" AS DOUBLE) AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
                  END AS DOUBLE) / CAST(CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE) = 0
                    THEN NULL
                    ELSE CAST("_clf_fp" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
                  END - CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
                  END AS DOUBLE)
                END * (
                  CAST('0.1' AS DOUBLE) - CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_fp" AS DOUBLE) - CAST("_clf_dn" AS DOUBLE) AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
                  END
                )
              ) + CASE
                WHEN CAST("_clf_npos" AS DOUBLE) = 0
                THEN NULL
                ELSE CAST(CAST("_clf_tp" AS DOUBLE) - CAST("_clf_dp" AS DOUBLE) AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
              END
            )
          )
        ) / CAST(2 AS DOUBLE)
        ELSE CAST(0 AS DOUBLE)
      END
    ) AS "_clf_parea"
  FROM "_clf_tot"
), "_clf_r" AS (
  SELECT
    CASE
      WHEN "_clf_npos" = 0 OR "_clf_nneg" = 0
      THEN CAST(NULL AS DOUBLE)
      ELSE CAST('0.5' AS DOUBLE) * (
        CAST(1 AS DOUBLE) + (
          CAST((
            "_clf_parea" - CAST('0.005000000000000001' AS DOUBLE)
          ) AS DOUBLE) / (
            CAST('0.1' AS DOUBLE) - CAST('0.005000000000000001' AS DOUBLE)
          )
        )
      )
    END AS "auroc"
  FROM "_clf_area"
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
  CASE WHEN "_clf_guard"."_clf_bad" = 1 THEN NULL ELSE "_clf_r"."auroc" END AS "auroc"
FROM "_clf_r"
CROSS JOIN "_clf_guard"
