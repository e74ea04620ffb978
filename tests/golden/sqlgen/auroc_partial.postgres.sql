WITH "_clf_bad0" AS (
  SELECT
    MAX(
      CASE
        WHEN CAST("n" AS DOUBLE PRECISION) < CAST(0 AS DOUBLE PRECISION)
        OR NOT (
          (
            CAST("n" AS DOUBLE PRECISION) - CAST("n" AS DOUBLE PRECISION)
          ) = CAST(0 AS DOUBLE PRECISION)
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
    AND NOT CAST("score" AS DOUBLE PRECISION) = CAST('NaN' AS DOUBLE PRECISION)
), "_clf_ssrc" AS (
  SELECT
    CAST("score" AS DOUBLE PRECISION) AS "_clf_s",
    CASE
      WHEN "label" = 1
      THEN CAST("n" AS DOUBLE PRECISION)
      ELSE CAST(0 AS DOUBLE PRECISION)
    END AS "_clf_pos",
    CASE
      WHEN "label" = 1
      THEN CAST(0 AS DOUBLE PRECISION)
      ELSE CAST("n" AS DOUBLE PRECISION)
    END AS "_clf_neg"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "score" IS NULL
    AND NOT "n" IS NULL
    AND NOT CAST("score" AS DOUBLE PRECISION) = CAST('NaN' AS DOUBLE PRECISION)
), "_clf_pts" AS (
  SELECT
    "_clf_s",
    CAST(SUM("_clf_pos") AS DOUBLE PRECISION) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS DOUBLE PRECISION) AS "_clf_dn"
  FROM "_clf_ssrc"
  GROUP BY
    "_clf_s"
), "_clf_cum" AS (
  SELECT
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (
      ORDER BY "_clf_s" DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE PRECISION) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (
      ORDER BY "_clf_s" DESC NULLS LAST
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS DOUBLE PRECISION) AS "_clf_fp",
    ROW_NUMBER() OVER (ORDER BY "_clf_s" DESC NULLS LAST) AS "_clf_i"
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
        WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
        THEN NULL
        ELSE CAST("_clf_dn" AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
      END * CASE
        WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
        THEN NULL
        ELSE CAST((
          CAST(2 AS DOUBLE PRECISION) * CAST("_clf_tp" AS DOUBLE PRECISION)
        ) - CAST("_clf_dp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
      END
    ) AS "_clf_area",
    SUM(
      CAST("_clf_dp" AS DOUBLE PRECISION) * CASE
        WHEN (
          CAST("_clf_tp" AS DOUBLE PRECISION) + CAST("_clf_fp" AS DOUBLE PRECISION)
        ) = 0
        THEN CAST(0 AS DOUBLE PRECISION)
        ELSE CAST("_clf_tp" AS DOUBLE PRECISION) / CAST(CAST("_clf_tp" AS DOUBLE PRECISION) + CAST("_clf_fp" AS DOUBLE PRECISION) AS DOUBLE PRECISION)
      END
    ) AS "_clf_ap",
    CAST(MAX("_clf_npos") AS DOUBLE PRECISION) AS "_clf_npos",
    CAST(MAX("_clf_nneg") AS DOUBLE PRECISION) AS "_clf_nneg",
    SUM(
      CASE
        WHEN CASE
          WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
          THEN NULL
          ELSE CAST("_clf_fp" AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
        END <= CAST('0.1' AS DOUBLE PRECISION)
        THEN (
          (
            CASE
              WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST("_clf_fp" AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
            END - CASE
              WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
            END
          ) * (
            CASE
              WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST("_clf_tp" AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
            END + CASE
              WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_tp" AS DOUBLE PRECISION) - CAST("_clf_dp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
            END
          )
        ) / CAST(2 AS DOUBLE PRECISION)
        WHEN CASE
          WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
          THEN NULL
          ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
        END <= CAST('0.1' AS DOUBLE PRECISION)
        THEN (
          (
            CAST('0.1' AS DOUBLE PRECISION) - CASE
              WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
            END
          ) * (
            CASE
              WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
              THEN NULL
              ELSE CAST(CAST("_clf_tp" AS DOUBLE PRECISION) - CAST("_clf_dp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
            END + (
              (
                CASE
                  WHEN (
                    CASE
                      WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
                      THEN NULL
                      ELSE CAST("_clf_fp" AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
                    END - CASE
                      WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
                      THEN NULL
                      ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
                    END
                  ) = 0
                  THEN NULL
                  ELSE CAST(CASE
                    WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
                    THEN NULL
                    ELSE CAST("_clf_tp" AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
                  END - CASE
                    WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_tp" AS DOUBLE PRECISION) - CAST("_clf_dp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
                  END AS DOUBLE PRECISION) / CAST(CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
                    THEN NULL
                    ELSE CAST("_clf_fp" AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
                  END - CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
                  END AS DOUBLE PRECISION)
                END * (
                  CAST('0.1' AS DOUBLE PRECISION) - CASE
                    WHEN CAST("_clf_nneg" AS DOUBLE PRECISION) = 0
                    THEN NULL
                    ELSE CAST(CAST("_clf_fp" AS DOUBLE PRECISION) - CAST("_clf_dn" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_nneg" AS DOUBLE PRECISION)
                  END
                )
              ) + CASE
                WHEN CAST("_clf_npos" AS DOUBLE PRECISION) = 0
                THEN NULL
                ELSE CAST(CAST("_clf_tp" AS DOUBLE PRECISION) - CAST("_clf_dp" AS DOUBLE PRECISION) AS DOUBLE PRECISION) / CAST("_clf_npos" AS DOUBLE PRECISION)
              END
            )
          )
        ) / CAST(2 AS DOUBLE PRECISION)
        ELSE CAST(0 AS DOUBLE PRECISION)
      END
    ) AS "_clf_parea"
  FROM "_clf_tot"
), "_clf_r" AS (
  SELECT
    CASE
      WHEN "_clf_npos" = 0 OR "_clf_nneg" = 0
      THEN CAST(NULL AS DOUBLE PRECISION)
      ELSE CAST('0.5' AS DOUBLE PRECISION) * (
        CAST(1 AS DOUBLE PRECISION) + (
          CAST((
            "_clf_parea" - CAST('0.005000000000000001' AS DOUBLE PRECISION)
          ) AS DOUBLE PRECISION) / (
            CAST('0.1' AS DOUBLE PRECISION) - CAST('0.005000000000000001' AS DOUBLE PRECISION)
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
