/**
 * Generates a realistic project's worth of events, persons and distinct ids into a Hedgerow database with COPY,
 * for the event-listing benchmark (scripts/bench/events.ts) or for trying the listing on a big project.
 *
 *   tsx scripts/generate-events.ts --database-url postgres://… --team-id 1 [--events 10000000] [--persons 200000]
 *     [--days 30] [--seed 1]
 *
 * Deterministic for a seed (except `inserted_at`). Events run oldest to newest over the last `--days` days, as
 * ingestion writes them: about half page views; browsers Chrome 60%, Safari 20%, Firefox 10%; a few users
 * produce most events. Each person has a `user-<n>` distinct id, one in five also an `anon-<n>` id merged into
 * it; person plans are free 80%, pro 17%, enterprise 3%.
 *
 * `generateEnvironments` loads several environments in one pass (for a benchmark that needs data on every shard
 * of a distributed PostgreSQL); persons are numbered on from the largest id already stored.
 *
 * The events table's indexes and constraints are dropped during the load and rebuilt after it (PostgreSQL builds
 * an index from sorted data far faster than it maintains one row by row); the table must be empty for the team.
 */
import pg from 'pg';
import pgCopyStreams from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { uuidv7 } from '../db/core/uuid.js';

/** What is generated for one environment. */
export interface GeneratedEnvironment {
  teamId: number;
  events: number;
  persons: number;
  seed: number;
}

interface LoadSettings {
  databaseUrl: string;
  days: number;
  /** The newest event's time; now by default. */
  end?: Date;
  log?: (line: string) => void;
}

export type GenerateOptions = GeneratedEnvironment & LoadSettings;

export interface GenerateEnvironmentsOptions extends LoadSettings {
  environments: GeneratedEnvironment[];
}

/** mulberry32: a small fast seeded generator, good enough for synthetic data. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, weighted: readonly (readonly [T, number])[]): T {
  let r = random();
  for (const [value, weight] of weighted) {
    if (r < weight) return value;
    r -= weight;
  }
  return weighted[weighted.length - 1]![0];
}

const EVENTS = [
  ['$pageview', 0.5],
  ['$autocapture', 0.2],
  ['$pageleave', 0.12],
  ['$screen', 0.05],
  ['feature_used', 0.05],
  ['$identify', 0.03],
  ['purchase', 0.01],
  ['signup', 0.005],
  ['invite_sent', 0.035],
] as const;
const BROWSERS = [
  ['Chrome', 0.6],
  ['Safari', 0.2],
  ['Firefox', 0.1],
  ['Edge', 0.08],
  ['Opera', 0.02],
] as const;
const OSES = [
  ['Mac OS X', 0.35],
  ['Windows', 0.4],
  ['Linux', 0.05],
  ['iOS', 0.12],
  ['Android', 0.08],
] as const;
const PATHS = ['/', '/pricing', '/docs', '/blog/launch', '/signup', '/app/dashboard', '/app/settings', '/docs/api'];
const PLANS = [
  ['free', 0.8],
  ['pro', 0.17],
  ['enterprise', 0.03],
] as const;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'IN', 'BR', 'JP', 'CA'];
const CHAINS = [
  'button.btn.btn-primary:attr__class="btn btn-primary"nth-child="1"nth-of-type="1"text="Sign up";form.signup:attr__class="signup"nth-child="2"nth-of-type="1";body:nth-child="2"nth-of-type="1"',
  'a.nav-link:attr__class="nav-link"attr__href="/pricing"href="/pricing"nth-child="3"nth-of-type="1"text="Pricing";nav.top:attr__class="top"nth-child="1"nth-of-type="1";body:nth-child="2"nth-of-type="1"',
  'span:nth-child="1"nth-of-type="1"text="Save";button.save:attr__class="save"attr__data-attr="save-settings"nth-child="4"nth-of-type="2";div.panel:attr__class="panel"nth-child="1"nth-of-type="1"',
];

/** The skewed choice of a user: a few users produce most events. */
function userOf(random: () => number, persons: number): number {
  const r = random();
  return Math.min(persons - 1, Math.floor(persons * r * r));
}

/** Text COPY escapes; generated values never hold tabs, newlines or backslashes except where written here. */
function field(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
}

/** The environment's persons, their ids from `firstId` on. */
function personRows(options: GeneratedEnvironment, firstId: number): { persons: string[]; distinctIds: string[]; properties: string[] } {
  const random = generator(options.seed * 7919 + 1);
  const persons: string[] = [];
  const propertiesOf: string[] = [];
  const distinctIds: string[] = [];
  for (let n = 0; n < options.persons; n += 1) {
    const id = firstId + n;
    const properties = JSON.stringify({
      email: `user${n}@example.com`,
      name: `User ${n}`,
      plan: pick(random, PLANS),
      country: COUNTRIES[Math.floor(random() * COUNTRIES.length)],
    });
    persons.push(`${id}\t${uuidv7(1_700_000_000_000 + n, random)}\t${options.teamId}\t${field(properties)}\ttrue\n`);
    propertiesOf.push(field(properties));
    distinctIds.push(`${options.teamId}\tuser-${n}\t${id}\n`);
    if (n % 5 === 0) distinctIds.push(`${options.teamId}\tanon-${n}\t${id}\n`);
  }
  return { persons, distinctIds, properties: propertiesOf };
}

/** The events, oldest first, in chunks of COPY text. */
function* eventChunks(
  options: GeneratedEnvironment,
  settings: LoadSettings,
  personUuids: string[],
  personProperties: string[],
): Generator<string> {
  const random = generator(options.seed);
  const end = (settings.end ?? new Date()).getTime();
  const start = end - settings.days * 86_400_000;
  const step = (end - start) / options.events;
  let chunk: string[] = [];
  for (let index = 0; index < options.events; index += 1) {
    const ms = Math.floor(start + index * step + random() * step);
    const timestamp = new Date(Math.min(ms, end)).toISOString();
    const event = pick(random, EVENTS);
    const user = userOf(random, options.persons);
    const distinctId = user % 5 === 0 && random() < 0.3 ? `anon-${user}` : `user-${user}`;
    const path = PATHS[Math.floor(random() * PATHS.length)]!;
    const properties: Record<string, unknown> = {
      $browser: pick(random, BROWSERS),
      $browser_version: 100 + Math.floor(random() * 30),
      $os: pick(random, OSES),
      $device_type: random() < 0.8 ? 'Desktop' : 'Mobile',
      $current_url: `https://example.com${path}?ref=${Math.floor(random() * 1000)}`,
      $host: 'example.com',
      $pathname: path,
      $lib: 'web',
      $lib_version: '1.200.0',
      $session_id: uuidv7(ms, random),
      $screen_width: random() < 0.5 ? 1440 : 1920,
    };
    if (event === 'purchase') {
      properties.price = Math.round(random() * 20_000) / 100;
      properties.currency = 'USD';
    }
    if (event === 'feature_used') properties.feature = ['export', 'share', 'filter', 'insight'][Math.floor(random() * 4)];
    const chain = event === '$autocapture' ? CHAINS[Math.floor(random() * CHAINS.length)]! : '';
    chunk.push(
      `${options.teamId}\t${uuidv7(ms, random)}\t${event}\t${distinctId}\t${field(JSON.stringify(properties))}\t${timestamp}\t${field(chain)}\t${personUuids[user]}\t${personProperties[user]}\n`,
    );
    if (chunk.length === 5000) {
      yield chunk.join('');
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk.join('');
}

async function copy(client: pg.Client, statement: string, chunks: Iterable<string>): Promise<void> {
  await pipeline(Readable.from(chunks), client.query(pgCopyStreams.from(statement)));
}

/** Loads persons, distinct ids and events for the team; rebuilds the events table's indexes afterwards. */
export async function generateEvents(options: GenerateOptions): Promise<void> {
  const { teamId, events, persons, seed, ...settings } = options;
  await generateEnvironments({ ...settings, environments: [{ teamId, events, persons, seed }] });
}

/** Loads persons, distinct ids and events for each environment, then rebuilds the events table's indexes once. */
export async function generateEnvironments(options: GenerateEnvironmentsOptions): Promise<void> {
  const log = options.log ?? (() => undefined);
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    await client.query("set maintenance_work_mem = '1GB'");
    const started = Date.now();
    const { rows: stored } = await client.query<{ max: string | null }>('select max(id) as max from persons');
    let nextPersonId = Number(stored[0]!.max ?? 0) + 1;
    const people: { uuids: string[]; properties: string[]; distinctIds: number }[] = [];
    for (const environment of options.environments) {
      const rows = personRows(environment, nextPersonId);
      nextPersonId += environment.persons;
      await copy(client, 'copy persons (id, uuid, team_id, properties, is_identified) from stdin', rows.persons);
      await copy(client, 'copy person_distinct_ids (team_id, distinct_id, person_id) from stdin', rows.distinctIds);
      people.push({ uuids: rows.persons.map((row) => row.split('\t')[1]!), properties: rows.properties, distinctIds: rows.distinctIds.length });
    }
    if (nextPersonId > 1) await client.query(`select setval(pg_get_serial_sequence('persons', 'id'), $1)`, [nextPersonId - 1]);
    const personCount = options.environments.reduce((sum, environment) => sum + environment.persons, 0);
    const distinctIdCount = people.reduce((sum, one) => sum + one.distinctIds, 0);
    log(`${personCount} persons and ${distinctIdCount} distinct ids in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const { rows: constraints } = await client.query<{ name: string; definition: string }>(
      `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
        where conrelid = 'events'::regclass and contype in ('p', 'f') order by contype desc`,
    );
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select indexname as name, indexdef as definition from pg_indexes
        where schemaname = current_schema() and tablename = 'events'
          and indexname not in (select conname from pg_constraint where conrelid = 'events'::regclass)`,
    );
    for (const constraint of constraints) await client.query(`alter table events drop constraint ${constraint.name}`);
    for (const index of indexes) await client.query(`drop index ${index.name}`);

    const loading = Date.now();
    const events = options.environments.reduce((sum, environment) => sum + environment.events, 0);
    const chunks = function* () {
      for (const [index, environment] of options.environments.entries()) {
        yield* eventChunks(environment, options, people[index]!.uuids, people[index]!.properties);
      }
    };
    await copy(
      client,
      // Each event with its person's properties, as capture stores them.
      'copy events (team_id, uuid, event, distinct_id, properties, timestamp, elements_chain, person_id, person_properties) from stdin',
      chunks(),
    );
    const loadSeconds = (Date.now() - loading) / 1000;
    log(`${events} events copied in ${loadSeconds.toFixed(1)} s (${Math.round(events / loadSeconds)} rows/s)`);

    const indexing = Date.now();
    for (const constraint of [...constraints].reverse()) {
      await client.query(`alter table events add constraint ${constraint.name} ${constraint.definition}`);
    }
    for (const index of indexes) await client.query(index.definition);
    log(`indexes and constraints rebuilt in ${((Date.now() - indexing) / 1000).toFixed(1)} s`);
    const analysing = Date.now();
    await client.query('vacuum (analyze) events');
    await client.query('vacuum (analyze) persons');
    await client.query('vacuum (analyze) person_distinct_ids');
    log(`vacuum analyze in ${((Date.now() - analysing) / 1000).toFixed(1)} s`);
  } finally {
    await client.end();
  }
}

function parseArgs(args: string[]): GenerateOptions {
  const values = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) values.set(args[index]!.replace(/^--/, ''), args[index + 1] ?? '');
  const number = (name: string, fallback: number) => {
    const value = Number(values.get(name) ?? fallback);
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
    return value;
  };
  const databaseUrl = values.get('database-url') ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('--database-url (or DATABASE_URL) is required');
  return {
    databaseUrl,
    teamId: number('team-id', 1),
    events: number('events', 10_000_000),
    persons: number('persons', 200_000),
    days: number('days', 30),
    seed: number('seed', 1),
    log: (line) => process.stdout.write(`${line}\n`),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generateEvents(parseArgs(process.argv.slice(2)));
}
