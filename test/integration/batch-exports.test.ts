/**
 * Batch exports through HTTP at both levels: creating, listing, reading, changing, deleting, pausing and
 * unpausing them, and waking the engine. (Their backfills and runs: batch-export-backfills-runs.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pg from 'pg';
import { connectionStringOf } from '../../db/pg/client.js';
import { ENGINE_CHANNEL } from '../../db/queries/batch-exports/notify.js';
import { createProject } from '../../db/queries/projects.js';
import { setCurrentTeam } from '../../db/queries/users.js';
import { backfillRows, envPath, insertRun, invalid, NOT_FOUND, orgPath, S3_CONFIG, S3_SECRETS, s3Export } from '../helpers/batch-export-api.js';
import { testDb } from '../helpers/database.js';
import { MembershipLevel, newAccount, newMember, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { S3_KEYS_REQUIRED_MESSAGE as S3_KEYS_REQUIRED } from '../../handlers/jobs/destinations/s3-rules.js';

const EXPORT_KEYS = [
  'id',
  'team_id',
  'name',
  'model',
  'destination',
  'interval',
  'paused',
  'created_at',
  'last_updated_at',
  'last_paused_at',
  'start_at',
  'end_at',
  'latest_runs',
  'hogql_query',
  'schema',
  'filters',
  'timezone',
  'offset_day',
  'offset_hour',
].sort();

const POSTGRES_CONFIG = { host: 'db.example', database: 'analytics' };
const POSTGRES_SECRETS = { user: 'secret-user', password: 'secret-password' };
const SECRET_VALUES = [...Object.values(S3_SECRETS), ...Object.values(POSTGRES_SECRETS), 'secret-token'];

const exportRow = (id: string) => testDb()('batch_exports').where({ id }).first();

/** Fails the test if any secret value appears anywhere in the response. */
function expectNoSecrets(text: string): void {
  for (const secret of SECRET_VALUES) expect(text).not.to.include(secret);
}

describe('batch exports', () => {
  let server: TestServer;
  let owner: Account;
  let http: HttpClient;

  before(async () => {
    server = await startTestServer();
    owner = await newAccount(testDb());
    http = server.http.withKey(owner.key);
  });
  after(() => server.close());

  const create = async (body: Record<string, unknown> = s3Export(), path = envPath(owner), client = http) => {
    const res = await client.post(path, body);
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };

  describe('environments_batch_exports_create', () => {
    it('creates an export in the path environment, answering every field and no secret', async () => {
      const body = s3Export();
      const res = await http.post(envPath(owner), body);
      expect(res.status, res.text).to.equal(201);
      expect(Object.keys(res.body).sort()).to.deep.equal(EXPORT_KEYS);
      expect(res.body).to.deep.include({
        team_id: owner.environment.id,
        name: body.name,
        model: 'events',
        destination: { type: 'AwsS3', config: S3_CONFIG },
        interval: 'hour',
        paused: false,
        last_paused_at: null,
        start_at: null,
        end_at: null,
        latest_runs: [],
        hogql_query: '',
        schema: null,
        filters: null,
        timezone: 'UTC',
        offset_day: null,
        offset_hour: null,
      });
      expectNoSecrets(res.text);
      const row = await exportRow(res.body.id);
      expect(row).to.deep.include({
        team_id: owner.environment.id,
        destination_type: 'AwsS3',
        destination_config: { ...S3_CONFIG, ...S3_SECRETS },
        interval_offset: 0,
        created_by: owner.user.id,
        deleted: false,
      });
    });

    it('stores weekly offsets as interval_offset and answers them back', async () => {
      const created = await create(s3Export({ interval: 'week', offset_day: 2, offset_hour: 5, timezone: 'Europe/Berlin' }));
      expect(created).to.deep.include({ interval: 'week', offset_day: 2, offset_hour: 5, timezone: 'Europe/Berlin' });
      expect((await exportRow(created.id)).interval_offset).to.equal(2 * 86400 + 5 * 3600);
      const daily = await create(s3Export({ interval: 'day', offset_hour: 23 }));
      expect(daily).to.deep.include({ offset_day: null, offset_hour: 23 });
      expect((await exportRow(daily.id)).interval_offset).to.equal(23 * 3600);
    });

    it('accepts every interval, model and supported destination type', async () => {
      for (const interval of ['hour', 'day', 'week', 'every 5 minutes', 'every 15 minutes']) {
        expect((await create(s3Export({ interval }))).interval).to.equal(interval);
      }
      for (const model of ['events', 'persons', 'sessions']) {
        expect((await create(s3Export({ model }))).model).to.equal(model);
      }
      const destinations = [
        { type: 'S3', config: { ...S3_CONFIG, ...S3_SECRETS } },
        { type: 'S3Compatible', config: { ...S3_CONFIG, ...S3_SECRETS, endpoint_url: 'http://127.0.0.1:9000' } },
        { type: 'Postgres', config: { ...POSTGRES_CONFIG, ...POSTGRES_SECRETS, port: '6543' } },
        { type: 'HTTP', config: { url: 'http://127.0.0.1:8000/batch/', token: 'secret-token' } },
        { type: 'NoOp', config: {} },
      ];
      for (const destination of destinations) {
        const res = await http.post(envPath(owner), s3Export({ destination }));
        expect(res.status, res.text).to.equal(201);
        expect(res.body.destination.type).to.equal(destination.type);
        expectNoSecrets(res.text);
      }
      const postgres = await http.get(`${envPath(owner)}?limit=100`);
      const stored = postgres.body.results.find((item: { destination: { type: string } }) => item.destination.type === 'Postgres');
      expect(stored.destination.config).to.deep.equal({ ...POSTGRES_CONFIG, port: 6543 });
      expect((await exportRow(stored.id)).destination_config).to.deep.include({ ...POSTGRES_SECRETS, port: 6543 });
    });

    it('describes a hogql_query as the schema of the exported columns', async () => {
      const hogql_query = "SELECT event,\n  properties.$browser AS browser, upper(distinct_id), _inserted_at FROM events";
      const created = await create(s3Export({ hogql_query }));
      expect(created.hogql_query).to.equal(hogql_query);
      expect(created.schema).to.deep.equal({
        fields: [
          { expression: 'event', alias: 'event' },
          { expression: 'properties.$browser', alias: 'browser' },
          { expression: 'upper(distinct_id)', alias: 'upper(distinct_id)' },
          { expression: '_inserted_at', alias: '_inserted_at' },
        ],
        values: {},
        hogql_query: 'SELECT event, properties.$browser AS browser, upper(distinct_id), _inserted_at FROM events',
      });
      const filtered = await create(s3Export({ hogql_query: "SELECT event AS name FROM events WHERE event = 'signup'" }));
      expect(filtered.schema.fields).to.deep.equal([{ expression: 'event', alias: 'name' }]);
      const empty = await create(s3Export({ hogql_query: '' }));
      expect(empty).to.deep.include({ hogql_query: '', schema: null });
    });

    it('describes a hogql_query with comments as the same query without them', async () => {
      const hogql_query = "SELECT event, -- the name\n  properties.$browser /* the browser */ AS browser, '--' AS dashes // text\nFROM events -- all of them";
      const created = await create(s3Export({ hogql_query }));
      expect(created.hogql_query).to.equal(hogql_query);
      expect(created.schema).to.deep.equal({
        fields: [
          { expression: 'event', alias: 'event' },
          { expression: 'properties.$browser', alias: 'browser' },
          { expression: "'--'", alias: 'dashes' },
        ],
        values: {},
        hogql_query: "SELECT event, properties.$browser AS browser, '--' AS dashes FROM events",
      });
    });

    // PostHog's list for Parquet; each is written by the S3 destination (batch-export-s3.test.ts reads them back).
    for (const compression of ['zstd', 'lz4', 'snappy', 'gzip', 'brotli', null]) {
      it(`takes Parquet with compression ${compression}`, async () => {
        const config = { ...S3_CONFIG, file_format: 'Parquet', compression };
        const created = await create(s3Export({ destination: { type: 'AwsS3', config: { ...config, ...S3_SECRETS } } }));
        expect(created.destination.config).to.deep.include(config);
        expect((await exportRow(created.id)).destination_config).to.deep.include(config);
      });
    }

    it('stores property filters', async () => {
      const filters = [{ key: '$browser', operator: 'exact', type: 'event', value: ['Chrome'] }];
      const created = await create(s3Export({ filters }));
      expect(created.filters).to.deep.equal(filters);
      expect((await exportRow(created.id)).filters).to.deep.equal(filters);
    });

    it('answers what PostgreSQL refuses of the values as a 400, storing nothing', async () => {
      const long = await http.post(envPath(owner), s3Export({ name: 'n'.repeat(300) }));
      expect(long.status, long.text).to.equal(400);
      expect(long.body).to.deep.equal(invalid('A value is longer than allowed.', null, 'max_length'));
      const nul = await http.post(envPath(owner), s3Export({ destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, prefix: 'a\u0000b' } } }));
      expect(nul.status, nul.text).to.equal(400);
      expect(nul.body).to.deep.equal(invalid('Null characters are not allowed.', null, 'null_characters_not_allowed'));
      expect(await testDb()('batch_exports').where('name', 'n'.repeat(300))).to.have.length(0);
    });

    const refusals: [string, Record<string, unknown>, ReturnType<typeof invalid>][] = [
      ['an unsupported PostHog type', { destination: { type: 'Snowflake', config: {} } }, invalid("Destination type 'Snowflake' is not supported by this server. Supported types are: S3, AwsS3, S3Compatible, Postgres, HTTP, NoOp.", 'destination')],
      ['BigQuery', { destination: { type: 'BigQuery', config: {} } }, invalid("Destination type 'BigQuery' is not supported by this server. Supported types are: S3, AwsS3, S3Compatible, Postgres, HTTP, NoOp.", 'destination')],
      ['an unknown type', { destination: { type: 'Carrier pigeon', config: {} } }, invalid("Destination type 'Carrier pigeon' is not supported by this server. Supported types are: S3, AwsS3, S3Compatible, Postgres, HTTP, NoOp.", 'destination')],
      ['unknown config fields', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, colour: 'red', size: 1 } } }, invalid("Configuration has unknown field/s: 'colour', 'size'", 'destination')],
      ['a missing required field', { destination: { type: 'AwsS3', config: { bucket_name: 'b', region: 'r' } } }, invalid("Configuration missing required field: 'prefix'", 'destination')],
      ['S3Compatible without endpoint_url', { destination: { type: 'S3Compatible', config: S3_CONFIG } }, invalid("Configuration missing required field: 'endpoint_url'", 'destination')],
      ['a port that is no integer', { destination: { type: 'Postgres', config: { ...POSTGRES_CONFIG, ...POSTGRES_SECRETS, port: 'five' } } }, invalid("Configuration has invalid type: got 'str', expected 'int'", 'destination')],
      ['a boolean of the wrong type', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, use_virtual_style_addressing: 3 } } }, invalid("Configuration has invalid type: got 'int', expected 'bool'", 'destination')],
      ['S3 without keys', { destination: { type: 'AwsS3', config: S3_CONFIG } }, invalid(S3_KEYS_REQUIRED, 'destination')],
      ['legacy S3 without a secret key', { destination: { type: 'S3', config: { ...S3_CONFIG, aws_access_key_id: 'AKIA-ID' } } }, invalid(S3_KEYS_REQUIRED, 'destination')],
      ['S3Compatible with an empty access key', { destination: { type: 'S3Compatible', config: { ...S3_CONFIG, ...S3_SECRETS, aws_access_key_id: '', endpoint_url: 'http://127.0.0.1:9000' } } }, invalid(S3_KEYS_REQUIRED, 'destination')],
      ['S3 with null keys', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, aws_access_key_id: null, aws_secret_access_key: null } } }, invalid(S3_KEYS_REQUIRED, 'destination')],
      ['an empty bucket', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, bucket_name: '' } } }, invalid("The following inputs are empty: ['bucket_name']", 'destination')],
      ['an unknown file format', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, file_format: 'CSV' } } }, invalid("File format CSV is not supported. Supported file formats are ['Parquet', 'JSONLines']", 'destination')],
      ['a compression JSONLines lacks', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, compression: 'snappy' } } }, invalid("Compression snappy is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']", 'destination')],
      ['a compression JSONLines lacks that Parquet takes', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, compression: 'zstd' } } }, invalid("Compression zstd is not supported for file format JSONLines. Supported compressions are ['gzip', 'brotli']", 'destination')],
      ['a compression Parquet lacks', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, file_format: 'Parquet', compression: 'unknown' } } }, invalid("Compression unknown is not supported for file format Parquet. Supported compressions are ['zstd', 'lz4', 'snappy', 'gzip', 'brotli']", 'destination')],
      ['HTTP for persons', { model: 'persons', destination: { type: 'HTTP', config: { url: 'https://example.com/batch/', token: 't' } } }, invalid('HTTP batch exports only support the events model', 'model')],
      ['HTTP with a URL that is not http', { destination: { type: 'HTTP', config: { url: 'ftp://example.com/', token: 't' } } }, invalid('Invalid destination URL: ftp://example.com/', 'destination')],
      ['an unknown interval', { interval: 'fortnight' }, invalid('"fortnight" is not a valid choice.', 'interval', 'invalid_choice')],
      ['an unknown time zone', { timezone: 'Mars/Olympus' }, invalid('"Mars/Olympus" is not a valid choice.', 'timezone', 'invalid_choice')],
      ['offset_day on a daily export', { interval: 'day', offset_day: 1 }, invalid('offset_day can only be set for weekly batch exports', 'offset_day')],
      ['offset_day out of range', { interval: 'week', offset_day: 7 }, invalid('offset_day must be between 0 and 6', 'offset_day')],
      ['offset_hour on an hourly export', { offset_hour: 1 }, invalid('offset_hour can only be set for daily or weekly batch exports', 'offset_hour')],
      ['offset_hour out of range', { interval: 'day', offset_hour: 24 }, invalid('offset_hour must be between 0 and 23', 'offset_hour')],
      ['filters that are an object', { filters: { key: '$browser' } }, invalid("'filters' should be an array of filters", 'filters')],
      ['filters that are not filters', { filters: ['x'] }, invalid("'filters' should be an array of filters", 'filters')],
      ['an unparseable query', { hogql_query: 'SELEC event FROM events' }, invalid('Failed to parse query', 'hogql_query')],
      ['a query with a syntax error', { hogql_query: 'SELECT event + FROM events' }, invalid('Failed to parse query', 'hogql_query')],
      ['a query naming an unknown field', { hogql_query: 'SELECT nonsense FROM events' }, invalid('Invalid HogQL query: Unknown field "nonsense".', 'hogql_query')],
      ['a UNION', { hogql_query: 'SELECT event FROM events UNION ALL SELECT event FROM events' }, invalid('UNIONs are not supported', 'hogql_query')],
      ['no FROM', { hogql_query: 'SELECT 1' }, invalid('Query must SELECT FROM events', 'hogql_query')],
      ['a subquery', { hogql_query: 'SELECT event FROM (SELECT event FROM events)' }, invalid('Subqueries or CTEs are not supported', 'hogql_query')],
      ['another table', { hogql_query: 'SELECT event FROM persons' }, invalid('Query must only SELECT FROM events', 'hogql_query')],
      ['a WHERE that does not parse', { hogql_query: 'SELECT event FROM events WHERE event = ' }, invalid('Failed to parse query', 'hogql_query')],
      ['an unterminated comment', { hogql_query: 'SELECT event FROM events /* never closed' }, invalid('Failed to parse query', 'hogql_query')],
      ['a table named after a comment that ends the line', { hogql_query: 'SELECT event FROM -- events\npersons' }, invalid('Query must only SELECT FROM events', 'hogql_query')],
      ['a JOIN', { hogql_query: 'SELECT event FROM events JOIN persons ON 1 = 1' }, invalid('JOINs are not supported', 'hogql_query')],
      ['a port out of range', { destination: { type: 'Postgres', config: { ...POSTGRES_CONFIG, ...POSTGRES_SECRETS, port: 99999 } } }, invalid("Configuration has invalid value: 'port' must be between 1 and 65535", 'destination')],
      ['files of no size', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, max_file_size_mb: 0 } } }, invalid("Configuration has invalid value: 'max_file_size_mb' must be at least 1", 'destination')],
      ['a prefix with an unknown variable', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, prefix: 'events/{bad}' } } }, invalid("The prefix 'events/{bad}' uses {bad}; its variables are {year}, {month}, {day}, {hour}, {minute}, {second}, {data_interval_start}, {data_interval_end}, {table}", 'destination')],
      ['a prefix with a single brace', { destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS, prefix: 'events/{year' } } }, invalid("The prefix 'events/{year' has an unclosed '{'; its variables are {year}, {month}, {day}, {hour}, {minute}, {second}, {data_interval_start}, {data_interval_end}, {table}", 'destination')],
      ['a time zone PostgreSQL does not know', { timezone: 'US/Pacific-New' }, invalid('"US/Pacific-New" is not a valid choice.', 'timezone', 'invalid_choice')],
      ['filters a run cannot compile', { filters: [{ key: 'no_such_field = 1', type: 'hogql' }] }, invalid('Invalid filters: Unknown field "no_such_field".', 'filters')],
    ];
    for (const [what, change, error] of refusals) {
      it(`refuses ${what} (400)`, async () => {
        const before = await testDb()('batch_exports').count<{ count: string }[]>('* as count');
        const res = await http.post(envPath(owner), s3Export(change));
        expect(res.status, res.text).to.equal(400);
        expect(res.body).to.deep.equal(error);
        const afterwards = await testDb()('batch_exports').count<{ count: string }[]>('* as count');
        expect(afterwards).to.deep.equal(before);
      });
    }
  });

  describe('batch_exports_create', () => {
    it('creates in the only environment, and lists and reads it at both levels', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const created = await create(s3Export(), orgPath(account), client);
      expect(created.team_id).to.equal(account.environment.id);
      for (const base of [orgPath(account), envPath(account)]) {
        const listed = await client.get(base);
        expect(listed.status).to.equal(200);
        expect(listed.body).to.deep.include({ count: 1, next: null, previous: null });
        expect(listed.body.results.map((item: { id: string }) => item.id)).to.deep.equal([created.id]);
        const read = await client.get(`${base}${created.id}/`);
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.equal(created);
        expectNoSecrets(read.text + listed.text);
      }
    });

    it('creates in the caller’s current project when the organization has several, as PostHog', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const { environment: second } = await createProject(testDb(), account.organization.id, 'Second');
      // PostHog's body: no team_id. The account's user works in its first project.
      const inFirst = await create(s3Export(), orgPath(account), client);
      expect(inFirst.team_id).to.equal(account.environment.id);
      await setCurrentTeam(testDb(), account.user.id, account.organization.id, second.id);
      const inSecond = await create(s3Export(), orgPath(account), client);
      expect(inSecond.team_id).to.equal(second.id);
      const listed = async (environmentId: number) =>
        (await client.get(`/api/environments/${environmentId}/batch_exports/`)).body.results.map((item: { id: string }) => item.id);
      expect(await listed(account.environment.id)).to.deep.equal([inFirst.id]);
      expect(await listed(second.id)).to.deep.equal([inSecond.id]);
    });

    it('takes team_id, only its own organization’s, over the current project', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const { environment: second } = await createProject(testDb(), account.organization.id, 'Second');
      const foreign = await client.post(orgPath(account), s3Export({ team_id: owner.environment.id }));
      expect(foreign.status).to.equal(400);
      expect(foreign.body).to.deep.equal(
        invalid(`Environment ${owner.environment.id} is not an environment of this organization.`, 'team_id'),
      );
      const created = await create(s3Export({ team_id: second.id }), orgPath(account), client);
      expect(created.team_id).to.equal(second.id);
      expect((await client.get(envPath(account))).body.count).to.equal(0);
      expect((await client.get(`/api/environments/${second.id}/batch_exports/`)).body.count).to.equal(1);
    });

    it('asks for team_id when the current project is not in the organization and it has several', async () => {
      const account = await newAccount(testDb());
      await createProject(testDb(), account.organization.id, 'Second');
      const needsTeam = invalid(
        "Your current project is not in this organization, which has several: give 'team_id', the environment the export belongs to.",
        'team_id',
        'required',
      );
      // A member who never chose a project, and one whose current project is in another organization.
      const member = await newMember(testDb(), account.organization, MembershipLevel.admin, {});
      const missing = await server.http.withKey(member.key).post(orgPath(account), s3Export());
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal(needsTeam);
      const elsewhere = await newMember(testDb(), account.organization, MembershipLevel.admin, {});
      await setCurrentTeam(testDb(), elsewhere.user.id, owner.organization.id, owner.environment.id);
      const other = await server.http.withKey(elsewhere.key).post(orgPath(account), s3Export());
      expect(other.status).to.equal(400);
      expect(other.body).to.deep.equal(needsTeam);
      expect((await server.http.withKey(account.key).get(orgPath(account))).body.count).to.equal(0);
    });

    it('falls back to the only environment when the current project is elsewhere', async () => {
      const account = await newAccount(testDb());
      const member = await newMember(testDb(), account.organization, MembershipLevel.admin, {});
      const created = await create(s3Export(), orgPath(account), server.http.withKey(member.key));
      expect(created.team_id).to.equal(account.environment.id);
    });

    it('answers 404 for another organization’s or environment’s export', async () => {
      const created = await create();
      const stranger = await newAccount(testDb());
      const client = server.http.withKey(stranger.key);
      for (const path of [`${orgPath(stranger)}${created.id}/`, `${envPath(stranger)}${created.id}/`]) {
        expect((await client.get(path)).body).to.deep.equal(NOT_FOUND);
        expect((await client.patch(path, { name: 'x' })).status).to.equal(404);
        expect((await client.delete(path)).status).to.equal(404);
        expect((await client.post(`${path}pause/`)).status).to.equal(404);
      }
      expect((await client.get(`${envPath(stranger)}${created.id}/runs/`)).status).to.equal(404);
      const member = await newMember(testDb(), owner.organization, MembershipLevel.member, {});
      const seen = await server.http.withKey(member.key).get(`${orgPath(owner)}${created.id}/`);
      expect(seen.status).to.equal(200);
      expect((await exportRow(created.id)).name).to.equal(created.name);
    });
  });

  describe('batch_exports_list', () => {
    it('list at organization level only the exports of their environments, and may not write there', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const { environment: second } = await createProject(testDb(), account.organization.id, 'Second');
      const mine = await create(s3Export(), envPath(account), client);
      const other = await create(s3Export(), `/api/environments/${second.id}/batch_exports/`, client);
      const scoped = await newMember(testDb(), account.organization, MembershipLevel.member, { scopedTeams: [second.id] });
      const scopedClient = server.http.withKey(scoped.key);
      const listed = await scopedClient.get(orgPath(account));
      expect(listed.body.results.map((item: { id: string }) => item.id)).to.deep.equal([other.id]);
      expect((await scopedClient.get(`${orgPath(account)}${mine.id}/`)).status).to.equal(404);
      expect((await scopedClient.post(orgPath(account), s3Export({ team_id: second.id }))).status).to.equal(403);
    });
  });

  describe('environments_batch_exports_list', () => {
    it('pages newest first with limit and offset', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const ids: string[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await create(s3Export(), envPath(account), client)).id);
      await Promise.all(ids.map((id, index) => testDb()('batch_exports').where({ id }).update({ created_at: new Date(Date.UTC(2026, 0, 1 + index)) })));
      const first = await client.get(`${envPath(account)}?limit=2`);
      expect(first.body.count).to.equal(3);
      expect(first.body.results.map((item: { id: string }) => item.id)).to.deep.equal([ids[2], ids[1]]);
      expect(first.body.previous).to.equal(null);
      // The link names the server it came from (a Prism proxy in front of it forwards it as it is).
      const next = new URL(first.body.next);
      expect(`${next.pathname}${next.search}`).to.equal(`${envPath(account)}?limit=2&offset=2`);
      const second = await client.get(`${envPath(account)}?limit=2&offset=2`);
      expect(second.body.results.map((item: { id: string }) => item.id)).to.deep.equal([ids[0]]);
      expect(second.body.next).to.equal(null);
    });
  });

  describe('environments_batch_exports_partial_update', () => {
    it('merges the destination config into the stored one, keeping secrets unsent', async () => {
      const created = await create();
      const res = await http.patch(`${envPath(owner)}${created.id}/`, {
        destination: { type: 'AwsS3', config: { prefix: 'new/', compression: 'gzip' } },
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.destination).to.deep.equal({ type: 'AwsS3', config: { ...S3_CONFIG, prefix: 'new/', compression: 'gzip' } });
      expectNoSecrets(res.text);
      expect((await exportRow(created.id)).destination_config).to.deep.equal({
        ...S3_CONFIG,
        ...S3_SECRETS,
        prefix: 'new/',
        compression: 'gzip',
      });
    });

    it('refuses a change that takes the S3 keys away, or a new S3 type without them, keeping the stored keys', async () => {
      const created = await create();
      const path = `${envPath(owner)}${created.id}/`;
      const cleared = await http.patch(path, { destination: { type: 'AwsS3', config: { aws_secret_access_key: null } } });
      expect([cleared.status, cleared.body]).to.deep.equal([400, invalid(S3_KEYS_REQUIRED, 'destination')]);
      const retyped = await http.patch(path, { destination: { type: 'S3', config: S3_CONFIG } });
      expect([retyped.status, retyped.body]).to.deep.equal([400, invalid(S3_KEYS_REQUIRED, 'destination')]);
      expect((await exportRow(created.id)).destination_config).to.deep.equal({ ...S3_CONFIG, ...S3_SECRETS });
    });

    it('changes the writable fields and validates what it is given', async () => {
      const created = await create();
      const path = `${orgPath(owner)}${created.id}/`;
      const res = await http.patch(path, { name: 'Renamed', interval: 'day', offset_hour: 3, hogql_query: 'SELECT event FROM events' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.include({ name: 'Renamed', interval: 'day', offset_hour: 3, offset_day: null });
      expect(res.body.schema.fields).to.deep.equal([{ expression: 'event', alias: 'event' }]);
      const refused = await http.patch(path, { destination: { type: 'AwsS3', config: { colour: 'red' } } });
      expect(refused.body).to.deep.equal(invalid("Configuration has unknown field/s: 'colour'", 'destination'));
      const otherType = await http.patch(path, { destination: { type: 'Postgres', config: POSTGRES_CONFIG } });
      expect(otherType.body).to.deep.equal(invalid("Configuration missing required field: 'user'", 'destination'));
      expect((await exportRow(created.id)).destination_type).to.equal('AwsS3');
    });
  });

  describe('environments_batch_exports_retrieve', () => {
    it('shows the 10 most recent runs by created_at, newest first, without secrets', async () => {
      const created = await create();
      const ids: string[] = [];
      for (let index = 0; index < 12; index += 1) ids.push(await insertRun(created.id, { hour: index, minutesAgo: 12 - index }));
      const res = await http.get(`${envPath(owner)}${created.id}/`);
      expect(res.body.latest_runs.map((run: { id: string }) => run.id)).to.deep.equal(ids.slice(2).reverse());
      expect(res.body.latest_runs[0]).to.deep.include({ status: 'Completed', records_completed: 5, bytes_exported: 1234, batch_export: created.id, backfill: null });
      expectNoSecrets(res.text);
      const listed = await http.get(envPath(owner));
      const item = listed.body.results.find((entry: { id: string }) => entry.id === created.id);
      expect(item.latest_runs).to.have.length(10);
    });
  });

  describe('environments_batch_exports_destroy', () => {
    it('soft-deletes, hides the export and cancels its unfinished backfills and their runs', async () => {
      const created = await create(s3Export({ destination: { type: 'NoOp', config: {} } }));
      const backfillId = randomUUID();
      await testDb()('batch_export_backfills').insert({ id: backfillId, batch_export_id: created.id, team_id: owner.environment.id, status: 'Running' });
      const running = await insertRun(created.id, { status: 'Running', backfillId });
      const done = await insertRun(created.id, { status: 'Completed', backfillId, hour: 5 });
      const res = await http.delete(`${envPath(owner)}${created.id}/`);
      expect(res.status).to.equal(204);
      expect((await http.get(`${envPath(owner)}${created.id}/`)).status).to.equal(404);
      expect((await http.delete(`${envPath(owner)}${created.id}/`)).status).to.equal(404);
      const listed = await http.get(`${envPath(owner)}?limit=1000`);
      expect(listed.body.results.map((item: { id: string }) => item.id)).not.to.include(created.id);
      expect((await exportRow(created.id)).deleted).to.equal(true);
      expect((await testDb()('batch_export_backfills').where({ id: backfillId }).first()).status).to.equal('Cancelled');
      expect((await testDb()('batch_export_runs').where({ id: running }).first()).status).to.equal('Cancelled');
      expect((await testDb()('batch_export_runs').where({ id: done }).first()).status).to.equal('Completed');
    });
  });

  describe('where the schedule starts again', () => {
    it('moves schedule_from to now on an unpause or a new grid of intervals, and on nothing else', async () => {
      const created = await create();
      const path = `${envPath(owner)}${created.id}/`;
      const scheduleFrom = async () => (await exportRow(created.id)).schedule_from as Date | null;
      const patched = async (body: Record<string, unknown>) => expect((await http.patch(path, body)).status).to.equal(200);
      await patched({ name: 'Renamed', paused: false });
      expect(await scheduleFrom()).to.equal(null);
      const moved: Array<Date | null> = [];
      for (const body of [{ interval: 'day' }, { offset_hour: 4 }, { timezone: 'Europe/Paris' }]) {
        await testDb()('batch_exports').where({ id: created.id }).update({ schedule_from: null });
        await patched(body);
        moved.push(await scheduleFrom());
      }
      expect(moved.every((date) => date instanceof Date)).to.equal(true);
      await testDb()('batch_exports').where({ id: created.id }).update({ schedule_from: null });
      await patched({ interval: 'day', offset_hour: 4, timezone: 'Europe/Paris', last_paused_at: '2026-01-01T00:00:00Z' });
      expect(await scheduleFrom()).to.equal(null);
      await http.post(`${path}pause/`);
      expect(await scheduleFrom()).to.equal(null);
      await http.post(`${path}unpause/`);
      expect(await scheduleFrom()).to.be.instanceOf(Date);
      await testDb()('batch_exports').where({ id: created.id }).update({ schedule_from: null });
      await patched({ paused: true });
      await patched({ paused: false });
      expect(await scheduleFrom()).to.be.instanceOf(Date);
    });
  });

  describe('environments_batch_exports_pause_create', () => {
    it('pauses once, recording when, and unpauses', async () => {
      const created = await create();
      const path = `${envPath(owner)}${created.id}/`;
      const paused = await http.post(`${path}pause/`);
      expect(paused.status).to.equal(200);
      expect(paused.body).to.deep.equal({ paused: true });
      const first = await exportRow(created.id);
      expect(first.paused).to.equal(true);
      expect(first.last_paused_at).to.be.instanceOf(Date);
      await testDb()('batch_exports').where({ id: created.id }).update({ last_paused_at: new Date('2026-01-01T00:00:00Z') });
      expect((await http.post(`${path}pause/`)).body).to.deep.equal({ paused: true });
      expect((await exportRow(created.id)).last_paused_at.toISOString()).to.equal('2026-01-01T00:00:00.000Z');
      const unpaused = await http.post(`${orgPath(owner)}${created.id}/unpause/`);
      expect(unpaused.body).to.deep.equal({ paused: false });
      expect((await exportRow(created.id)).paused).to.equal(false);
      expect(await backfillRows(created.id)).to.have.length(0);
    });
  });

  describe('environments_batch_exports_unpause_create', () => {
    it('backfills from last_paused_at to now, floored to the interval, when asked', async () => {
      const created = await create();
      const path = `${envPath(owner)}${created.id}/`;
      await http.post(`${path}pause/`);
      await testDb()('batch_exports').where({ id: created.id }).update({ last_paused_at: new Date('2026-01-01T10:42:00Z') });
      const res = await http.post(`${path}unpause/`, { backfill: true });
      expect(res.body).to.deep.equal({ paused: false });
      const [backfill] = await backfillRows(created.id);
      expect(backfill.status).to.equal('Starting');
      expect(backfill.start_at.toISOString()).to.equal('2026-01-01T10:00:00.000Z');
      expect(backfill.end_at.getTime() % 3600_000).to.equal(0);
      expect(backfill.end_at.getTime()).to.be.greaterThan(backfill.start_at.getTime());
    });
  });

  // The organization-level paths of one export answer as the environment-level ones.
  describe('batch_exports_retrieve', () => {
    it('reads the export as the environment-level path does', async () => {
      const created = await create();
      const res = await http.get(`${orgPath(owner)}${created.id}/`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal((await http.get(`${envPath(owner)}${created.id}/`)).body);
      expectNoSecrets(res.text);
    });
  });

  describe('batch_exports_partial_update', () => {
    it('changes the name and answers the export as it is now', async () => {
      const created = await create();
      const res = await http.patch(`${orgPath(owner)}${created.id}/`, { name: 'Renamed at organization level' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.name).to.equal('Renamed at organization level');
      expect(res.body).to.deep.equal((await http.get(`${envPath(owner)}${created.id}/`)).body);
      expect((await exportRow(created.id)).name).to.equal('Renamed at organization level');
    });
  });

  describe('batch_exports_destroy', () => {
    it('answers 204 with no body, and the export is gone at both levels', async () => {
      const created = await create();
      const res = await http.delete(`${orgPath(owner)}${created.id}/`);
      expect([res.status, res.text]).to.deep.equal([204, '']);
      expect((await http.get(`${orgPath(owner)}${created.id}/`)).body).to.deep.equal(NOT_FOUND);
      expect((await http.get(`${envPath(owner)}${created.id}/`)).body).to.deep.equal(NOT_FOUND);
      expect((await exportRow(created.id)).deleted).to.equal(true);
    });
  });

  describe('batch_exports_pause_create', () => {
    it('pauses the export: 200 {"paused": true}', async () => {
      const created = await create();
      const res = await http.post(`${orgPath(owner)}${created.id}/pause/`);
      expect([res.status, res.body]).to.deep.equal([200, { paused: true }]);
      expect((await exportRow(created.id)).paused).to.equal(true);
    });
  });

  describe('batch_exports_unpause_create', () => {
    it('unpauses a paused export: 200 {"paused": false}, and backfills nothing unless asked', async () => {
      const created = await create();
      await http.post(`${orgPath(owner)}${created.id}/pause/`);
      const res = await http.post(`${orgPath(owner)}${created.id}/unpause/`);
      expect([res.status, res.body]).to.deep.equal([200, { paused: false }]);
      expect((await exportRow(created.id)).paused).to.equal(false);
      expect(await backfillRows(created.id)).to.have.length(0);
    });
  });

  describe('waking the engine', () => {
    it('notifies the engine channel once per committed write, and not for a refused one', async () => {
      const listener = new pg.Client({ connectionString: connectionStringOf(testDb()) });
      await listener.connect();
      try {
        const heard: string[] = [];
        let markerHeard: () => void = () => {};
        const marker = new Promise<void>((resolve) => (markerHeard = resolve));
        listener.on('notification', (notification) => {
          if (notification.channel !== ENGINE_CHANNEL) return;
          if (notification.payload === 'end of test') markerHeard();
          else heard.push(notification.payload ?? '');
        });
        await listener.query(`listen ${ENGINE_CHANNEL}`);
        const created = await create(s3Export({ destination: { type: 'NoOp', config: {} } }));
        const path = `${envPath(owner)}${created.id}/`;
        expect((await http.patch(path, { name: 'Renamed' })).status).to.equal(200);
        expect((await http.patch(path, { interval: 'fortnight' })).status).to.equal(400);
        expect((await http.post(`${path}pause/`)).status).to.equal(200);
        expect((await http.post(`${path}unpause/`)).status).to.equal(200);
        const run = await insertRun(created.id, { status: 'Running' });
        expect((await http.post(`${path}runs/${run}/cancel/`)).status).to.equal(200);
        expect((await http.post(`${path}runs/${run}/retry/`)).status).to.equal(200);
        expect((await http.delete(path)).status).to.equal(204);
        await testDb().raw('select pg_notify(?, ?)', [ENGINE_CHANNEL, 'end of test']);
        await marker;
        // create, patch, pause, unpause, cancel, retry, delete; the refused patch said nothing.
        expect(heard).to.have.length(7);
      } finally {
        await listener.end();
      }
    });
  });

});
