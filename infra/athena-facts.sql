-- Athena table over the facts the ingest function writes (lib/facts/codec.ts), for ad-hoc
-- questions the alerts do not answer ("who patched broker pods last week?").
-- Replace BUCKET (and `facts/` if you changed the factsPrefix param), then run it once in
-- the Athena console or with `aws athena start-query-execution`.
--
-- Layout: s3://BUCKET/facts/cluster=<cluster>/hour=<yyyy-MM-dd-HH>/<digest>.jsonl.gz.
-- Partition projection reads that layout directly: no crawler, no MSCK REPAIR. The
-- cluster is "injected", so every query names it (WHERE cluster = '...'); names with
-- characters outside [A-Za-z0-9._-] are percent-encoded in keys and must be written so.
--
-- Each object starts with a header line (format, factsversion, source, etag, count); it
-- reads as a row whose `type` is NULL, so filter on `type IS NOT NULL` for facts. Nested
-- bodies (request, response, fields, webhooks) are kept as JSON text: use json_extract.
CREATE EXTERNAL TABLE IF NOT EXISTS koperator_audit_facts (
  `type` string,
  `at` string,
  src struct<source:string, line:int>,
  -- audit facts
  auditid string,
  stage string,
  level string,
  verb string,
  `user` string,
  doneat string,
  namespace string,
  name string,
  uid string,
  subresource string,
  code int,
  patchtype string,
  truncated boolean,
  graceperiodseconds int,
  request string,
  response string,
  webhooks string,
  -- operator facts
  msg string,
  kafkacluster string,
  pod string,
  brokerid string,
  fields string,
  -- header line
  format string,
  factsversion int,
  source string,
  etag string,
  count int
)
PARTITIONED BY (cluster string, hour string)
ROW FORMAT SERDE 'org.openx.data.jsonserde.JsonSerDe'
WITH SERDEPROPERTIES ('ignore.malformed.json' = 'true', 'case.insensitive' = 'true')
LOCATION 's3://BUCKET/facts/'
TBLPROPERTIES (
  'projection.enabled' = 'true',
  'projection.cluster.type' = 'injected',
  'projection.hour.type' = 'date',
  'projection.hour.format' = 'yyyy-MM-dd-HH',
  'projection.hour.range' = '2026-01-01-00,NOW',
  'projection.hour.interval' = '1',
  'projection.hour.interval.unit' = 'HOURS',
  'storage.location.template' = 's3://BUCKET/facts/cluster=${cluster}/hour=${hour}/'
);

-- Who deleted or evicted broker pods, per hour, over the last day:
--   SELECT hour, `user`, subresource, count(*) AS n
--   FROM koperator_audit_facts
--   WHERE cluster = 'eks-prod' AND hour >= date_format(now() - interval '1' day, '%Y-%m-%d-%H')
--     AND type = 'pod' AND (verb = 'delete' OR subresource = 'eviction')
--   GROUP BY 1, 2, 3 ORDER BY 1, 4 DESC;
--
-- Who patches broker pods besides the operator:
--   SELECT `user`, count(*) FROM koperator_audit_facts
--   WHERE cluster = 'eks-prod' AND type = 'pod' AND verb IN ('patch', 'update')
--     AND `user` NOT LIKE 'system:serviceaccount:%kafka-operator%'
--   GROUP BY 1 ORDER BY 2 DESC;
--
-- Which log objects were ingested, and how many facts each gave:
--   SELECT source, etag, sum(count) FROM koperator_audit_facts
--   WHERE cluster = 'eks-prod' AND type IS NULL GROUP BY 1, 2;
