/**
 * Capture through HTTP, what it makes of persons, aliases and groups: $set/$set_once/$unset, $identify and
 * $create_alias merges, $groupidentify, and a project deleted while its key is cached. (The paths, methods
 * and encodings: capture.test.ts.)
 */
import { expect } from 'chai';
import { deleteEnvironments } from '../../db/queries/organizations.js';
import { captureRequests, ingestionWarnings as warnings, personOf, storedEvents as events, type StoredEventRow } from '../helpers/capture-requests.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('capture: persons, aliases and groups', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const { direct, post } = captureRequests(() => server);

  const OK = { status: 1 };

  /** A counter of GET /_metrics. */
  async function metric(series: string): Promise<number> {
    const res = await server.http.get('/_metrics');
    expect(res.status).to.equal(200);
    const line = res.text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  }

  describe('persons, aliases and groups', () => {
    it('applies $set, $set_once and $unset in event order, across requests', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/batch/', {
        api_key: key,
        batch: [
          { event: 'a', distinct_id: 'u', properties: { $set: { plan: 'free', tmp: 1 }, $set_once: { first: 'a' } } },
          { event: 'b', distinct_id: 'u', properties: { $set: { plan: 'pro' }, $set_once: { first: 'b' } } },
        ],
      });
      await post('/i/v0/e/', { api_key: key, event: 'c', distinct_id: 'u', properties: { $unset: ['tmp'] } });
      expect((await personOf(account, 'u'))!.properties).to.deep.equal({ plan: 'pro', first: 'a' });
    });

    it("stores on each event its person's properties as they are once that event is processed, none on a personless event", async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/batch/', {
        api_key: key,
        batch: [
          { event: 'a', distinct_id: 'u', timestamp: '2026-11-21T10:00:01Z', properties: { $set: { plan: 'free', tmp: 1 }, $set_once: { first: 'a' } } },
          { event: 'b', distinct_id: 'u', timestamp: '2026-11-21T10:00:02Z', properties: { $set: { plan: 'pro' }, $set_once: { first: 'b' } } },
        ],
      });
      // A person change takes the full path; an event that changes nothing, once the person is known, the quick one.
      await post('/i/v0/e/', { api_key: key, event: 'c', distinct_id: 'u', timestamp: '2026-11-21T10:00:03Z', properties: { $unset: ['tmp'] } });
      const quickBefore = await metric('hedgerow_capture_batches_total{path="quick"}');
      await post('/i/v0/e/', { api_key: key, event: 'd', distinct_id: 'u', timestamp: '2026-11-21T10:00:04Z' });
      expect(await metric('hedgerow_capture_batches_total{path="quick"}')).to.equal(quickBefore + 1);
      await post('/i/v0/e/', { api_key: key, event: 'e', distinct_id: 'u', timestamp: '2026-11-21T10:00:05Z', properties: { $process_person_profile: false } });
      await post('/i/v0/e/', { api_key: key, event: 'f', distinct_id: 'u', timestamp: '2026-11-21T10:00:06Z', properties: { $set: { plan: 'team' } } });
      const rows = (await events(account)) as unknown as Array<{ event: string; person_properties: Record<string, unknown> | null }>;
      expect(rows.map((row) => [row.event, row.person_properties])).to.deep.equal([
        ['a', { plan: 'free', tmp: 1, first: 'a' }],
        ['b', { plan: 'pro', tmp: 1, first: 'a' }],
        ['c', { plan: 'pro', first: 'a' }],
        ['d', { plan: 'pro', first: 'a' }],
        ['e', null],
        ['f', { plan: 'team', first: 'a' }],
      ]);
    });

    it('merges two persons on $create_alias: properties merged, distinct ids moved, both users’ events under one person', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/batch/', {
        api_key: key,
        batch: [
          { event: 'anonymous visit', distinct_id: 'anon-1', properties: { $set: { referrer: 'ad', plan: 'free' } } },
          { event: 'login', distinct_id: 'user-1', properties: { $set: { email: 'a@b.c', plan: 'pro' } } },
        ],
      });
      const anonymous = (await personOf(account, 'anon-1'))!;
      const user = (await personOf(account, 'user-1'))!;
      expect(anonymous.uuid).to.not.equal(user.uuid);
      const res = await post('/i/v0/e/', { api_key: key, event: '$create_alias', distinct_id: 'user-1', properties: { alias: 'anon-1' } });
      expect(res.status).to.equal(200);
      const merged = (await personOf(account, 'anon-1'))!;
      expect(merged.uuid).to.equal(user.uuid);
      expect(merged.properties).to.deep.equal({ referrer: 'ad', plan: 'pro', email: 'a@b.c' });
      expect(await testDb()('persons').where({ uuid: anonymous.uuid }).first()).to.equal(undefined);
      expect(new Set((await events(account)).map((row) => row.person_id))).to.deep.equal(new Set([user.uuid]));
      await post('/i/v0/e/', { api_key: key, event: 'later', distinct_id: 'anon-1' });
      expect((await events(account)).find((row) => row.event === 'later')!.person_id).to.equal(user.uuid);
    });

    it('stamps what batch exports of persons read: a moved distinct id’s version and time, a changed person’s time', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/batch/', {
        api_key: key,
        batch: [
          { event: 'anonymous visit', distinct_id: 'anon-2', properties: { $set: { referrer: 'ad' } } },
          { event: 'login', distinct_id: 'user-2', properties: { $set: { email: 'a@b.c' } } },
        ],
      });
      const long = new Date('2020-01-01T00:00:00Z');
      await testDb()('persons').where({ team_id: account.environment.id }).update({ updated_at: long });
      await testDb()('person_distinct_ids').where({ team_id: account.environment.id }).update({ updated_at: long });

      await post('/i/v0/e/', { api_key: key, event: '$create_alias', distinct_id: 'user-2', properties: { alias: 'anon-2' } });
      const mappings = await testDb()('person_distinct_ids')
        .where({ team_id: account.environment.id })
        .orderBy('distinct_id')
        .select('distinct_id', 'version', 'updated_at');
      expect(mappings.map((row) => [row.distinct_id, row.version, row.updated_at > long])).to.deep.equal([
        ['anon-2', 1, true],
        ['user-2', 0, false],
      ]);
      const person = await testDb()('persons').where({ team_id: account.environment.id }).first('properties', 'updated_at');
      expect(person.properties).to.deep.equal({ referrer: 'ad', email: 'a@b.c' });
      expect(person.updated_at > long).to.equal(true);
    });

    it('links $identify’s anonymous id to the identified user (posthog-js identify)', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/i/v0/e/', { api_key: key, event: '$pageview', distinct_id: 'device-1' });
      await post('/i/v0/e/', {
        api_key: key,
        event: '$identify',
        distinct_id: 'user-9',
        $set: { email: 'u9@example.com' },
        properties: { $anon_distinct_id: 'device-1' },
      });
      const person = (await personOf(account, 'user-9'))!;
      expect((await personOf(account, 'device-1'))!.uuid).to.equal(person.uuid);
      expect([person.is_identified, person.properties]).to.deep.equal([true, { email: 'u9@example.com' }]);
    });

    it('creates and updates a group with $groupidentify; $groups links events without creating groups', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      const identify = (set: Record<string, unknown>) => ({
        event: '$groupidentify',
        distinct_id: '$company_acme',
        properties: { $group_type: 'company', $group_key: 'acme', $group_set: set },
      });
      await post('/batch/', { api_key: key, batch: [identify({ name: 'Acme', size: 10 })] });
      await post('/batch/', {
        api_key: key,
        batch: [
          identify({ size: 11, founded: '2001-01-01T00:00:00Z' }),
          { event: 'used', distinct_id: 'u', properties: { $groups: { company: 'acme', project: 'p-9' } } },
          { event: 'other', distinct_id: 'u', properties: { $groups: { company: 'globex' } } },
        ],
      });
      const groups = await testDb()('groups').where({ team_id: account.environment.id }).select('group_type_index', 'group_key', 'group_properties');
      expect(groups).to.deep.equal([
        { group_type_index: 0, group_key: 'acme', group_properties: { name: 'Acme', size: 11, founded: '2001-01-01T00:00:00Z' } },
      ]);
      const rows = await events(account);
      expect(rows.filter((row) => row.event !== '$groupidentify').map((row) => [row.event, row.group_0, row.group_1])).to.have.deep.members([
        ['used', 'acme', 'p-9'],
        ['other', 'globex', null],
      ]);
    });

    it('ignores a group type or key longer than 400 characters with a warning, and stores the events', async () => {
      const account = await newAccount(testDb());
      const long = 'k'.repeat(401);
      const res = await post('/batch/', {
        api_key: account.environment.api_token,
        batch: [
          {
            event: '$groupidentify',
            distinct_id: 'u',
            properties: { $group_type: 'company', $group_key: long, $group_set: { name: 'Long' } },
          },
          { event: 'linked', distinct_id: 'u', properties: { $groups: { company: long, [long]: 'x', team: 'ok' } } },
        ],
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      expect(await testDb()('groups').where({ team_id: account.environment.id })).to.deep.equal([]);
      const rows = await events(account);
      expect(rows.map((row) => [row.event, row.group_0, row.group_1])).to.deep.equal([
        ['$groupidentify', null, null],
        ['linked', 'ok', null],
      ]);
      expect((await warnings(account)).map((warning) => warning.type)).to.deep.equal([
        'group_key_too_long',
        'group_key_too_long',
        'group_key_too_long',
      ]);
    });

    it('keeps person and group properties named __proto__, constructor or toString', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      // Written as text: an object literal's __proto__ would set its prototype rather than send the key.
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${key}","batch":[
          {"event":"e","distinct_id":"p1","properties":{"$set_once":{"constructor":"c1","toString":"t1"},"$set":{"__proto__":{"email":"proto@x"}}}},
          {"event":"e","distinct_id":"p1","properties":{"$set_once":{"email":"real@x","constructor":"ignored"}}},
          {"event":"$groupidentify","distinct_id":"p1","properties":{"$group_type":"company","$group_key":"acme","$group_set":{"__proto__":{"a":1}}}},
          {"event":"$groupidentify","distinct_id":"p1","properties":{"$group_type":"company","$group_key":"acme","$group_set":{"constructor":2}}}
        ]}`,
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      const person = await personOf(account, 'p1');
      expect(JSON.stringify(person?.properties)).to.equal(
        '{"email":"real@x","toString":"t1","__proto__":{"email":"proto@x"},"constructor":"c1"}',
      );
      const [group] = await testDb()('groups').where({ team_id: account.environment.id }).select('group_properties');
      expect(JSON.stringify(group.group_properties)).to.equal('{"__proto__":{"a":1},"constructor":2}');
    });

    it('keeps integers beyond 2^53 as sent: distinct ids, group keys, event, person and group properties', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      // Written as text: a JavaScript number cannot hold these integers. Two users whose ids differ in the last
      // digit, which doubles cannot tell apart.
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${key}","batch":[
          {"event":"order","distinct_id":12345678901234567890,"offset":1000,"properties":{"order_id":9876543210987654321,"ids":[-9007199254740993],"$set":{"account":12345678901234567891},"$groups":{"company":11111111111111111111}}},
          {"event":"order","distinct_id":12345678901234567891,"offset":900},
          {"event":"$groupidentify","distinct_id":12345678901234567890,"offset":800,"properties":{"$group_type":"company","$group_key":11111111111111111111,"$group_set":{"size":2222222222222222222}}}
        ]}`,
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      const { rows } = await testDb().raw<{ rows: Array<{ distinct_id: string; properties: string; group_0: string | null }> }>(
        'select distinct_id, properties::text as properties, group_0 from events where team_id = ? order by timestamp',
        [account.environment.id],
      );
      expect(rows.map((row) => [row.distinct_id, row.group_0])).to.deep.equal([
        ['12345678901234567890', '11111111111111111111'],
        ['12345678901234567891', null],
        ['12345678901234567890', null],
      ]);
      expect(rows[0]!.properties).to.include('"order_id": 9876543210987654321').and.include('"ids": [-9007199254740993]');
      const [first, second] = [await personOf(account, '12345678901234567890'), await personOf(account, '12345678901234567891')];
      expect(first?.uuid).to.be.a('string').and.not.equal(second?.uuid);
      const propertiesText = async () =>
        (await testDb()('persons').where({ uuid: first!.uuid }).first<{ text: string }>(testDb().raw('properties::text as text'))).text;
      expect(await propertiesText()).to.equal('{"account": 12345678901234567891}');
      const [group] = await testDb()('groups')
        .where({ team_id: account.environment.id })
        .select('group_key', testDb().raw('group_properties::text as properties'));
      expect(group).to.deep.equal({ group_key: '11111111111111111111', properties: '{"size": 2222222222222222222}' });

      // The person read back and written again (a later $set) keeps the integer exact.
      const later = await direct('POST', '/i/v0/e/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${key}","event":"e","distinct_id":"12345678901234567890","properties":{"$set":{"plan":"pro"}}}`,
      });
      expect(later.status).to.equal(200);
      expect(await propertiesText()).to.equal('{"plan": "pro", "account": 12345678901234567891}');

      // The listing shows the properties as stored.
      const listed = await direct('GET', `/api/projects/${account.environment.id}/events/?event=order`, {
        headers: { authorization: `Bearer ${account.key}` },
      });
      expect(listed.status).to.equal(200);
      expect(listed.text).to.include('"order_id": 9876543210987654321').and.include('"distinct_id":"12345678901234567891"');
    });

    it('refuses an event that is a large integer as it refuses one that is a number', async () => {
      const key = (await newAccount(testDb())).environment.api_token;
      const answers = [];
      for (const number of ['1234', '12345678901234567890']) {
        answers.push(
          await direct('POST', '/batch/', {
            headers: { 'content-type': 'application/json' },
            body: `{"api_key":"${key}","batch":[{"event":"ok","distinct_id":"u"},${number}]}`,
          }),
        );
      }
      expect(answers.map((answer) => [answer.status, answer.body])).to.deep.equal([
        [400, answers[0]!.body],
        [400, answers[0]!.body],
      ]);
      expect(answers[0]!.body).to.include({ type: 'validation_error' });
    });

    it('does not rewrite a person whose $set sends again the large number it has', async () => {
      const account = await newAccount(testDb());
      for (let n = 0; n < 3; n += 1) {
        const res = await direct('POST', '/i/v0/e/', {
          headers: { 'content-type': 'application/json' },
          body: `{"api_key":"${account.environment.api_token}","event":"e","distinct_id":"big-set","properties":{"$set":{"x":1e21,"y":9007199254740993.5,"z":12345678901234567890}}}`,
        });
        expect(res.status).to.equal(200);
      }
      const person = await testDb()('persons')
        .where({ uuid: (await personOf(account, 'big-set'))!.uuid })
        .first<{ version: number; text: string }>('version', testDb().raw('properties::text as text'));
      expect(person).to.deep.equal({ version: 0, text: '{"x": 1000000000000000000000, "y": 9007199254740994, "z": 12345678901234567890}' });
    });

    it('stores autocapture $elements whose names hold NUL or half a surrogate pair, or whose positions are not numbers', async () => {
      const account = await newAccount(testDb());
      const res = await direct('POST', '/batch/', {
        headers: { 'content-type': 'application/json' },
        body: `{"api_key":"${account.environment.api_token}","batch":[
          {"event":"$autocapture","distinct_id":"u","properties":{"$elements":[{"tag_name":"a\\u0000","attr__class":["c\\ud800"],"nth_child":{"toString":"x"},"nth_of_type":"2"}]}},
          {"event":"after","distinct_id":"u"}
        ]}`,
      });
      expect([res.status, res.body]).to.deep.equal([200, OK]);
      expect((await events(account)).map((row) => [row.event, row.elements_chain])).to.deep.equal([
        ['$autocapture', 'a\uFFFD.c\uFFFD:attr__class="c\uFFFD"nth-child="0"nth-of-type="2"'],
        ['after', ''],
      ]);
    });

    it('stores a personless event without a person and drops a personless $identify with a warning', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      const res = await post('/batch/', {
        api_key: key,
        batch: [
          { event: '$pageview', distinct_id: 'anon', properties: { $process_person_profile: false, $set: { ignored: true } } },
          { event: '$identify', distinct_id: 'anon', properties: { $process_person_profile: false, $set: { ignored: true } } },
        ],
      });
      expect(res.status).to.equal(200);
      const rows = await events(account);
      expect(rows.map((row) => [row.event, row.person_id, row.properties])).to.deep.equal([
        ['$pageview', null, { $process_person_profile: false }],
      ]);
      expect(await personOf(account, 'anon')).to.equal(undefined);
      expect((await warnings(account)).map((warning) => warning.type)).to.deep.equal(['invalid_event_when_process_person_profile_is_false']);
    });

    it('stores $pageview, $screen and survey events with their properties', async () => {
      const account = await newAccount(testDb());
      await post('/batch/', {
        api_key: account.environment.api_token,
        batch: [
          { event: '$pageview', distinct_id: 'u', timestamp: '2026-11-21T10:00:00Z', properties: { $current_url: 'https://example.com/a' } },
          { event: '$screen', distinct_id: 'u', timestamp: '2026-11-21T10:00:01Z', properties: { $screen_name: 'Checkout' } },
          {
            event: 'survey sent',
            distinct_id: 'u',
            timestamp: '2026-11-21T10:00:02Z',
            properties: { $survey_id: 's-1', $survey_response_q1: 'Yes', $survey_questions: [{ id: 'q1', question: 'Happy?' }] },
          },
        ],
      });
      expect((await events(account)).map((row) => [row.event, row.properties])).to.deep.equal([
        ['$pageview', { $current_url: 'https://example.com/a' }],
        ['$screen', { $screen_name: 'Checkout' }],
        ['survey sent', { $survey_id: 's-1', $survey_response_q1: 'Yes', $survey_questions: [{ id: 'q1', question: 'Happy?' }] }],
      ]);
    });

    it('stores a large batch (COPY on the full path), and a retry of it once, falling back from the quick path', async () => {
      const account = await newAccount(testDb());
      const batch = Array.from({ length: 150 }, (_, n) => ({
        event: 'bulk',
        distinct_id: `bulk-${n % 7}`,
        uuid: `0190f1c4-0000-7000-8000-${String(n).padStart(12, '0')}`,
        properties: { n, $set: n < 7 ? { first: n } : undefined },
      }));
      expect((await post('/batch/', { api_key: account.environment.api_token, batch })).status).to.equal(200);
      // Known users, no person changes: the quick path's statement meets stored uuids and the batch is redone.
      const again = batch.map(({ properties, ...event }) => ({ ...event, properties: { n: properties.n } }));
      expect((await post('/batch/', { api_key: account.environment.api_token, batch: again })).status).to.equal(200);
      const rows = await events(account);
      expect(rows).to.have.length(150);
      const persons = await testDb()('persons').where({ team_id: account.environment.id }).count<{ count: string }[]>('* as count');
      expect(Number(persons[0]!.count)).to.equal(7);
      expect(rows.every((row) => row.person_id !== null)).to.equal(true);
    });

    it('stores known users’ events on the quick path exactly as the full path does, for small and large batches', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      const users = ['ann', 'bob', 'çé "quoted" \\ ✓'];
      // The full path meets the users and both group types first.
      const setup = await post('/batch/', {
        api_key: key,
        batch: [
          ...users.map((distinct_id) => ({ event: 'hello', distinct_id })),
          { event: '$groupidentify', distinct_id: 'ann', properties: { $group_type: 'company', $group_key: 'acme' } },
          { event: '$groupidentify', distinct_id: 'ann', properties: { $group_type: 'team', $group_key: 'core' } },
        ],
      });
      expect(setup.status).to.equal(200);
      const batchOf = (size: number, tag: string) =>
        Array.from({ length: size }, (_, n) => ({
          event: n % 5 === 0 ? `émoji 🎉 ${tag}` : `plain ${tag}`,
          distinct_id: users[n % users.length],
          uuid: `0190f1c4-${tag === 'quick' ? '1111' : '2222'}-7000-8000-${String(size * 1000 + n).padStart(12, '0')}`,
          timestamp: new Date(Date.UTC(2026, 10, 20, 10, 0, 0, n)).toISOString(),
          properties: {
            n,
            text: 'line\nbreak, "quotes", back\\slash, nul-free ✓',
            nested: { list: [1, null, 'two'], deep: { yes: true } },
            ...(n % 3 === 0 ? { $groups: { company: 'acme' } } : {}),
            ...(n % 4 === 0 ? { $groups: { team: 'core', company: `ünï ${n}` } } : {}),
            ...(n % 7 === 0 ? { $process_person_profile: false } : {}),
            ...(n % 6 === 0 ? { $elements_chain: 'a.nav:nth-child="1"attr__href="/x"' } : {}),
          },
        }));
      // Every column but the uuid and the insertion time, with the batch's tag taken out of the name.
      const columns = (row: StoredEventRow & Record<string, unknown>) => {
        const rest: Record<string, unknown> = { ...row, event: row.event.replace(/quick|full/, '…') };
        delete rest.uuid;
        delete rest.inserted_at;
        return rest;
      };
      for (const size of [5, 100]) {
        const quickBefore = await metric('hedgerow_capture_batches_total{path="quick"}');
        const quick = batchOf(size, 'quick');
        expect((await post('/batch/', { api_key: key, batch: quick, historical_migration: true })).status).to.equal(200);
        expect(await metric('hedgerow_capture_batches_total{path="quick"}')).to.equal(quickBefore + 1);
        // The same events again, with a new user's: the batch takes the full path.
        const fullBefore = await metric('hedgerow_capture_batches_total{path="full"}');
        const full = [...batchOf(size, 'full'), { event: 'later', distinct_id: `new-${size}`, timestamp: '2026-11-21T00:00:00Z' }];
        expect((await post('/batch/', { api_key: key, batch: full, historical_migration: true })).status).to.equal(200);
        expect(await metric('hedgerow_capture_batches_total{path="full"}')).to.equal(fullBefore + 1);

        const stored = await testDb()('events')
          .where({ team_id: account.environment.id })
          .whereIn('uuid', quick.map((event) => event.uuid).concat(full.flatMap((event) => ('uuid' in event ? [event.uuid] : []))))
          .orderBy('uuid');
        expect(stored).to.have.length(size * 2);
        const quickRows = stored.filter((row) => row.uuid.startsWith('0190f1c4-1111'));
        const fullRows = stored.filter((row) => row.uuid.startsWith('0190f1c4-2222'));
        expect(quickRows.map(columns)).to.deep.equal(fullRows.map(columns));
        // And what both stored is what was sent.
        const first = quickRows[0]!;
        expect(first.event).to.equal('émoji 🎉 quick');
        expect(first.properties).to.deep.include({ n: 0, text: quick[0]!.properties.text, nested: quick[0]!.properties.nested });
        expect([first.group_0, first.group_1, first.person_id, first.historical_migration]).to.deep.equal(['ünï 0', 'core', null, true]);
        expect(first.elements_chain).to.equal('a.nav:nth-child="1"attr__href="/x"');
        expect(first.timestamp.toISOString()).to.equal('2026-11-20T10:00:00.000Z');
        const third = quickRows[3]!;
        expect([third.group_0, third.group_1, third.person_id]).to.deep.equal(['acme', null, (await personOf(account, 'ann'))!.uuid]);
        expect(quickRows[2]!.distinct_id).to.equal(users[2]);
      }
      // No warnings: a batch with warnings would have taken the quick path's script rather than its statement.
      expect(await testDb()('ingestion_warnings').where({ team_id: account.environment.id })).to.deep.equal([]);
    });

    it('notices persons that another process moved, and stores events with the person they have now', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      await post('/i/v0/e/', { api_key: key, event: 'first', distinct_id: 'moved' });
      const before = (await personOf(account, 'moved'))!;
      // Another Hedgerow process merged 'moved' into a new person: the distinct id points elsewhere now.
      const [other] = await testDb()('persons').insert({ team_id: account.environment.id, properties: {} }).returning(['id', 'uuid']);
      await testDb()('person_distinct_ids')
        .where({ team_id: account.environment.id, distinct_id: 'moved' })
        .update({ person_id: other.id, version: testDb().raw('version + 1'), updated_at: testDb().fn.now() });
      await testDb()('capture_person_epochs').insert({ team_id: account.environment.id, epoch: 1 }).onConflict('team_id').merge({ epoch: 7 });
      await post('/i/v0/e/', { api_key: key, event: 'second', distinct_id: 'moved' });
      const rows = await events(account);
      expect(rows.map((row) => [row.event, row.person_id])).to.deep.equal([
        ['first', before.uuid],
        ['second', other.uuid],
      ]);
    });

    it('keeps a known user’s later events on their person, also after another user merged into them', async () => {
      const account = await newAccount(testDb());
      const key = account.environment.api_token;
      for (let round = 0; round < 3; round += 1) await post('/i/v0/e/', { api_key: key, event: `visit ${round}`, distinct_id: 'steady' });
      await post('/i/v0/e/', { api_key: key, event: 'other', distinct_id: 'other' });
      await post('/i/v0/e/', { api_key: key, event: '$create_alias', distinct_id: 'steady', properties: { alias: 'other' } });
      await post('/i/v0/e/', { api_key: key, event: 'after merge', distinct_id: 'other' });
      const person = (await personOf(account, 'steady'))!;
      expect(new Set((await events(account)).map((row) => row.person_id))).to.deep.equal(new Set([person.uuid]));
    });
  });

  describe('a project deleted while its key is cached', () => {
    for (const [path, distinctId] of [
      ['the quick path (a known user)', 'known'],
      ['the full path (a new user)', 'new-user'],
    ] as const) {
      it(`refuses its events on ${path} with 401 invalid_api_key, and stores nothing`, async () => {
        const account = await newAccount(testDb());
        const key = account.environment.api_token;
        expect((await post('/i/v0/e/', { api_key: key, event: 'before', distinct_id: 'known' })).status).to.equal(200);
        await testDb().transaction((trx) => deleteEnvironments(trx, [account.environment.id]));
        // Its events went with it (the events table has no foreign key to cascade from).
        expect(await events(account)).to.deep.equal([]);

        const refused = await post('/i/v0/e/', { api_key: key, event: 'after', distinct_id: distinctId });
        expect(refused.status).to.equal(401);
        expect(refused.body).to.deep.equal({
          type: 'authentication_error',
          code: 'invalid_api_key',
          detail: 'Project API key invalid. You can find your project API key in your project settings.',
          attr: null,
        });
        // The key is forgotten, so the next request is refused by the lookup itself.
        expect((await post('/i/v0/e/', { api_key: key, event: 'later', distinct_id: distinctId })).status).to.equal(401);
        expect(await events(account)).to.deep.equal([]);
      });
    }
  });
});
