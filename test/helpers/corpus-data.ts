/**
 * The fixed data set of the HogQL corpus: a month (March 2024) of a small web product's events, generated from a
 * fixed seed so that every run seeds the same rows. Eight persons, some with several distinct ids (anonymous
 * before they sign up, a second device), persons whose plan changed during the month ($set on their events),
 * sessions of pageviews, clicks and page leaves, custom events with numeric, boolean and list properties,
 * server-side purchases without a session, and groups of two types (organization, project).
 *
 * Next to the rows, plain functions over them (no HogQL) compute what the corpus's queries must answer.
 */
import type { NewEvent } from './seed-events.js';

/** A small deterministic generator (mulberry32): the same seed gives the same data set everywhere. */
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

export interface CorpusPerson {
  key: string;
  uuid: string;
  /** Distinct ids in the order the person used them: the first before sign-up when it is anonymous. */
  distinctIds: string[];
  /** The day of March the person signed up and was identified (events before use the first id). */
  identifiedOn: number | null;
  /** Properties as they are at the end of the month (the persons table). */
  properties: Record<string, unknown>;
  /** A change during the month: before `on` (a timestamp) the property had `before`. */
  change?: { property: string; before: unknown; on: string };
  device: { $browser: string; $os: string; $device_type: string; $screen_width: number; $screen_height: number };
  /** How likely the person is active on a day. */
  activity: number;
  organization: string | null;
}

export const PERSONS: CorpusPerson[] = [
  {
    key: 'ana',
    uuid: '01800000-0000-4000-8000-000000000001',
    distinctIds: ['anon-ana', 'ana'],
    identifiedOn: 4,
    properties: { email: 'ana@acme.test', name: 'Ana', plan: 'pro', company: 'acme', country: 'US', age: 34, $initial_browser: 'Chrome' },
    change: { property: 'plan', before: 'free', on: '2024-03-12T09:00:00Z' },
    device: { $browser: 'Chrome', $os: 'Mac OS X', $device_type: 'Desktop', $screen_width: 1512, $screen_height: 982 },
    activity: 0.55,
    organization: 'acme',
  },
  {
    key: 'ben',
    uuid: '01800000-0000-4000-8000-000000000002',
    distinctIds: ['ben'],
    identifiedOn: 1,
    properties: { email: 'ben@globex.test', name: 'Ben', plan: 'free', company: 'globex', country: 'DE', age: 51, $initial_browser: 'Firefox' },
    device: { $browser: 'Firefox', $os: 'Windows', $device_type: 'Desktop', $screen_width: 1920, $screen_height: 1080 },
    activity: 0.35,
    organization: 'globex',
  },
  {
    key: 'cai',
    uuid: '01800000-0000-4000-8000-000000000003',
    distinctIds: ['anon-cai', 'cai'],
    identifiedOn: 9,
    properties: { email: 'cai@acme.test', name: 'Cai', plan: 'pro', company: 'acme', country: 'US', age: 28, $initial_browser: 'Mobile Safari' },
    device: { $browser: 'Mobile Safari', $os: 'iOS', $device_type: 'Mobile', $screen_width: 390, $screen_height: 844 },
    activity: 0.4,
    organization: 'acme',
  },
  {
    key: 'dee',
    uuid: '01800000-0000-4000-8000-000000000004',
    distinctIds: ['dee'],
    identifiedOn: 1,
    properties: { email: 'dee@initech.test', name: 'Dee', plan: 'enterprise', company: 'initech', country: 'FR', age: 45, $initial_browser: 'Chrome' },
    change: { property: 'plan', before: 'pro', on: '2024-03-20T15:30:00Z' },
    device: { $browser: 'Chrome', $os: 'Android', $device_type: 'Mobile', $screen_width: 412, $screen_height: 915 },
    activity: 0.45,
    organization: 'initech',
  },
  {
    key: 'eli',
    uuid: '01800000-0000-4000-8000-000000000005',
    distinctIds: ['anon-eli', 'eli'],
    identifiedOn: 15,
    properties: { email: 'eli@globex.test', name: 'Eli', plan: 'free', company: 'globex', country: 'GB', age: 39, $initial_browser: 'Chrome' },
    device: { $browser: 'Chrome', $os: 'Windows', $device_type: 'Desktop', $screen_width: 2560, $screen_height: 1440 },
    activity: 0.3,
    organization: 'globex',
  },
  {
    key: 'fay',
    uuid: '01800000-0000-4000-8000-000000000006',
    distinctIds: ['fay'],
    identifiedOn: 1,
    properties: { email: 'fay@hedgerow.test', name: 'Fay', plan: 'free', country: 'US', age: 23, $initial_browser: 'Safari' },
    device: { $browser: 'Safari', $os: 'Mac OS X', $device_type: 'Desktop', $screen_width: 1440, $screen_height: 900 },
    activity: 0.25,
    organization: null,
  },
  {
    key: 'gus',
    uuid: '01800000-0000-4000-8000-000000000007',
    distinctIds: ['gus'],
    identifiedOn: 1,
    properties: { email: 'gus@acme.test', name: 'Gus', plan: 'free', company: 'acme', country: 'DE', $initial_browser: 'Firefox' },
    device: { $browser: 'Firefox', $os: 'Linux', $device_type: 'Desktop', $screen_width: 1920, $screen_height: 1200 },
    activity: 0.2,
    organization: 'acme',
  },
  {
    key: 'hal',
    uuid: '01800000-0000-4000-8000-000000000008',
    distinctIds: ['anon-hal'],
    identifiedOn: null,
    properties: { $initial_browser: 'Chrome' },
    device: { $browser: 'Chrome', $os: 'Android', $device_type: 'Tablet', $screen_width: 800, $screen_height: 1280 },
    activity: 0.2,
    organization: null,
  },
];

export const GROUPS = [
  { index: 0, type: 'organization', key: 'acme', properties: { name: 'Acme Corp', industry: 'manufacturing', employees: 250 }, created_at: '2024-01-10T00:00:00Z' },
  { index: 0, type: 'organization', key: 'globex', properties: { name: 'Globex', industry: 'energy', employees: 40 }, created_at: '2024-02-01T00:00:00Z' },
  { index: 0, type: 'organization', key: 'initech', properties: { name: 'Initech', industry: 'software', employees: 12 }, created_at: '2024-03-05T00:00:00Z' },
  { index: 1, type: 'project', key: 'proj-web', properties: { name: 'Website' }, created_at: '2024-02-15T00:00:00Z' },
  { index: 1, type: 'project', key: 'proj-app', properties: { name: 'App' }, created_at: '2024-03-01T00:00:00Z' },
];

const PATHS = ['/', '/pricing', '/docs', '/blog/hogql', '/product', '/signup'];
const REFERRERS = ['https://www.google.com/', '$direct', 'https://news.ycombinator.com/', 'https://www.google.com/', '$direct'];
const FEATURES = ['insights', 'dashboards', 'sql'];
const PRICES = [9.99, 49, 100, 250];
const UTM = [
  { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'spring_launch' },
  { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'brand' },
];

/** One stored event with its person, for the computations below. */
export interface CorpusEvent extends NewEvent {
  uuid: string;
  timestamp: string;
  properties: Record<string, unknown>;
  person: CorpusPerson;
  time: Date;
}

function uuidOf(n: number): string {
  return `01800000-0000-4000-9000-${n.toString(16).padStart(12, '0')}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function buildEvents(): CorpusEvent[] {
  const random = generator(27);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const events: CorpusEvent[] = [];
  let sessionNumber = 0;
  const push = (person: CorpusPerson, event: string, distinctId: string, ms: number, properties: Record<string, unknown>, extra: Partial<NewEvent> = {}) => {
    events.push({
      ...extra,
      uuid: uuidOf(events.length + 1),
      event,
      distinct_id: distinctId,
      timestamp: iso(ms),
      time: new Date(ms),
      properties,
      person,
      person_id: person.uuid,
    });
  };
  for (let day = 1; day <= 31; day += 1) {
    for (const person of PERSONS) {
      if (random() >= person.activity) continue;
      sessionNumber += 1;
      const session = `s-${String(sessionNumber).padStart(3, '0')}`;
      const identified = person.identifiedOn !== null && day >= person.identifiedOn;
      const distinctId = identified ? person.distinctIds[person.distinctIds.length - 1]! : person.distinctIds[0]!;
      let ms = Date.UTC(2024, 2, day, Math.floor(random() * 24), Math.floor(random() * 60), Math.floor(random() * 60));
      const groups: NewEvent['groups'] = person.organization ? { 0: person.organization } : {};
      const changed = person.change && iso(ms) < person.change.on ? { [person.change.property]: person.change.before } : {};
      const personSet = identified ? { $set: { ...person.properties, ...changed } } : {};
      const web = (path: string) => ({
        ...person.device,
        $current_url: `https://hedgerow.test${path}`,
        $pathname: path,
        $host: 'hedgerow.test',
        $lib: 'web',
        $lib_version: '1.116.0',
        $session_id: session,
        $window_id: `w-${session}`,
      });
      const pageviews = 1 + Math.floor(random() * 4);
      const referrer = pick(REFERRERS);
      const utm = random() < 0.35 ? pick(UTM) : {};
      let path = '/';
      for (let index = 0; index < pageviews; index += 1) {
        path = index === 0 ? pick(PATHS.slice(0, 5)) : pick(PATHS);
        const first = index === 0 ? { $referrer: referrer, $referring_domain: referrer === '$direct' ? '$direct' : new URL(referrer).host, ...utm } : {};
        push(person, '$pageview', distinctId, ms, { ...web(path), ...first, ...(index === 0 ? personSet : {}) }, { groups });
        ms += (20 + Math.floor(random() * 580)) * 1000;
        if (index === 0 && random() < 0.5) {
          push(person, '$autocapture', distinctId, ms, { ...web(path), $event_type: 'click', $el_text: pick(['Sign up', 'Pricing', 'Try it']) }, {
            groups,
            elements_chain: 'button.btn.primary:nth-child="1"nth-of-type="1"text="Sign up"',
          });
          ms += (5 + Math.floor(random() * 60)) * 1000;
        }
      }
      if (random() < 0.4) {
        const feature = pick(FEATURES);
        push(
          person,
          'feature_used',
          distinctId,
          ms,
          { ...web(path), feature, count: 1 + Math.floor(random() * 5), enabled: random() < 0.7, tags: feature === 'sql' ? ['beta', 'hogql'] : ['ga'], duration_ms: 100 + Math.floor(random() * 900) },
          { groups: { ...groups, 1: pageviews % 2 === 0 ? 'proj-web' : 'proj-app' } },
        );
        ms += 30_000;
      }
      if (identified && day === person.identifiedOn) {
        push(person, 'signed_up', distinctId, ms, { ...web(path), $set: person.properties, plan: changed.plan ?? person.properties.plan }, { groups });
        ms += 10_000;
      }
      if (pageviews > 1) push(person, '$pageleave', distinctId, ms, web(path), { groups });
      if (identified && random() < 0.18) {
        push(person, 'purchase', distinctId, ms + 3600_000, { price: pick(PRICES), currency: 'USD', $lib: 'posthog-node', plan: (changed.plan as string | undefined) ?? person.properties.plan }, { groups });
      }
    }
  }
  return events.sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.uuid.localeCompare(b.uuid));
}

export const EVENTS: CorpusEvent[] = buildEvents();

/** The other environment: the same distinct ids, session ids and group keys, every one of which would change a row. */
export const OTHER_EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'ana', timestamp: '2024-03-05T10:00:00Z', properties: { $session_id: 's-001', $current_url: 'https://evil.test/', $pathname: '/', $browser: 'Chrome', $referrer: '$direct' }, groups: { 0: 'acme' } },
  { event: 'purchase', distinct_id: 'ben', timestamp: '2024-03-06T10:00:00Z', properties: { price: 100000, $session_id: 's-002' }, groups: { 0: 'globex' } },
  { event: 'feature_used', distinct_id: 'anon-hal', timestamp: '2024-03-07T10:00:00Z', properties: { feature: 'sql', count: 99, enabled: true, tags: ['evil'], $session_id: 's-003' }, groups: { 0: 'acme', 1: 'proj-web' } },
  { event: '$pageview', distinct_id: 'mallory', timestamp: '2024-03-08T10:00:00Z', properties: { $session_id: 's-004', $pathname: '/pricing' } },
];

// ---------------------------------------------------------------------------------------------------------------
// Computations over the rows above: what ClickHouse answers, written without HogQL.

export const DISTINCT_TO_PERSON = new Map(PERSONS.flatMap((person) => person.distinctIds.map((id) => [id, person] as const)));

export function where(test: (event: CorpusEvent) => boolean): CorpusEvent[] {
  return EVENTS.filter(test);
}

export function prop(event: CorpusEvent, name: string): string | null {
  const value = event.properties[name];
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Counts by a key (null keys kept), as [key, count] pairs. */
export function countBy<K>(events: readonly CorpusEvent[], key: (event: CorpusEvent) => K): [K, number][] {
  const counts = new Map<K, number>();
  for (const event of events) counts.set(key(event), (counts.get(key(event)) ?? 0) + 1);
  return [...counts.entries()];
}

/** Distinct values of a key per group. */
export function uniqBy<K, V>(events: readonly CorpusEvent[], group: (event: CorpusEvent) => K, value: (event: CorpusEvent) => V): [K, number][] {
  const sets = new Map<K, Set<V>>();
  for (const event of events) {
    const set = sets.get(group(event)) ?? new Set<V>();
    set.add(value(event));
    sets.set(group(event), set);
  }
  return [...sets.entries()].map(([key, set]) => [key, set.size]);
}

/** Sorts rows by the given column directions (ClickHouse sorts NULLs last in both directions). */
export function sortRows<T extends unknown[]>(rows: T[], ...columns: [number, 'asc' | 'desc'][]): T[] {
  return [...rows].sort((a, b) => {
    for (const [column, direction] of columns) {
      const x = a[column];
      const y = b[column];
      if (x === y) continue;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : 1;
      return direction === 'asc' ? order : -order;
    }
    return 0;
  });
}

export function day(event: CorpusEvent): string {
  return event.timestamp.slice(0, 10);
}

/** The wall-clock date of an instant in a zone, as YYYY-MM-DD. */
export function dateIn(time: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(time);
}

export function hourIn(time: Date, zone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(time));
}

export interface CorpusSession {
  id: string;
  distinctId: string;
  person: CorpusPerson;
  events: CorpusEvent[];
  start: Date;
  end: Date;
  duration: number;
  entryUrl: string | null;
  endUrl: string | null;
  entryPathname: string | null;
  endPathname: string | null;
  pageviews: number;
  autocaptures: number;
  urls: string[];
  isBounce: boolean;
  entryUtmSource: string | null;
  entryReferringDomain: string | null;
}

/** PostHog's sessions: a session bounces when it has at most one pageview or autocapture and lasts under 10 s. */
function buildSessions(): CorpusSession[] {
  const byId = new Map<string, CorpusEvent[]>();
  for (const event of EVENTS) {
    const id = event.properties.$session_id as string | undefined;
    if (!id) continue;
    byId.set(id, [...(byId.get(id) ?? []), event]);
  }
  return [...byId.entries()].map(([id, events]) => {
    const urls = events.map((event) => prop(event, '$current_url')).filter((url): url is string => url !== null);
    const pathnames = events.map((event) => prop(event, '$pathname')).filter((path): path is string => path !== null);
    const start = events[0]!.time;
    const end = events[events.length - 1]!.time;
    const pageviews = events.filter((event) => event.event === '$pageview').length;
    const autocaptures = events.filter((event) => event.event === '$autocapture').length;
    const duration = Math.round((end.getTime() - start.getTime()) / 1000);
    return {
      id,
      distinctId: events[0]!.distinct_id,
      person: events[0]!.person,
      events,
      start,
      end,
      duration,
      entryUrl: urls[0] ?? null,
      endUrl: urls[urls.length - 1] ?? null,
      entryPathname: pathnames[0] ?? null,
      endPathname: pathnames[pathnames.length - 1] ?? null,
      pageviews,
      autocaptures,
      urls: [...new Set(urls)],
      isBounce: pageviews + autocaptures <= 1 && duration < 10,
      entryUtmSource: prop(events[0]!, 'utm_source'),
      entryReferringDomain: prop(events[0]!, '$referring_domain'),
    };
  });
}

export const SESSIONS: CorpusSession[] = buildSessions();
