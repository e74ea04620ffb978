WITH `_clf_ssrc` AS (
  SELECT
    `model`,
    `segment`,
    CAST(`score` AS FLOAT64) AS `_clf_s`,
    CASE WHEN `label` = 1 THEN 1 ELSE 0 END AS `_clf_pos`,
    CASE WHEN `label` = 1 THEN 0 ELSE 1 END AS `_clf_neg`
  FROM `lake`.`preds`
  WHERE
    NOT `label` IS NULL
    AND NOT `score` IS NULL
    AND NOT IS_NAN(CAST(`score` AS FLOAT64))
), `_clf_pts` AS (
  SELECT
    `model`,
    `segment`,
    `_clf_s`,
    CAST(SUM(`_clf_pos`) AS INT64) AS `_clf_dp`,
    CAST(SUM(`_clf_neg`) AS INT64) AS `_clf_dn`
  FROM `_clf_ssrc`
  GROUP BY
    `model`,
    `segment`,
    `_clf_s`
), `_clf_cum` AS (
  SELECT
    `model`,
    `segment`,
    `_clf_s`,
    `_clf_dp`,
    `_clf_dn`,
    CAST(SUM(`_clf_dp`) OVER (
      PARTITION BY `model`, `segment`
      ORDER BY `_clf_s` DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS INT64) AS `_clf_tp`,
    CAST(SUM(`_clf_dn`) OVER (
      PARTITION BY `model`, `segment`
      ORDER BY `_clf_s` DESC
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS INT64) AS `_clf_fp`,
    ROW_NUMBER() OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_s` DESC) AS `_clf_i`
  FROM `_clf_pts`
), `_clf_tot` AS (
  SELECT
    `model`,
    `segment`,
    `_clf_s`,
    `_clf_dp`,
    `_clf_dn`,
    `_clf_tp`,
    `_clf_fp`,
    `_clf_i`,
    MAX(`_clf_tp`) OVER (PARTITION BY `model`, `segment`) AS `_clf_npos`,
    MAX(`_clf_fp`) OVER (PARTITION BY `model`, `segment`) AS `_clf_nneg`
  FROM `_clf_cum`
), `_clf_tot_k` AS (
  SELECT
    `model`,
    `segment`,
    `_clf_s`,
    `_clf_tp`,
    `_clf_fp`,
    `_clf_npos`,
    `_clf_nneg`,
    `_clf_i`,
    (
      (
        LAG(`_clf_tp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST) IS NULL
      )
      OR (
        LEAD(`_clf_tp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST) IS NULL
      )
    )
    OR (
      (
        LEAD(`_clf_tp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST) - `_clf_tp`
      ) - (
        `_clf_tp` - LAG(`_clf_tp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST)
      )
    ) <> 0
    OR (
      (
        LEAD(`_clf_fp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST) - `_clf_fp`
      ) - (
        `_clf_fp` - LAG(`_clf_fp`) OVER (PARTITION BY `model`, `segment` ORDER BY `_clf_i` ASC NULLS LAST)
      )
    ) <> 0 AS `_clf_keep`
  FROM `_clf_tot`
), `_clf_roc` AS (
  SELECT
    `model`,
    `segment`,
    `_clf_s`,
    `_clf_tp`,
    `_clf_fp`,
    `_clf_npos`,
    `_clf_nneg`,
    `_clf_i`
  FROM `_clf_tot_k`
  WHERE
    `_clf_keep`
  UNION ALL
  SELECT
    `model`,
    `segment`,
    CAST('inf' AS FLOAT64) AS `_clf_s`,
    CAST(0 AS INT64) AS `_clf_tp`,
    CAST(0 AS INT64) AS `_clf_fp`,
    `_clf_npos`,
    `_clf_nneg`,
    0 AS `_clf_i`
  FROM `_clf_tot`
  WHERE
    `_clf_i` = 1
)
SELECT
  `model`,
  `segment`,
  `_clf_s` AS `threshold`,
  CASE
    WHEN `_clf_nneg` = 0
    THEN NULL
    ELSE CAST(`_clf_fp` AS FLOAT64) / CAST(`_clf_nneg` AS FLOAT64)
  END AS `fpr`,
  CASE
    WHEN `_clf_npos` = 0
    THEN NULL
    ELSE CAST(`_clf_tp` AS FLOAT64) / CAST(`_clf_npos` AS FLOAT64)
  END AS `tpr`
FROM `_clf_roc`
ORDER BY
  `model` ASC NULLS LAST,
  `segment` ASC NULLS LAST,
  `_clf_i` ASC NULLS LAST
