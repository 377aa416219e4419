/**
 * The floor of the query benchmark's HTTP way: runHogQLQuery() (parsing, compiling, the read session, the
 * rows' output values) behind a bare node:http server, with no Koa, no openapi-backend, no key and no
 * validation. It answers `POST <anything>` with a body `{"query": {"query": …, "values": …}}` for the first
 * environment of DATABASE_URL as environments_query_create does, with the query timeout of
 * HEDGEROW_QUERY_TIMEOUT_MS. What Hedgerow's server adds to it is the share of its framework. Prints its base URL.
 */
import { createServer } from 'node:http';
import { createDb, createReadDb } from '../../db/pg/client.js';
import { runHogQLQuery, type HogQLQueryInput } from '../../db/queries/query/hogql-query.js';
import { DEFAULT_RESULT_MAX_BYTES } from '../../db/queries/query/execute.js';
import type { EnvironmentRow } from '../../db/rows.js';

const TIMEOUT_MS = Number(process.env.HEDGEROW_QUERY_TIMEOUT_MS ?? 15_000);

const db = createDb(process.env.DATABASE_URL!, { poolMax: 1 });
const reader = createReadDb(db, TIMEOUT_MS);
const environment = (await db('environments').orderBy('id').first()) as EnvironmentRow;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    // A body that is not the request the benchmark sends is the client's mistake: a 400, not a dead server.
    let query: HogQLQueryInput;
    try {
      query = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { query: HogQLQueryInput }).query;
      if (typeof query !== 'object' || query === null || typeof query.query !== 'string') throw new Error('no query.query text');
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`The body must be {"query": {"query": <HogQL text>}}: ${String(error)}`);
      return;
    }
    runHogQLQuery(reader, environment, query, { timeoutMs: TIMEOUT_MS, maxResultBytes: DEFAULT_RESULT_MAX_BYTES })
      .then((result) => {
        const body = Buffer.from(JSON.stringify({ ...result, query_status: null }));
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
        res.end(body);
      })
      .catch((error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => {
    void reader
      .destroy()
      .then(() => db.destroy())
      .then(() => process.exit(0));
  });
});
