/**
 * The event listing when PostgreSQL refuses what the caller wrote, or runs out of time: HogQL that PostgreSQL
 * refuses to run answers 400 naming the parameter (never 500), and a query cancelled by the statement timeout
 * answers 504 within that timeout and half a second, however many statements its page runs.
 */
import { expect } from 'chai';
import { insertEvents } from '../helpers/seed-events.js';
import { insertPersons } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

function qs(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) search.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  return search.toString();
}

describe('event listing: what PostgreSQL refuses, and its deadline', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: Account;

  before(async () => {
    server = await startTestServer();
    account = await newAccount(testDb());
    await insertEvents(testDb(), account.environment.id, [
      { uuid: '0190f1c4-0000-7000-8000-0000000000a1', event: 'pageview', distinct_id: 'ada', timestamp: '2026-01-10T10:00:00Z', properties: {} },
    ]);
  });

  after(async () => {
    await server.close();
  });

  const list = (params: Record<string, unknown>) => server.http.withKey(account.key).get(`/api/projects/${account.environment.id}/events/?${qs(params)}`);
  const many = (n: number) => Array.from({ length: n }, () => 'event').join(', ');

  const cases: Array<[string, Record<string, unknown>, string, string | RegExp]> = [
    ['concat() of 101 values', { select: [`concat(${many(101)})`] }, 'select', 'A function is given more than 100 arguments.'],
    ['concat() of 300 values in where', { where: [`concat(${many(300)}) = 'x'`] }, 'where', 'A function is given more than 100 arguments.'],
    ['a computed regular expression that does not compile', { where: ["match(event, concat('(', event))"] }, 'where', /^A regular expression is not valid/],
  ];
  for (const [name, params, attr, detail] of cases) {
    it(`${name} → 400 (${attr})`, async () => {
      const res = await list(params);
      expect(res.status, res.text).to.equal(400);
      expect(res.body).to.include({ type: 'validation_error', code: 'invalid_input', attr });
      if (typeof detail === 'string') expect(res.body.detail).to.equal(detail);
      else expect(res.body.detail).to.match(detail);
    });
  }

  describe('a query that waits past the timeout', () => {
    const timeoutMs = 1000;
    let impatient: TestServer;
    let crowd: Account;

    before(async () => {
      impatient = await startTestServer({ config: { queryTimeoutMs: timeoutMs } });
      crowd = await newAccount(testDb());
      // More persons on the plan than the listing looks up first, so that the page takes its longer ways.
      await insertPersons(
        testDb(),
        crowd.environment.id,
        Array.from({ length: 1002 }, (_, index) => ({ distinctIds: [`p${index}`], properties: { plan: 'team' } })),
      );
    });

    after(async () => {
      await impatient.close();
    });

    const pages: Array<[string, Record<string, unknown>, string]> = [
      ['a plain page', {}, 'events'],
      ['a page filtered on a person property', { properties: [{ key: 'plan', value: 'team', type: 'person' }] }, 'events'],
      ['a page of one person', { person_id: '1' }, 'persons'],
      ['a page of one person filtered on a person property', { person_id: '1', properties: [{ key: 'plan', value: 'team', type: 'person' }] }, 'events'],
    ];
    for (const [name, params, locked] of pages) {
      it(`answers 504 within the timeout and half a second: ${name} (${locked} locked)`, async () => {
        await testDb().transaction(async (trx) => {
          await trx.raw(`lock table ${locked} in access exclusive mode`);
          const started = performance.now();
          const res = await impatient.http.withKey(crowd.key).get(`/api/projects/${crowd.environment.id}/events/?${qs(params)}`);
          const elapsed = performance.now() - started;
          expect(res.status, res.text).to.equal(504);
          expect(res.body).to.include({ type: 'server_error', code: 'query_timeout' });
          // (Generous for a shared machine: the bound is timeoutMs + 500 ms.)
          expect(elapsed).to.be.below(timeoutMs + 1500);
        });
      });
    }

    it('answers 504 within the timeout and half a second when the page’s first statement spent most of it', async () => {
      const patient = await startTestServer({ config: { queryTimeoutMs: 2000 } });
      try {
        await testDb().transaction(async (events) => {
          await events.raw('lock table events in access exclusive mode');
          let answer: Promise<{ status: number; code: string; ms: number }> | null = null;
          // The person's distinct ids wait for persons until 1.8 s, then the page's query waits for events.
          await testDb().transaction(async (persons) => {
            await persons.raw('lock table persons in access exclusive mode');
            const started = performance.now();
            answer = patient.http
              .withKey(crowd.key)
              .get(`/api/projects/${crowd.environment.id}/events/?${qs({ person_id: '1' })}`)
              .then((res) => ({ status: res.status, code: res.body.code, ms: performance.now() - started }));
            await new Promise((resolve) => setTimeout(resolve, 1800));
          });
          const { status, code, ms } = await answer!;
          expect([status, code]).to.deep.equal([504, 'query_timeout']);
          expect(ms).to.be.below(2000 + 1000); // each statement with the whole timeout took 3.8 s
        });
      } finally {
        await patient.close();
      }
    });

    it('answers 504 within the timeout and half a second when pages wait for a read session (more pages than sessions)', async () => {
      await testDb().transaction(async (trx) => {
        await trx.raw('lock table events in access exclusive mode');
        const started = performance.now();
        const answers = await Promise.all(
          Array.from({ length: 8 }, async () => {
            const res = await impatient.http.withKey(crowd.key).get(`/api/projects/${crowd.environment.id}/events/`);
            return { status: res.status, code: res.body.code, ms: performance.now() - started };
          }),
        );
        for (const answer of answers) {
          expect([answer.status, answer.code]).to.deep.equal([504, 'query_timeout']);
          expect(answer.ms).to.be.below(timeoutMs + 1500);
        }
      });
    });
  });
});
