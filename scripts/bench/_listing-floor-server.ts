/**
 * The floor of the events benchmark's HTTP way: the listing itself (listEvents(): parameters, compiled query,
 * read session, shaping) behind a bare node:http server, with no Koa, no openapi-backend, no key and no
 * validation. What it adds to the in-process way is what HTTP costs here (the request, and the page of about
 * 75 kB, between processes); what Hedgerow's server adds to it is the share of its framework. It answers
 * `GET <anything>?<listing parameters>` for the first project of DATABASE_URL, the body as events_list
 * composes it (with events_list's own functions). Prints its base URL.
 */
import { createServer } from 'node:http';
import { createDb, createReadDb } from '../../db/pg/client.js';
import { listEvents } from '../../db/queries/events/listing.js';
import { parseEventListRequest, type EventListRequest } from '../../handlers/events/request.js';
import type { EnvironmentRow } from '../../db/rows.js';
import { eventsPageJson, nextLink } from '../../handlers/events.js';
import { eventJson } from '../../handlers/events/shape.js';

const TIMEOUT_MS = 15_000;

const db = createDb(process.env.DATABASE_URL!, { poolMax: 1 });
const reader = createReadDb(db, TIMEOUT_MS);
const environment = (await db('environments').orderBy('id').first()) as EnvironmentRow;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const query = Object.fromEntries(url.searchParams) as Record<string, string>;
  const request = { ...query, limit: Number(query.limit ?? 100), offset: 0 } as EventListRequest;
  Promise.resolve()
    .then(() => listEvents(reader, environment, parseEventListRequest(request, environment.timezone), TIMEOUT_MS))
    .then((page) => {
      if (page.kind !== 'events') throw new Error('the floor serves pages of events only');
      const next = page.nextCursor ? nextLink(url, page.nextCursor) : null;
      const body = Buffer.from(eventsPageJson(next, page.rows.map(eventJson)));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    })
    .catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
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
