/**
 * From one event as an SDK sent it to the event Hedgerow stores, as pure functions (table-tested in
 * test/unit/capture-normalise.test.ts). Nothing here touches the database or the clock: the caller passes `now`
 * and a uuid generator.
 *
 * An event that can never be ingested is dropped with a reason instead of failing the request: PostHog answers
 * such requests 200 so that SDKs do not retry them forever (see DropReason).
 */
import { ExactInteger, isPlainObject, stringifyExact } from '../../db/core/exact-json.js';
import { cleanText, jsonbText } from '../../db/core/jsonb-text.js';
import type { IngestionWarning } from '../../db/queries/ingestion-types.js';
import { eventTimestamp } from './timestamps.js';
import type { CapturedEvent, DropReason, Normalised, PersonUpdate, StoredEvent } from './types.js';

/** PostHog keeps distinct ids and event names to 200 characters (code points). */
export const MAX_DISTINCT_ID_LENGTH = 200;
export const MAX_EVENT_NAME_LENGTH = 200;
/**
 * Group types and keys longer than PostHog's columns hold (400 characters) are ignored with a warning, the event
 * itself stored: they are primary-key columns here, and PostgreSQL cannot index a text of a few kilobytes.
 */
export const MAX_GROUP_TEXT_LENGTH = 400;

const SURVEY_EVENTS = new Set(['survey sent', 'survey shown', 'survey dismissed']);
/** Events that only change persons or groups: meaningless, and dropped, when the event is personless. */
const PERSON_EVENTS = new Set(['$identify', '$create_alias', '$merge_dangerously', '$groupidentify']);

export interface NormaliseContext {
  now: Date;
  /** The batch's `sent_at`, or the `_` query parameter. */
  sentAt: Date | null;
  historicalMigration: boolean;
  /** On `/engage/`, an event without a name is an `$identify` carrying its `$set`. */
  engage: boolean;
  newUuid: () => string;
}

type Json = Record<string, unknown>;

/**
 * Cuts clean text (cleanText) to its first `max` characters, as PostHog does (Rust's `chars()` and Python's
 * slices count code points): a character outside the BMP counts once, and is never cut in half.
 */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let units = 0;
  for (let characters = 0; characters < max && units < text.length; characters += 1) {
    const code = text.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff ? 2 : 1; // clean text: a high surrogate has its low one
  }
  return text.slice(0, units);
}

/** Any JSON value as a distinct id: strings as they are, anything else as its JSON text (integers exact). */
export function stringifyId(value: unknown): string {
  return typeof value === 'string' ? value : stringifyExact(value);
}

/** A group key may be a string or a number (shown as its digits). */
function isGroupKey(key: unknown): key is string | number | ExactInteger {
  return (typeof key === 'string' && key !== '') || typeof key === 'number' || key instanceof ExactInteger;
}

/** The distinct id: top-level `distinct_id` or `$distinct_id`, else inside `properties`. */
export function extractDistinctId(raw: Json, properties: Json): { id: string } | { missing: DropReason } {
  let value = raw.distinct_id ?? raw.$distinct_id;
  if (value === undefined || value === null) value = properties.distinct_id ?? properties.$distinct_id;
  if (value === undefined || value === null) return { missing: 'missing_distinct_id' };
  const id = truncate(cleanText(stringifyId(value)), MAX_DISTINCT_ID_LENGTH);
  return id === '' ? { missing: 'empty_distinct_id' } : { id };
}

function objectOf(value: unknown): Json {
  return isPlainObject(value) ? value : {};
}

/** `$unset` is a list of keys, or (from some SDKs) an object whose keys are unset. */
function unsetKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((key): key is string => typeof key === 'string');
  if (isPlainObject(value)) return Object.keys(value);
  return [];
}

/**
 * `$set` and `$set_once` may be at the top level of the event (posthog-js puts them there for `$identify`) or
 * in `properties`; both are merged into `properties`, the top-level one winning, as PostHog does.
 */
function personUpdateOf(raw: Json, properties: Json): PersonUpdate | null {
  const set = { ...objectOf(properties.$set), ...objectOf(raw.$set) };
  const setOnce = { ...objectOf(properties.$set_once), ...objectOf(raw.$set_once) };
  const unset = unsetKeys(properties.$unset ?? raw.$unset);
  if (Object.keys(set).length > 0) properties.$set = set;
  if (Object.keys(setOnce).length > 0) properties.$set_once = setOnce;
  if (unset.length > 0) properties.$unset = unset;
  if (Object.keys(set).length === 0 && Object.keys(setOnce).length === 0 && unset.length === 0) return null;
  return { set, setOnce, unset };
}

/** Characters (code points) of clean text. */
function characterCount(text: string): number {
  if (text.length <= MAX_GROUP_TEXT_LENGTH) return text.length; // the usual case: no need to count
  let count = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) count -= 1;
  }
  return count;
}

/** The event a warning is about. */
interface EventRef {
  eventUuid: string;
  distinctId: string;
}

/** Whether a group type and key fit (MAX_GROUP_TEXT_LENGTH); a warning about the event if not. */
function groupFits(type: string, key: string, warnings: IngestionWarning[], event: EventRef): boolean {
  if (characterCount(type) <= MAX_GROUP_TEXT_LENGTH && characterCount(key) <= MAX_GROUP_TEXT_LENGTH) return true;
  warnings.push({
    type: 'group_key_too_long',
    details: { ...event, groupType: truncate(type, 50), maxLength: MAX_GROUP_TEXT_LENGTH },
  });
  return false;
}

function groupsOf(properties: Json, warnings: IngestionWarning[], event: EventRef): Array<[string, string]> {
  const groups: Array<[string, string]> = [];
  for (const [type, key] of Object.entries(objectOf(properties.$groups))) {
    if (type === '' || !isGroupKey(key)) continue;
    const group: [string, string] = [cleanText(type), cleanText(String(key))];
    if (groupFits(group[0], group[1], warnings, event)) groups.push(group);
  }
  return groups;
}

function elementsChainOf(properties: Json): string {
  const chain = properties.$elements_chain;
  if (typeof chain === 'string') {
    delete properties.$elements_chain;
    return cleanText(chain);
  }
  if (Array.isArray(properties.$elements)) {
    const built = elementsToChain(properties.$elements);
    delete properties.$elements;
    return built;
  }
  return '';
}

/** An element's `nth_child` or `nth_of_type` as the chain writes it: a number or its text; anything else is 0. */
function positionText(value: unknown): string {
  if ((typeof value === 'number' && Number.isFinite(value)) || value instanceof ExactInteger) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  return '0';
}

const quote = (value: string) => cleanText(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/**
 * Autocapture's `$elements` (innermost first) as PostHog's `elements_chain` text:
 * `tag.class1.class2:attr="value"…;parent…`, attributes sorted by name.
 */
export function elementsToChain(elements: unknown[]): string {
  return elements
    .filter(isPlainObject)
    .map((element) => {
      let text = typeof element.tag_name === 'string' ? cleanText(element.tag_name) : '';
      const classes = Array.isArray(element.attr__class)
        ? element.attr__class
        : typeof element.attr__class === 'string'
          ? element.attr__class.split(/\s+/)
          : Array.isArray(element.classes)
            ? element.classes
            : [];
      for (const name of classes.filter((c): c is string => typeof c === 'string' && c !== '').sort()) {
        text += `.${cleanText(name).replace(/"/g, '')}`;
      }
      const attributes: Record<string, string> = {};
      const label = element.$el_text ?? element.text;
      if (typeof label === 'string' && label !== '') attributes.text = label;
      attributes['nth-child'] = positionText(element.nth_child);
      attributes['nth-of-type'] = positionText(element.nth_of_type);
      if (typeof element.attr__href === 'string') attributes.href = element.attr__href;
      if (typeof element.attr__id === 'string') attributes.attr_id = element.attr__id;
      for (const [key, value] of Object.entries(element)) {
        // Every attr__ key, attr__class too, as PostHog's extractElements keeps them, written as its
        // elementsToString writes them (a list as its items joined by commas).
        const shown = typeof value === 'string' || typeof value === 'number' || value instanceof ExactInteger || Array.isArray(value);
        if (key.startsWith('attr__') && shown) {
          attributes[key] = String(value);
        }
      }
      const pairs = Object.keys(attributes)
        .sort()
        .map((key) => `${quote(key)}="${quote(attributes[key]!)}"`)
        .join('');
      return `${text}:${pairs}`;
    })
    .join(';');
}

function drop(reason: DropReason, raw: Json, warnings: IngestionWarning[], extra: Json = {}): Normalised {
  const details: Json = { reason, ...extra };
  if (typeof raw.event === 'string') details.event = raw.event;
  if (typeof raw.uuid === 'string' && raw.uuid !== '') details.eventUuid = raw.uuid;
  return { kind: 'drop', reason, warnings: [...warnings, { type: reason, details }] };
}

/** Normalises one event (already valid against the spec's `CaptureEvent` schema). */
export function normaliseEvent(raw: Json, context: NormaliseContext): Normalised {
  const properties: Json = { ...objectOf(raw.properties) };
  const warnings: IngestionWarning[] = [];

  let name = raw.event;
  if ((name === undefined || name === null) && context.engage) name = '$identify';
  if (typeof name !== 'string' || name === '') return drop('missing_event_name', raw, warnings);
  const event = truncate(cleanText(name), MAX_EVENT_NAME_LENGTH);

  const distinct = extractDistinctId(raw, properties);
  if ('missing' in distinct) return drop(distinct.missing, raw, warnings);
  const distinctId = distinct.id;

  // Only a boolean false turns person processing off; any other non-boolean is a client mistake.
  const flag = properties.$process_person_profile;
  const processPerson = flag !== false;
  if (flag !== undefined && typeof flag !== 'boolean') {
    warnings.push({ type: 'invalid_process_person_profile', details: { distinctId, event, value: flag } });
  }
  if (!processPerson && PERSON_EVENTS.has(event)) {
    return drop('invalid_event_when_process_person_profile_is_false', raw, warnings, { distinctId });
  }
  if (SURVEY_EVENTS.has(event) && (typeof properties.$survey_id !== 'string' || properties.$survey_id === '')) {
    return drop('survey_missing_survey_id', raw, warnings, { distinctId });
  }

  const clientUuid = typeof raw.uuid === 'string' && raw.uuid !== '';
  const uuid = clientUuid ? (raw.uuid as string).toLowerCase() : context.newUuid();
  let personUpdate = personUpdateOf(raw, properties);
  if (!processPerson) {
    delete properties.$set;
    delete properties.$set_once;
    delete properties.$unset;
    personUpdate = null;
  }

  const { timestamp, warnings: timeWarnings } = eventTimestamp({
    timestamp: raw.timestamp,
    offset: raw.offset,
    sentAt: context.sentAt,
    now: context.now,
    ignoreSentAt: properties.$ignore_sent_at === true,
  });
  for (const warning of timeWarnings) warnings.push({ ...warning, details: { ...warning.details, eventUuid: uuid, event } });

  let identify: CapturedEvent['identify'] = null;
  let alias: string | null = null;
  let groupIdentify: CapturedEvent['groupIdentify'] = null;
  if (event === '$identify') {
    const anon = properties.$anon_distinct_id;
    identify = {
      anonDistinctId:
        anon === undefined || anon === null || anon === '' ? null : truncate(cleanText(stringifyId(anon)), MAX_DISTINCT_ID_LENGTH),
    };
  } else if (event === '$create_alias' || event === '$merge_dangerously') {
    const other = properties.alias;
    if (other === undefined || other === null || other === '') {
      warnings.push({ type: 'invalid_alias', details: { eventUuid: uuid, event, distinctId } });
    } else {
      alias = truncate(cleanText(stringifyId(other)), MAX_DISTINCT_ID_LENGTH);
    }
  } else if (event === '$groupidentify') {
    const type = properties.$group_type;
    const key = properties.$group_key;
    if (typeof type === 'string' && type !== '' && isGroupKey(key)) {
      const [cleanType, cleanKey] = [cleanText(type), cleanText(String(key))];
      if (groupFits(cleanType, cleanKey, warnings, { eventUuid: uuid, distinctId })) {
        groupIdentify = { type: cleanType, key: cleanKey, set: objectOf(properties.$group_set) };
      }
    } else {
      warnings.push({ type: 'invalid_group_identify', details: { eventUuid: uuid, distinctId } });
    }
  }

  const groups = properties.$groups === undefined ? [] : groupsOf(properties, warnings, { eventUuid: uuid, distinctId });
  return {
    kind: 'ingest',
    warnings,
    event: {
      uuid,
      clientUuid,
      event,
      distinctId,
      elementsChain: elementsChainOf(properties),
      properties,
      timestamp,
      historicalMigration: context.historicalMigration,
      processPerson,
      personUpdate,
      identify,
      alias,
      groupIdentify,
      groups,
    },
  };
}

/** A normalised event as the group commit takes it: its properties serialised once, here. */
export function toStoredEvent(event: CapturedEvent): StoredEvent {
  const { properties, ...effects } = event;
  return { ...effects, propertiesJson: jsonbText(properties) };
}
