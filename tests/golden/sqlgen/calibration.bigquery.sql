WITH `_clf_psrc` AS (
  SELECT
    CASE WHEN `label` = 'spam' THEN 1 ELSE 0 END AS `_clf_yb`,
    CAST(`p` AS FLOAT64) AS `_clf_pr`,
    CAST(1 AS FLOAT64) AS `_clf_w`
  FROM `preds`
  WHERE
    NOT `label` IS NULL AND NOT `p` IS NULL AND NOT IS_NAN(CAST(`p` AS FLOAT64))
), `_clf_bins` AS (
  SELECT
    CASE
      WHEN `_clf_pr` <= CAST('0.25' AS FLOAT64)
      THEN 0
      WHEN `_clf_pr` <= CAST('0.5' AS FLOAT64)
      THEN 1
      WHEN `_clf_pr` <= CAST('0.75' AS FLOAT64)
      THEN 2
      ELSE 3
    END AS `_clf_bin`,
    `_clf_pr`,
    `_clf_yb`,
    `_clf_w`
  FROM `_clf_psrc`
)
SELECT
  CAST(`_clf_bin` AS INT64) AS `bin`,
  CASE
    WHEN SUM(`_clf_w`) = 0
    THEN NULL
    ELSE CAST(SUM(`_clf_w` * `_clf_pr`) AS FLOAT64) / CAST(SUM(`_clf_w`) AS FLOAT64)
  END AS `mean_predicted`,
  CASE
    WHEN SUM(`_clf_w`) = 0
    THEN NULL
    ELSE CAST(SUM(`_clf_w` * `_clf_yb`) AS FLOAT64) / CAST(SUM(`_clf_w`) AS FLOAT64)
  END AS `fraction_positive`,
  CAST(SUM(`_clf_w`) AS INT64) AS `count`
FROM `_clf_bins`
GROUP BY
  `_clf_bin`
HAVING
  SUM(`_clf_w`) > 0
ORDER BY
  `bin` ASC NULLS LAST
