// Peer: DuckDB's read_json over the gzip'd JSON lines with the jq filter's predicate.
// Only the columns the filter needs are declared (DuckDB's fastest path); threads=1 because
// a 1,769 MB Lambda has one vCPU. The json extension is statically linked: nothing is
// downloaded (autoinstall is off, so a missing extension fails instead of fetching).
import { DuckDBInstance } from '@duckdb/node-api';

const file = process.argv[2];
const threads = process.argv[3] ?? '1';
const db = await DuckDBInstance.create(':memory:', { threads, autoinstall_known_extensions: 'false' });
const con = await db.connect();
const sql = `SELECT count(*) AS records, count(*) FILTER (WHERE objectRef.resource = 'pods') AS pods
  FROM read_json('${file.replace(/'/g, "''")}', format = 'newline_delimited', compression = 'gzip',
    columns = {auditID: 'VARCHAR', stage: 'VARCHAR', verb: 'VARCHAR', objectRef: 'STRUCT(resource VARCHAR, namespace VARCHAR, name VARCHAR)'},
    maximum_object_size = 67108864)`;
const rows = (await con.runAndReadAll(sql)).getRowObjects();
const r = rows[0];
process.stdout.write(
  JSON.stringify({
    records: Number(r.records),
    pods: Number(r.pods),
    maxRssKB: process.resourceUsage().maxRSS,
    threads: Number(threads),
  }) + '\n',
);
