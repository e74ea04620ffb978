WITH "_clf_ssrc" AS (
  SELECT
    CAST("score" AS DOUBLE) AS "_clf_s",
    CASE WHEN "label" = 1 THEN 1 ELSE 0 END AS "_clf_pos",
    CASE WHEN "label" = 1 THEN 0 ELSE 1 END AS "_clf_neg"
  FROM "preds"
  WHERE
    NOT "label" IS NULL
    AND NOT "score" IS NULL
    AND NOT IS_NAN(CAST("score" AS DOUBLE))
), "_clf_pts" AS (
  SELECT
    "_clf_s",
    CAST(SUM("_clf_pos") AS BIGINT) AS "_clf_dp",
    CAST(SUM("_clf_neg") AS BIGINT) AS "_clf_dn"
  FROM "_clf_ssrc"
  GROUP BY
    "_clf_s"
), "_clf_cum" AS (
  SELECT
    "_clf_s",
    "_clf_dp",
    "_clf_dn",
    CAST(SUM("_clf_dp") OVER (ORDER BY "_clf_s" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS "_clf_tp",
    CAST(SUM("_clf_dn") OVER (ORDER BY "_clf_s" DESC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS "_clf_fp",
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
), "_clf_det" AS (
  SELECT
    INFINITY() AS "_clf_s",
    CAST(0 AS BIGINT) AS "_clf_tp",
    CAST(0 AS BIGINT) AS "_clf_fp",
    "_clf_npos",
    "_clf_nneg",
    0 AS "_clf_i"
  FROM "_clf_tot"
  WHERE
    "_clf_i" = 1
  UNION ALL
  SELECT
    "_clf_s",
    "_clf_tp",
    "_clf_fp",
    "_clf_npos",
    "_clf_nneg",
    "_clf_i"
  FROM "_clf_tot"
), "_clf_det_k" AS (
  SELECT
    "_clf_s",
    "_clf_tp",
    "_clf_fp",
    "_clf_npos",
    "_clf_nneg",
    "_clf_i",
    (
      (
        LAG("_clf_tp") OVER (ORDER BY "_clf_i" ASC) IS NULL
      )
      OR (
        LEAD("_clf_tp") OVER (ORDER BY "_clf_i" ASC) IS NULL
      )
    )
    OR "_clf_tp" <> LAG("_clf_tp") OVER (ORDER BY "_clf_i" ASC)
    OR LEAD("_clf_tp") OVER (ORDER BY "_clf_i" ASC) <> "_clf_tp" AS "_clf_keep"
  FROM "_clf_det"
), "_clf_detk" AS (
  SELECT
    "_clf_s",
    "_clf_tp",
    "_clf_fp",
    "_clf_npos",
    "_clf_nneg",
    "_clf_i"
  FROM "_clf_det_k"
  WHERE
    "_clf_keep"
), "_clf_detn" AS (
  SELECT
    "_clf_s",
    "_clf_tp",
    "_clf_fp",
    "_clf_npos",
    "_clf_nneg",
    "_clf_i",
    LEAD("_clf_fp") OVER (ORDER BY "_clf_i" ASC) AS "_clf_nfp",
    LAG("_clf_tp") OVER (ORDER BY "_clf_i" ASC) AS "_clf_ptp"
  FROM "_clf_detk"
)
SELECT
  "_clf_s" AS "threshold",
  CASE
    WHEN "_clf_nneg" = 0
    THEN NULL
    ELSE CAST("_clf_fp" AS DOUBLE) / CAST("_clf_nneg" AS DOUBLE)
  END AS "fpr",
  CASE
    WHEN "_clf_npos" = 0
    THEN NULL
    ELSE CAST("_clf_npos" - "_clf_tp" AS DOUBLE) / CAST("_clf_npos" AS DOUBLE)
  END AS "fnr"
FROM "_clf_detn"
WHERE
  (
    (
      "_clf_fp" <> 0
    ) OR (
      "_clf_nfp" IS NULL
    ) OR "_clf_nfp" <> 0
  )
  AND (
    (
      "_clf_tp" <> "_clf_npos"
    )
    OR (
      "_clf_ptp" IS NULL
    )
    OR "_clf_ptp" <> "_clf_npos"
  )
ORDER BY
  "_clf_i" DESC
