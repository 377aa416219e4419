/**
 * Capture through HTTP, against the real app and database: every path, method and encoding the SDKs use, the
 * answers (each checked against the spec), and what lands in events, persons, groups and ingestion warnings.
 * Requests whose body Prism cannot read (gzip) go straight to the server and are checked against the spec here.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { clusterNodes } from '../../db/pg/citus.js';
import { CAPTURE_LOCK_CLASS } from '../../db/queries/ingestion.js';
import { captureRequests, ingestionWarnings as warnings, personOf, storedEvents as events, type Answer } from '../helpers/capture-requests.js';
import { ADMIN_URL, atTenantShard, testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/capture/${name}.json`, import.meta.url), 'utf8')) as { payload: any };

describe('capture', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const { direct, post } = captureRequests(() => server);

  const OK = { status: 1 };

  describe('capture_event_create', () => {
    it('stores one event with its properties, timestamp and a new person, and answers 200 {"status": 1}', async () => {
      const account = await newAccount(testDb());
      const res = await post('/i/v0/e/', {
        api_key: account.environment.api_token,
        event: '$pageview',
        distinct_id: 'user-1',
        properties: { $current_url: 'https://example.com/pricing', plan: 'free' },
        timestamp: '2026-11-20T10:00:00Z',
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(OK);
      const [row, ...rest] = await events(account);
      expect(rest).to.have.length(0);
      expect(row).to.deep.include({ event: '$pageview', distinct_id: 'user-1', historical_migration: false, elements_chain: '' });
      expect(row!.properties).to.deep.equal({ $current_url: 'https://example.com/pricing', plan: 'free' });
      expect(row!.timestamp.toISOString()).to.equal('2026-11-20T10:00:00.000Z');
      expect(row!.person_id).to.equal((await personOf(account, 'user-1'))!.uuid);
      const environment = await testDb()('environments').where({ id: account.environment.id }).first('ingested_event');
      expect(environment.ingested_event).to.equal(true);
    });

    it('answers 400 for malformed JSON, in the error format', async () => {
      const account = await newAccount(testDb());
      const res = await direct('POST', '/i/v0/e/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${account.environment.api_token}","event":`,
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.include({ type: 'validation_error', code: 'invalid_payload', attr: null });
      expect(res.body.detail).to.match(/^Malformed request data: Invalid JSON: /);
    });

    const unstorable: Array<{ name: string; properties: string; detail: string }> = [
      {
        name: 'properties nested more than 127 levels deep',
        properties: `{"deep":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        detail: 'Malformed request data: the JSON is nested more than 127 levels deep.',
      },
      {
        name: 'a number beyond the double range',
        properties: '{"n":1e400}',
        detail: 'Malformed request data: a number is out of range.',
      },
    ];
    for (const { name, properties, detail } of unstorable) {
      it(`answers 400 for ${name}, storing none of the batch`, async () => {
        const account = await newAccount(testDb());
        const res = await direct('POST', '/batch/', {
          headers: { 'content-type': 'application/json' },
          body: `{"api_key":"${account.environment.api_token}","batch":[{"event":"fine","distinct_id":"u"},{"event":"e","distinct_id":"u","properties":${properties}}]}`,
        });
        expect([res.status, res.body]).to.deep.equal([400, { type: 'validation_error', code: 'invalid_payload', detail, attr: null }]);
        expect(await events(account)).to.have.length(0);
      });
    }

    it('stores events 127 levels deep', async () => {
      const account = await newAccount(testDb());
      // The batch object, the list, the event and its properties are four levels: 123 more arrays make 127.
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${account.environment.api_token}","batch":[{"event":"deep","distinct_id":"u","properties":{"n":${'['.repeat(123)}${']'.repeat(123)}}}]}`,
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      const [stored] = await events(account);
      expect(JSON.stringify(stored!.properties.n)).to.equal(`${'['.repeat(123)}${']'.repeat(123)}`);
    });

    it('reads null api_key, token, $set and $set_once as absent', async () => {
      const account = await newAccount(testDb());
      const res = await post('/i/v0/e/', {
        api_key: null,
        token: account.environment.api_token,
        event: 'nulls',
        distinct_id: 'u',
        $set: null,
        $set_once: null,
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['nulls']);
    });

    it('answers 400 naming the field when an event breaks the CaptureEvent schema', async () => {
      const account = await newAccount(testDb());
      const res = await post('/batch/', {
        api_key: account.environment.api_token,
        batch: [{ event: 'ok', distinct_id: 'u' }, { event: 'bad', distinct_id: 'u', uuid: 'not-a-uuid' }],
      });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_payload',
        detail: 'Invalid payload: batch[1].uuid is not a valid UUID.',
        attr: 'batch__1__uuid',
      });
      expect(await events(account)).to.have.length(0);
      const numeric = await post('/i/v0/e/', { api_key: account.environment.api_token, event: 42, distinct_id: 'u' });
      expect([numeric.status, numeric.body.attr]).to.deep.equal([400, 'event']);
    });

    const keyCases: Array<{ name: string; key: (account: Account) => unknown; code: string }> = [
      { name: 'no project API key', key: () => undefined, code: 'missing_api_key' },
      { name: 'an unknown project API key', key: () => 'phc_ThisProjectKeyDoesNotExist00000000000000000', code: 'invalid_api_key' },
      { name: 'a personal API key', key: () => 'phx_ThisIsAPersonalKey0000000000000000000000000', code: 'personal_api_key' },
      { name: 'an empty key', key: () => '', code: 'empty' },
    ];
    for (const { name, key, code } of keyCases) {
      it(`answers 401 ${code} for ${name}, storing nothing`, async () => {
        const account = await newAccount(testDb());
        const res = await post('/i/v0/e/', { api_key: key(account), event: 'e', distinct_id: 'u' });
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.include({ type: 'authentication_error', code, attr: null });
        expect(await events(account)).to.have.length(0);
      });
    }

    it('answers 200 for events without a name or distinct_id, stores none of them, and records why', async () => {
      const account = await newAccount(testDb());
      const before = await metric('hedgerow_capture_events_dropped_total{reason="missing_distinct_id"}');
      const res = await post('/batch/', {
        api_key: account.environment.api_token,
        batch: [
          { distinct_id: 'u', properties: {} },
          { event: 'no id' },
          { event: 'empty id', distinct_id: '' },
          { event: 'survey sent', distinct_id: 'u' },
          { event: 'kept', distinct_id: 'u' },
        ],
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(OK);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['kept']);
      expect((await warnings(account)).map((warning) => warning.type)).to.deep.equal([
        'missing_event_name',
        'missing_distinct_id',
        'empty_distinct_id',
        'survey_missing_survey_id',
      ]);
      expect(await metric('hedgerow_capture_events_dropped_total{reason="missing_distinct_id"}')).to.equal(before + 1);
    });

    it('answers 200 for a request whose only event has no distinct_id, storing nothing', async () => {
      const account = await newAccount(testDb());
      const res = await post('/i/v0/e/', { api_key: account.environment.api_token, event: 'lonely' });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      expect(await events(account)).to.have.length(0);
      expect((await warnings(account)).map((warning) => warning.type)).to.deep.equal(['missing_distinct_id']);
    });
  });

  describe('capture_batch_create', () => {
    it('stores what posthog-node sends (gzip, Content-Encoding: gzip): events, persons, alias and group', async () => {
      const account = await newAccount(testDb());
      const payload = { ...fixture('posthog-node-batch-gzip').payload, api_key: account.environment.api_token };
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        body: gzipSync(JSON.stringify(payload)),
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      const rows = await events(account);
      expect(rows.map((row) => [row.event, row.distinct_id]).sort()).to.deep.equal(
        [
          ['$create_alias', 'user-1'],
          ['$groupidentify', '$company_acme'],
          ['$identify', 'user-1'],
          ['button clicked', 'user-1'],
          ['with groups', 'user-1'],
        ].sort(),
      );
      const person = (await personOf(account, 'user-1'))!;
      expect(person.properties).to.deep.equal({ email: 'ada@example.com', first_plan: 'free' });
      expect(person.is_identified).to.equal(true);
      expect((await personOf(account, 'anon-123'))!.uuid).to.equal(person.uuid);
      expect(await personOf(account, '$company_acme')).to.equal(undefined);
      const userRows = rows.filter((row) => row.distinct_id === 'user-1');
      expect(new Set(userRows.map((row) => row.person_id))).to.deep.equal(new Set([person.uuid]));
      expect(rows.find((row) => row.event === 'with groups')!.group_0).to.equal('acme');
      const group = await testDb()('groups').where({ team_id: account.environment.id }).first();
      expect(group).to.deep.include({ group_type_index: 0, group_key: 'acme', group_properties: { name: 'Acme Inc', employees: 11 } });
      const mapping = await testDb()('group_type_mappings').where({ team_id: account.environment.id }).select('group_type', 'group_type_index');
      expect(mapping).to.deep.equal([{ group_type: 'company', group_type_index: 0 }]);
    });

    it('stores a retried batch once (same uuids) and still answers 200', async () => {
      const account = await newAccount(testDb());
      const batch = {
        api_key: account.environment.api_token,
        batch: [
          { event: 'a', distinct_id: 'u', uuid: '0190f1c4-0000-7000-8000-00000000000a' },
          { event: 'b', distinct_id: 'u', uuid: '0190f1c4-0000-7000-8000-00000000000b' },
        ],
      };
      for (let attempt = 0; attempt < 3; attempt += 1) expect((await post('/batch/', batch)).status).to.equal(200);
      expect((await events(account)).map((row) => row.uuid)).to.deep.equal([
        '0190f1c4-0000-7000-8000-00000000000a',
        '0190f1c4-0000-7000-8000-00000000000b',
      ]);
      const repeated = await post('/batch/', { ...batch, batch: [batch.batch[0], batch.batch[0], { event: 'c', distinct_id: 'u', uuid: '0190f1c4-0000-7000-8000-00000000000c' }] });
      expect(repeated.status).to.equal(200);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['a', 'b', 'c']);
    });

    describe('two transactions in flight (from 400 queued events: handlers/capture/services.ts)', () => {
      const uuidOf = (r: number, i: number) => `0190f1c4-0000-7000-8000-${String(r * 1000 + i).padStart(12, '0')}`;

      /** A batch of `n` plain events, the `i`-th of `distinctId(i)`, with uuids of their own for `r`. */
      const plainBatch = (account: Account, r: number, n: number, distinctId: (i: number) => string) => ({
        api_key: account.environment.api_token,
        batch: Array.from({ length: n }, (_, i) => ({ event: 'plain', distinct_id: distinctId(i), uuid: uuidOf(r, i), properties: { r, i } })),
      });

      /** Captures the distinct ids twice, so that capture remembers their persons and takes the quick path for them. */
      async function rememberPersons(account: Account, distinctIds: readonly string[]): Promise<void> {
        for (const r of [90, 91]) {
          expect((await post('/batch/', plainBatch(account, r, distinctIds.length, (i) => distinctIds[i]!))).status).to.equal(200);
        }
      }

      /**
       * Sends `first`, then `rest`, while the test holds the environment's capture lock: the first request's
       * transaction waits in the database while the rest queue behind it, past the size from which a second
       * transaction starts; the lock is let go once both wait. The answers' statuses, in the order sent. (The
       * lock lives where the environment's rows do: on Citus, on the node of its shards.)
       */
      async function behindHeldLock(account: Account, first: unknown, rest: unknown[]): Promise<number[]> {
        const teamId = account.environment.id;
        /** Capture's transactions waiting for the environment's capture lock. */
        const waiting = () =>
          atTenantShard('capture_person_epochs', teamId, async (node) => {
            const { rows } = await node.query<{ n: number }>(
              "select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = $1::oid and objid = $2::oid",
              [CAPTURE_LOCK_CLASS, teamId],
            );
            return rows[0]!.n;
          });
        const until = async (count: number) => {
          for (let wait = 0; wait < 500 && (await waiting()) < count; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
          expect(await waiting(), 'capture transactions waiting for the lock').to.equal(count);
        };
        return atTenantShard('capture_person_epochs', teamId, async (holder) => {
          const answers: Array<Promise<Answer>> = [];
          await holder.query('begin');
          try {
            await holder.query('select pg_advisory_xact_lock($1, $2)', [CAPTURE_LOCK_CLASS, teamId]);
            answers.push(post('/batch/', first));
            await until(1);
            for (const body of rest) answers.push(post('/batch/', body));
            await until(2);
          } finally {
            await holder.query('commit');
          }
          return (await Promise.all(answers)).map((answer) => answer.status);
        });
      }

      it('stores concurrent large batches: each event once, one person per distinct id', async () => {
        const account = await newAccount(testDb());
        const teamId = account.environment.id;
        const overlapping = await metric('hedgerow_capture_flushes_overlapping_total');
        const batchOf = (r: number) => ({
          api_key: account.environment.api_token,
          batch: Array.from({ length: 100 }, (_, i) => ({
            event: 'bulk',
            distinct_id: i === 0 ? 'shared' : `user-${r}-${i % 5}`,
            uuid: uuidOf(r, i),
            properties: { r, i, $set: i === 0 ? { seen: true } : { r } },
          })),
        });
        const statuses = await behindHeldLock(account, batchOf(0), [1, 2, 3, 4, 5].map(batchOf));
        expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200]);
        expect(await metric('hedgerow_capture_flushes_overlapping_total')).to.equal(overlapping + 1);

        const rows = await events(account);
        expect(rows).to.have.length(600);
        expect(new Set(rows.map((row) => row.uuid)).size).to.equal(600);
        const persons = await testDb()('persons').where({ team_id: teamId }).select('uuid', 'properties');
        expect(persons).to.have.length(31);
        expect((await personOf(account, 'shared'))!.properties).to.deep.equal({ seen: true });
        for (let r = 0; r < 6; r += 1) expect((await personOf(account, `user-${r}-1`))!.properties).to.deep.equal({ r });
        const personByDistinctId = new Map(
          (await testDb()('person_distinct_ids as d').join('persons as p', (on) => on.on('p.team_id', 'd.team_id').andOn('p.id', 'd.person_id')).where({ 'd.team_id': teamId }).select('d.distinct_id', 'p.uuid')).map(
            (row: { distinct_id: string; uuid: string }) => [row.distinct_id, row.uuid],
          ),
        );
        expect(rows.every((row) => row.person_id === personByDistinctId.get(row.distinct_id))).to.equal(true);
      });

      it('reads a merge of the first transaction in the second, a quick batch of the merged distinct id', async () => {
        const account = await newAccount(testDb());
        await rememberPersons(account, ['b', 'a']);
        const alias = {
          api_key: account.environment.api_token,
          batch: [{ event: '$create_alias', distinct_id: 'a', uuid: uuidOf(0, 0), properties: { alias: 'b' } }],
        };
        const statuses = await behindHeldLock(account, alias, [1, 2, 3, 4, 5].map((r) => plainBatch(account, r, 100, () => 'b')));
        expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 200]);
        const a = (await personOf(account, 'a'))!;
        expect((await personOf(account, 'b'))!.uuid).to.equal(a.uuid);
        expect(await testDb()('persons').where({ team_id: account.environment.id }).count<{ n: string }[]>('* as n')).to.deep.equal([{ n: '1' }]);
        const rows = await events(account);
        expect(rows).to.have.length(505);
        expect(rows.filter((row) => row.person_id !== a.uuid)).to.deep.equal([]);
      });

      it('stores each event once when two quick batches deadlock over the same uuids in opposite orders', async () => {
        const account = await newAccount(testDb());
        await rememberPersons(account, ['u0', 'u1', 'u2']);
        const retried = plainBatch(account, 1, 2, (i) => `u${i % 3}`);
        const reversed = plainBatch(account, 1, 400, (i) => `u${i % 3}`);
        reversed.batch.splice(0, 2, retried.batch[1]!, retried.batch[0]!);
        // Each statement sleeps before its second row: the two batches then each hold one of the two uuids
        // the other needs next, and PostgreSQL aborts one of them.
        // (On Citus the trigger goes on the environment's shard, where the rows are inserted and the deadlock found.)
        const deadlocks = await atTenantShard('events', account.environment.id, async (shard, events) => {
          await shard.query(`create function hedgerow_test_second_row_waits() returns trigger language plpgsql as $$
            begin
              perform set_config('hedgerow.test_rows', (coalesce(nullif(current_setting('hedgerow.test_rows', true), ''), '0')::int + 1)::text, true);
              if current_setting('hedgerow.test_rows') = '2' then perform pg_sleep(0.3); end if;
              return new;
            end $$`);
          await shard.query(`create trigger hedgerow_test_second_row_waits before insert on ${events} for each row execute function hedgerow_test_second_row_waits()`);
          const count = async () => Number((await shard.query('select deadlocks from pg_stat_database where datname = current_database()')).rows[0].deadlocks);
          const before = await count();
          try {
            expect(await behindHeldLock(account, retried, [reversed])).to.deep.equal([200, 200]);
          } finally {
            await shard.query(`drop trigger hedgerow_test_second_row_waits on ${events}`);
            await shard.query('drop function hedgerow_test_second_row_waits()');
          }
          // (A backend reports its counts within a second or so of going idle.)
          for (let wait = 0; wait < 50 && (await count()) === before; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
          return { before, after: await count() };
        });
        // On Citus the rows reach the shard through Citus's executor (for one environment, a copy on the
        // environment's node), which this test holds to no order of rows, so a deadlock is not certain there:
        // what remains to show is that every event is stored once.
        if ((await clusterNodes(ADMIN_URL)) === null) {
          expect(deadlocks.after, 'a deadlock happened').to.be.greaterThan(deadlocks.before);
        }
        const rows = await events(account);
        expect(rows).to.have.length(6 + 400);
        expect(new Set(rows.map((row) => row.uuid)).size).to.equal(406);
      });
    });

    it('flags the events of a historical migration and keeps their order and timestamps', async () => {
      const account = await newAccount(testDb());
      const res = await post('/batch/', {
        api_key: account.environment.api_token,
        historical_migration: true,
        batch: [
          { event: 'first', distinct_id: 'u', timestamp: '2024-01-01T00:00:00Z', $set: { step: 1 } },
          { event: 'second', distinct_id: 'u', timestamp: '2024-01-02T00:00:00Z', $set: { step: 2 } },
        ],
      });
      expect(res.status).to.equal(200);
      const rows = await events(account);
      expect(rows.map((row) => [row.event, row.historical_migration, row.timestamp.toISOString()])).to.deep.equal([
        ['first', true, '2024-01-01T00:00:00.000Z'],
        ['second', true, '2024-01-02T00:00:00.000Z'],
      ]);
      expect((await personOf(account, 'u'))!.properties).to.deep.equal({ step: 2 });
    });

    it('corrects timestamps for the client’s clock with sent_at', async () => {
      const account = await newAccount(testDb());
      const sentAt = new Date(Date.now() - 3_600_000); // the client's clock is an hour behind
      await post('/batch/', {
        api_key: account.environment.api_token,
        sent_at: sentAt.toISOString(),
        batch: [{ event: 'skewed', distinct_id: 'u', timestamp: new Date(sentAt.getTime() - 60_000).toISOString() }],
      });
      const [row] = await events(account);
      expect(Math.abs(row!.timestamp.getTime() - (Date.now() - 60_000))).to.be.below(10_000);
    });

    it('answers 400 for an empty batch', async () => {
      const account = await newAccount(testDb());
      const res = await post('/batch/', { api_key: account.environment.api_token, batch: [] });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.include({ type: 'validation_error', code: 'no_events' });
    });

    it('answers 413 for a body of 20 MB or more, refused while it is read', async () => {
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(20 * 1024 * 1024, 0x20),
      });
      expect(res.status).to.equal(413);
      expect(res.body).to.deep.include({ type: 'invalid_request', code: 'request_too_large' });
    });

    it('answers 413 for a gzip body that inflates past the limit', async () => {
      const account = await newAccount(testDb());
      const bomb = gzipSync(Buffer.concat([Buffer.from(`{"api_key":"${account.environment.api_token}","batch":[`), Buffer.alloc(30 * 1024 * 1024, 0x20), Buffer.from(']}')]));
      expect(bomb.length).to.be.below(100 * 1024);
      const res = await direct('POST', '/batch/', { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: bomb });
      expect(res.status).to.equal(413);
      expect(res.body.detail).to.equal('The decoded payload is larger than the 26214400 bytes capture accepts.');
    });
  });

  describe('paths and encodings the SDKs use', () => {
    it('ignores a `_` beyond the range of dates, also for an event clamped from the future (it answered 500)', async () => {
      const account = await newAccount(testDb());
      const before = Date.now();
      const res = await post('/engage/?_=99999999999999999999999', {
        api_key: account.environment.api_token,
        batch: [{ event: 'far', distinct_id: 'u1', offset: -82_800_001 }],
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(OK);
      const [stored] = await events(account);
      expect(stored!.event).to.equal('far');
      expect(new Date(stored!.timestamp).getTime()).to.be.within(before, Date.now());
      const [warning] = await warnings(account);
      expect(warning).to.deep.include({ type: 'event_timestamp_in_future' });
      expect(warning!.details).to.deep.include({ sentAt: null, offset: -82_800_001, timestamp: null });
    });

    const storesEventsPostedTo = (paths: string[]) => {
      for (const path of paths) {
        it(`stores an event sent to POST ${path}`, async () => {
          const account = await newAccount(testDb());
          const res = await post(path, [{ event: 'via path', properties: { distinct_id: 'u', token: account.environment.api_token } }]);
          expect([res.status, res.body]).to.deep.equal([200, OK]);
          expect((await events(account)).map((row) => row.event)).to.deep.equal(['via path']);
        });
      }
    };
    describe('capture_e_create', () => storesEventsPostedTo(['/e/', '/e']));
    describe('capture_capture_create', () => storesEventsPostedTo(['/capture/', '/capture']));
    describe('capture_track_create', () => storesEventsPostedTo(['/track/', '/track']));
    describe('capture_engage_create', () => storesEventsPostedTo(['/engage/', '/engage']));
    describe('capture_batch_create', () => storesEventsPostedTo(['/batch']));
    describe('capture_event_create', () => storesEventsPostedTo(['/i/v0/e']));

    it('reads gzip sent as text/plain without any hint (posthog-js)', async () => {
      const account = await newAccount(testDb());
      const { payload } = fixture('posthog-js-custom-event-i-v0-e-gzip');
      const res = await direct('POST', '/i/v0/e/', {
        headers: { 'content-type': 'text/plain' },
        body: gzipSync(JSON.stringify({ ...payload, api_key: account.environment.api_token })),
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      const [row] = await events(account);
      expect(row!.event).to.equal('button clicked');
      expect(row!.uuid).to.equal(payload.batch[0].uuid);
    });

    it('reads gzip announced by ?compression=gzip-js, with posthog-js’s other query parameters', async () => {
      const account = await newAccount(testDb());
      const body = gzipSync(JSON.stringify([{ event: 'legacy', properties: { distinct_id: 'u', token: account.environment.api_token } }]));
      const res = await direct('POST', '/e/?ip=0&_=1763719200000&ver=1.290.0&compression=gzip-js&retry_count=1', {
        headers: { 'content-type': 'text/plain' },
        body,
      });
      expect(res.status).to.equal(200);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['legacy']);
    });

    it('reads a form with base64 data (sendBeacon), and answers a beacon 200 as well', async () => {
      const account = await newAccount(testDb());
      const data = Buffer.from(JSON.stringify([{ event: 'beacon', properties: { distinct_id: 'u', token: account.environment.api_token } }])).toString('base64');
      const res = await server.http.request('POST', '/e/?compression=base64&beacon=1', {
        rawBody: `data=${encodeURIComponent(data)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['beacon']);
    });

    it('reads a form with lz64 data (old posthog-js)', async () => {
      const account = await newAccount(testDb());
      const { payload } = fixture('lz64-form');
      const recordedToken = payload[0].properties.token as string;
      const request = JSON.parse(readFileSync(new URL('../fixtures/capture/lz64-form.json', import.meta.url), 'utf8')).request;
      // The recorded payload names the recording's project: point a project at that key for this test.
      await testDb()('environments').where({ id: account.environment.id }).update({ api_token: recordedToken });
      try {
        const res = await server.http.request('POST', '/e/?compression=lz64', {
          rawBody: Buffer.from(request.bodyBase64, 'base64').toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(res.status).to.equal(200);
        expect((await events(account)).map((row) => row.event)).to.deep.equal(['button clicked']);
      } finally {
        await testDb()('environments').where({ id: account.environment.id }).update({ api_token: account.environment.api_token });
      }
    });

    it('reads a base64 body without any hint', async () => {
      const account = await newAccount(testDb());
      const body = Buffer.from(JSON.stringify({ api_key: account.environment.api_token, event: 'b64', distinct_id: 'u' })).toString('base64');
      const res = await server.http.request('POST', '/e/', { rawBody: body, headers: { 'content-type': 'text/plain' } });
      expect(res.status).to.equal(200);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['b64']);
    });

    const storesPayloadOfGet = (path: string) => {
      it(`stores the payload of GET ${path}?data=`, async () => {
        const account = await newAccount(testDb());
        const data = Buffer.from(JSON.stringify({ api_key: account.environment.api_token, event: 'pixel', distinct_id: 'u' })).toString('base64');
        const res = await server.http.get(`${path}?data=${encodeURIComponent(data)}&ip=1`);
        expect([res.status, res.body]).to.deep.equal([200, OK]);
        expect((await events(account)).map((row) => row.event)).to.deep.equal(['pixel']);
      });
    };
    describe('capture_e_retrieve', () => {
      storesPayloadOfGet('/e/');

      it('answers GET without data 400 no_data', async () => {
        const res = await server.http.get('/e/');
        expect(res.status).to.equal(400);
        expect(res.body.code).to.equal('no_data');
      });
    });
    describe('capture_event_retrieve', () => storesPayloadOfGet('/i/v0/e/'));
    describe('capture_capture_retrieve', () => storesPayloadOfGet('/capture/'));
    describe('capture_track_retrieve', () => storesPayloadOfGet('/track/'));
    describe('capture_batch_retrieve', () => storesPayloadOfGet('/batch/'));
    describe('capture_engage_retrieve', () => storesPayloadOfGet('/engage/'));

    it('answers 400 when `_` is not a number', async () => {
      const account = await newAccount(testDb());
      const res = await direct('POST', '/e/?_=yesterday', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: account.environment.api_token, event: 'e', distinct_id: 'u' }),
      });
      expect([res.status, res.body.attr]).to.deep.equal([400, '_']);
    });

    describe('capture_event_options', () => {
      it('answers a CORS pre-flight by mirroring the origin and the asked headers (Content-Encoding included)', async () => {
        const res = await direct('OPTIONS', '/i/v0/e/', {
          headers: {
            origin: 'https://shop.example.com',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,content-encoding',
          },
        });
        expect([res.status, res.body]).to.deep.equal([200, OK]);
        expect(res.headers.get('access-control-allow-origin')).to.equal('https://shop.example.com');
        expect(res.headers.get('access-control-allow-credentials')).to.equal('true');
        expect(res.headers.get('access-control-allow-methods')).to.equal('GET, POST, OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).to.equal('content-type,content-encoding');
      });
    });
    const answersPreflight = (path: string) => {
      it(`answers a CORS pre-flight of ${path} 200`, async () => {
        expect((await direct('OPTIONS', path, { headers: { origin: 'https://a.example' } })).status).to.equal(200);
      });
    };
    describe('capture_e_options', () => answersPreflight('/e/'));
    describe('capture_batch_options', () => answersPreflight('/batch/'));
    describe('capture_capture_options', () => answersPreflight('/capture/'));
    describe('capture_track_options', () => answersPreflight('/track/'));
    describe('capture_engage_options', () => answersPreflight('/engage/'));
    describe('flags_options', () => answersPreflight('/flags/'));

    it('mirrors the origin on answers too, errors included', async () => {
      const ok = await direct('POST', '/e/', {
        headers: { origin: 'https://shop.example.com', 'content-type': 'text/plain' },
        body: JSON.stringify({ event: 'x' }),
      });
      expect(ok.status).to.equal(401);
      expect(ok.headers.get('access-control-allow-origin')).to.equal('https://shop.example.com');
    });

    it('reads a nameless event on /engage/ as $identify with its $set', async () => {
      const account = await newAccount(testDb());
      const res = await post('/engage/', { api_key: account.environment.api_token, distinct_id: 'u', $set: { email: 'e@example.com' } });
      expect(res.status).to.equal(200);
      expect((await events(account)).map((row) => row.event)).to.deep.equal(['$identify']);
      expect((await personOf(account, 'u'))!.properties).to.deep.equal({ email: 'e@example.com' });
    });

    it('answers 405 for a method the capture paths do not have, with CORS headers like every capture answer', async () => {
      const res = await server.http.request('DELETE', '/batch/');
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('GET, HEAD, POST, OPTIONS');
      for (const path of ['/batch/', '/i/v0/e', '/flags/', '/array/phc_x/config.js']) {
        const answer = await direct('PUT', path, { headers: { origin: 'https://app.example.com', 'content-type': 'application/json' }, body: '{}' });
        expect([answer.status, answer.body.code, answer.headers.get('access-control-allow-origin')], path).to.deep.equal([
          405,
          'method_not_allowed',
          'https://app.example.com',
        ]);
      }
    });
  });

  describe('flags_create', () => {
    it('answers posthog-js’s gzipped request with no flags', async () => {
      const account = await newAccount(testDb());
      const { payload } = fixture('posthog-js-flags-gzip');
      const res = await direct('POST', '/flags/?v=2', {
        headers: { 'content-type': 'text/plain' },
        body: gzipSync(JSON.stringify({ ...payload, token: account.environment.api_token })),
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ flags: {}, errorsWhileComputingFlags: false });
    });

    it('reads null groups and properties as absent', async () => {
      const account = await newAccount(testDb());
      const res = await post('/flags/?v=2', {
        token: account.environment.api_token,
        api_key: null,
        distinct_id: 'u',
        groups: null,
        person_properties: null,
        group_properties: null,
      });
      expect([res.status, res.body.flags]).to.deep.equal([200, {}]);
    });

    it('answers 401 for an unknown project key', async () => {
      const res = await post('/flags/?v=2', { token: 'phc_ThisProjectKeyDoesNotExist00000000000000000', distinct_id: 'u' });
      expect([res.status, res.body.code]).to.deep.equal([401, 'invalid_api_key']);
    });
  });

  describe('remote_config_retrieve', () => {
    it('configures posthog-js to send to /i/v0/e/ with gzip and nothing else turned on', async () => {
      const account = await newAccount(testDb());
      const res = await server.http.get(`/array/${account.environment.api_token}/config`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        token: account.environment.api_token,
        supportedCompression: ['gzip', 'gzip-js'],
        hasFeatureFlags: false,
        analytics: { endpoint: '/i/v0/e/' },
        sessionRecording: false,
        surveys: false,
        heatmaps: false,
      });
    });

    it('answers 404 for a key no project has', async () => {
      const res = await server.http.get('/array/phc_ThisProjectKeyDoesNotExist00000000000000000/config');
      expect([res.status, res.body.code]).to.deep.equal([404, 'not_found']);
    });
  });

  describe('remote_config_js_retrieve', () => {
    it('sets window._POSTHOG_REMOTE_CONFIG to the same configuration as /config', async () => {
      const account = await newAccount(testDb());
      const res = await server.http.get(`/array/${account.environment.api_token}/config`);
      const script = await server.http.get(`/array/${account.environment.api_token}/config.js`);
      expect(script.status).to.equal(200);
      expect(script.headers.get('content-type')).to.match(/^application\/javascript/);
      const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, { config: unknown; siteApps: unknown[] }> } = {};
      new Function('window', script.text)(window);
      expect(window._POSTHOG_REMOTE_CONFIG![account.environment.api_token]).to.deep.equal({ config: res.body, siteApps: [] });
    });
  });

  /** A counter of GET /_metrics. */
  async function metric(series: string): Promise<number> {
    const res = await server.http.get('/_metrics');
    expect(res.status).to.equal(200);
    const line = res.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  }

  describe('metrics_retrieve', () => {
    it('counts stored events, duplicates and drops by reason, in Prometheus’ text format', async () => {
      const account = await newAccount(testDb());
      const ingested = await metric('hedgerow_capture_events_ingested_total');
      const duplicates = await metric('hedgerow_capture_events_duplicate_total');
      const event = { event: 'counted', distinct_id: 'u', uuid: '0190f1c4-0000-7000-8000-0000000000ee' };
      await post('/batch/', { api_key: account.environment.api_token, batch: [event] });
      await post('/batch/', { api_key: account.environment.api_token, batch: [event] });
      expect(await metric('hedgerow_capture_events_ingested_total')).to.equal(ingested + 1);
      expect(await metric('hedgerow_capture_events_duplicate_total')).to.equal(duplicates + 1);
      const res = await server.http.get('/_metrics');
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(res.text).to.include('# TYPE hedgerow_capture_events_dropped_total counter');
    });
  });
});
