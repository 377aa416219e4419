/**
 * A listed event's row as the listing's JSON (LegacyEvent): written as text around what PostgreSQL sent.
 */
import type { components } from '../../../generated/api.js';
import { parseJson as parseExactJson } from '../../core/exact-json.js';
import { MAX_JSON_DEPTH } from '../../core/json-limits.js';
import { parseElementsChain } from './elements-chain.js';

export type LegacyEvent = components['schemas']['LegacyEvent'];

/** One event of the listing as JSON text: what the JSON answer is made of. */
export type EventJson = string & { readonly __legacyEvent: true };


/** A row of LISTED_EVENT_COLUMNS (db/hogql/event-listing.ts). */
export interface ListedEventRow {
  id: string;
  event: string;
  distinct_id: string;
  /** JSON text, as stored. */
  properties_json: string;
  elements_chain: string;
  /** `YYYY-MM-DDTHH:MI:SS.ffffffZ`, in UTC. */
  keyset_timestamp: string;
  person_is_identified: boolean | null;
  /** The person's property of that name as JSON text, or null when the person has none. */
  person_email_json: string | null;
  person_name_json: string | null;
  person_username_json: string | null;
  person_distinct_id: string | null;
}

/** The person properties the listing shows, as PostHog does, and the row's column of each. */
const PERSON_PROPERTIES = [
  ['email', 'person_email_json'],
  ['name', 'person_name_json'],
  ['username', 'person_username_json'],
] as const;

function personJson(row: ListedEventRow): string {
  if (row.person_is_identified === null) return 'null';
  let shown = '';
  for (const [key, column] of PERSON_PROPERTIES) {
    const json = row[column];
    if (json !== null) shown += `${shown === '' ? '' : ','}"${key}":${json}`;
  }
  const distinctIds = row.person_distinct_id === null ? '[]' : `[${JSON.stringify(row.person_distinct_id)}]`;
  return `{"is_identified":${row.person_is_identified},"distinct_ids":${distinctIds},"properties":{${shown}}}`;
}

/**
 * Autocapture sends the same few element chains over and over (the same button, the same link): their JSON
 * is remembered, up to this many chains, rather than parsed again for every event.
 */
const ELEMENTS_CACHE_SIZE = 2000;
const elementsCache = new Map<string, string>();

function elementsJson(chain: string): string {
  if (chain === '') return '[]';
  let json = elementsCache.get(chain);
  if (json === undefined) {
    json = JSON.stringify(parseElementsChain(chain));
    if (elementsCache.size >= ELEMENTS_CACHE_SIZE) elementsCache.clear();
    elementsCache.set(chain, json);
  }
  return json;
}

/**
 * A timestamp as the listing shows it (as hogql_format_datetime does in SQL): milliseconds when its microseconds
 * are whole milliseconds, all six digits otherwise.
 */
function shownTimestamp(micros: string): string {
  return micros.endsWith('000Z') ? `${micros.slice(0, -4)}Z` : micros;
}

/**
 * The event as the listing's JSON (LegacyEvent), its properties spliced in as the text PostgreSQL sent: parsing
 * every event's properties into objects and serialising them again was most of the listing's time in Node.
 */
export function eventJson(row: ListedEventRow): EventJson {
  return (
    `{"id":"${row.id}","distinct_id":${JSON.stringify(row.distinct_id)},"properties":${row.properties_json},` +
    `"event":${JSON.stringify(row.event)},"timestamp":"${shownTimestamp(row.keyset_timestamp)}","person":${personJson(row)},` +
    `"elements":${elementsJson(row.elements_chain)},"elements_chain":${JSON.stringify(row.elements_chain)}}`
  ) as EventJson;
}

/** An event of the listing as an object (for csv, and for one event), its integers exact (exact-json.ts). */
export function parseEventJson(json: EventJson): LegacyEvent {
  return parseExactJson(json, MAX_JSON_DEPTH + 2) as LegacyEvent;
}

