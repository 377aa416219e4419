/**
 * What a batch export write must satisfy before it is stored, with PostHog's messages where PostHog has one:
 * the destination and its config, the HogQL query that picks the exported columns, the property filters, the
 * schedule's time zone and offsets, and the window of a backfill. Nothing here touches the database: the
 * earliest data a backfill could start from is looked up by the caller and handed in.
 */
import { errors } from '../../db/core/errors.js';
import { checkPostgresHostSpelling, DestinationAddressError, type AddressPolicy } from '../../db/destinations/address-policy.js';
import { Compiler, HogQLError, parseExpression, parsePropertyFilters, parseSelectItem } from '../../db/hogql/index.js';
import { tokenize, withoutComments } from '../../db/hogql/parser.js';
import {
  DESTINATION_TYPES,
  S3_PREFIX_VARIABLES,
  INTERVAL_SECONDS,
  type BatchExportInterval,
  type BatchExportModel,
  type DestinationType,
} from '../../db/queries/batch-exports/rows.js';
import {
  checkFileFormat,
  S3_KEYS_REQUIRED_MESSAGE,
  s3EmptySettingsRefusal,
  s3EndpointHost,
  s3EndpointRefusal,
  s3MaxFileSizeRefusal,
} from '../jobs/destinations/s3-rules.js';

type FieldKind = 'string' | 'int' | 'bool' | 'list';

interface FieldRule {
  kind: FieldKind;
  required?: boolean;
  /** null is a value the field may hold (PostHog's `X | None = None`). */
  nullable?: boolean;
}

const COMMON_FIELDS: Readonly<Record<string, FieldRule>> = {
  include_events: { kind: 'list', nullable: true },
  exclude_events: { kind: 'list', nullable: true },
};

const S3_FIELDS: Readonly<Record<string, FieldRule>> = {
  bucket_name: { kind: 'string', required: true },
  region: { kind: 'string', required: true },
  prefix: { kind: 'string', required: true },
  aws_access_key_id: { kind: 'string', nullable: true },
  aws_secret_access_key: { kind: 'string', nullable: true },
  compression: { kind: 'string', nullable: true },
  encryption: { kind: 'string', nullable: true },
  kms_key_id: { kind: 'string', nullable: true },
  endpoint_url: { kind: 'string', nullable: true },
  file_format: { kind: 'string' },
  max_file_size_mb: { kind: 'int', nullable: true },
  use_virtual_style_addressing: { kind: 'bool' },
};

const CONFIG_FIELDS: Readonly<Record<DestinationType, Readonly<Record<string, FieldRule>>>> = {
  S3: S3_FIELDS,
  AwsS3: S3_FIELDS,
  S3Compatible: { ...S3_FIELDS, endpoint_url: { kind: 'string', required: true } },
  Postgres: {
    user: { kind: 'string', required: true },
    password: { kind: 'string', required: true },
    host: { kind: 'string', required: true },
    database: { kind: 'string', required: true },
    schema: { kind: 'string' },
    table_name: { kind: 'string' },
    port: { kind: 'int' },
    has_self_signed_cert: { kind: 'bool' },
  },
  HTTP: { url: { kind: 'string', required: true }, token: { kind: 'string', required: true } },
  NoOp: { arg: { kind: 'string' } },
};

/** The config keys that are accepted on write and never answered. */
export const SECRET_FIELDS: Readonly<Record<DestinationType, readonly string[]>> = {
  S3: ['aws_access_key_id', 'aws_secret_access_key'],
  AwsS3: ['aws_access_key_id', 'aws_secret_access_key'],
  S3Compatible: ['aws_access_key_id', 'aws_secret_access_key'],
  Postgres: ['user', 'password'],
  HTTP: ['token'],
  NoOp: [],
};

const S3_TYPES: readonly DestinationType[] = ['S3', 'AwsS3', 'S3Compatible'];

function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (Array.isArray(value)) return 'list';
  return 'dict';
}

const PYTHON_KIND: Readonly<Record<FieldKind, string>> = { string: 'str', int: 'int', bool: 'bool', list: 'list' };

/** A config value read as its field's kind, strings coerced to integers and booleans where they can be. */
function coerceField(value: unknown, rule: FieldRule): unknown {
  if (value === null && rule.nullable) return null;
  switch (rule.kind) {
    case 'string':
      if (typeof value === 'string') return value;
      break;
    case 'int':
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value === 'string' && /^\s*[+-]?\d{1,15}\s*$/.test(value)) return Number(value);
      break;
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
      break;
    case 'list':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
      break;
  }
  throw errors.validation(
    `Configuration has invalid type: got '${pythonTypeName(value)}', expected '${PYTHON_KIND[rule.kind]}'`,
    'destination',
  );
}

export function isDestinationType(type: unknown): type is DestinationType {
  return typeof type === 'string' && (DESTINATION_TYPES as readonly string[]).includes(type);
}

function destinationTypeOf(type: unknown): DestinationType {
  if (isDestinationType(type)) return type;
  const shown = typeof type === 'string' ? `'${type}'` : JSON.stringify(type);
  throw errors.validation(
    `Destination type ${shown} is not supported by this server. Supported types are: ${DESTINATION_TYPES.join(', ')}.`,
    'destination',
  );
}

/** A prefix's `{variables}` as Python's str.format reads them: `{{` and `}}` are braces; names from the list. */
function checkPrefixTemplate(prefix: string): void {
  const names = prefix.replaceAll('{{', '').replaceAll('}}', '');
  const refuse = (what: string) =>
    errors.validation(
      `The prefix '${prefix}' ${what}; its variables are ${S3_PREFIX_VARIABLES.map((name) => `{${name}}`).join(', ')}`,
      'destination',
    );
  let rest = names;
  for (;;) {
    const open = rest.indexOf('{');
    const stray = rest.indexOf('}');
    if (open === -1) {
      if (stray !== -1) throw refuse("has a single '}' (write '}}' for a brace)");
      return;
    }
    if (stray !== -1 && stray < open) throw refuse("has a single '}' (write '}}' for a brace)");
    const close = rest.indexOf('}', open);
    if (close === -1) throw refuse("has an unclosed '{'");
    const name = rest.slice(open + 1, close);
    if (!(S3_PREFIX_VARIABLES as readonly string[]).includes(name)) throw refuse(`uses {${name}}`);
    rest = rest.slice(close + 1);
  }
}

function checkS3(config: Record<string, unknown>): void {
  const refuse = (refusal: string) => errors.validation(refusal, 'destination');
  const empty = s3EmptySettingsRefusal(config);
  if (empty !== null) throw refuse(empty);
  const hasKey = (name: string) => typeof config[name] === 'string' && config[name] !== '';
  if (!hasKey('aws_access_key_id') || !hasKey('aws_secret_access_key')) throw refuse(S3_KEYS_REQUIRED_MESSAGE);
  const fileSize = typeof config.max_file_size_mb === 'number' ? s3MaxFileSizeRefusal(config.max_file_size_mb) : null;
  if (fileSize !== null) throw refuse(fileSize);
  if (typeof config.prefix === 'string') checkPrefixTemplate(config.prefix);
  const file = checkFileFormat(config.file_format ?? 'JSONLines', config.compression);
  if (file.refusal !== null) throw refuse(file.refusal);
}

function checkHttpUrl(url: string): void {
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw errors.validation(`Invalid destination URL: ${url}`, 'destination');
  }
}

export interface Destination {
  type: DestinationType;
  config: Record<string, unknown>;
}

/**
 * The destination to store. On PATCH (`stored` given) a config of the same type is merged into the stored one,
 * so that secrets need not be sent again, and required fields are not demanded; a new type starts afresh.
 */
export function validateDestination(
  input: { type?: unknown; config?: unknown },
  model: BatchExportModel,
  stored: Destination | null = null,
): Destination {
  const type = destinationTypeOf(input.type);
  const given = input.config ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw errors.validation(`Configuration has invalid type: got '${pythonTypeName(given)}', expected 'dict'`, 'destination');
  }
  const merging = stored !== null && stored.type === type;
  const raw: Record<string, unknown> = merging ? { ...stored.config, ...given } : { ...given };
  const rules = { ...COMMON_FIELDS, ...CONFIG_FIELDS[type] };

  const unknown = Object.keys(raw).filter((name) => !(name in rules));
  if (unknown.length > 0) {
    throw errors.validation(`Configuration has unknown field/s: ${unknown.map((name) => `'${name}'`).join(', ')}`, 'destination');
  }
  if (!merging) {
    const missing = Object.entries(rules).find(([name, rule]) => rule.required && raw[name] === undefined);
    if (missing) throw errors.validation(`Configuration missing required field: '${missing[0]}'`, 'destination');
  }
  const config: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) config[name] = coerceField(value, rules[name]!);

  if (S3_TYPES.includes(type)) checkS3(config);
  if (type === 'Postgres' && typeof config.port === 'number' && (config.port < 1 || config.port > 65535)) {
    throw errors.validation("Configuration has invalid value: 'port' must be between 1 and 65535", 'destination');
  }
  if (type === 'HTTP') {
    if (model !== 'events') throw errors.validation('HTTP batch exports only support the events model', 'model');
    if (typeof config.url === 'string') checkHttpUrl(config.url);
  }
  return { type, config };
}

/**
 * The hosts a destination names, checked against the address policy (db/destinations/address-policy.ts): an HTTP
 * URL's, an S3 endpoint's, a Postgres host. Runs after validateDestination, on the config it answered; a refused
 * host is a 400 about the destination, as every other config field's is.
 */
export async function checkDestinationAddresses(destination: Destination, policy: AddressPolicy): Promise<void> {
  const { type, config } = destination;
  try {
    if (type === 'HTTP' && typeof config.url === 'string') await policy.checkForWrite(new URL(config.url).hostname);
    if (S3_TYPES.includes(type) && typeof config.endpoint_url === 'string' && config.endpoint_url !== '') {
      const host = s3EndpointHost(config.endpoint_url);
      if (host === null) throw errors.validation(s3EndpointRefusal(config.endpoint_url), 'destination');
      await policy.checkForWrite(host);
    }
    if (type === 'Postgres' && typeof config.host === 'string') {
      checkPostgresHostSpelling(config.host);
      await policy.checkForWrite(config.host);
    }
  } catch (error) {
    if (error instanceof DestinationAddressError) throw errors.validation(error.message, 'destination');
    throw error;
  }
}

/** The config as it may be answered: without the type's secrets. */
export function publicConfig(type: DestinationType, config: Record<string, unknown>): Record<string, unknown> {
  const secrets = SECRET_FIELDS[type] ?? [];
  return Object.fromEntries(Object.entries(config).filter(([name]) => !secrets.includes(name)));
}

// ---------------------------------------------------------------------------------------------------------------
// hogql_query

export interface ExportSchema {
  fields: { expression: string; alias: string }[];
  values: Record<string, never>;
  hogql_query: string;
}

/** Columns of an exported event row beyond those HogQL's event fields name. */
const EXPORT_ONLY_FIELDS = ['team_id', 'created_at', '_inserted_at', 'inserted_at', 'set', 'set_once', 'person_properties'];

type Token = ReturnType<typeof tokenize>[number];

const isWord = (token: Token | undefined, word: string): boolean =>
  token !== undefined && token.type === 'ident' && !token.quoted && token.value.toLowerCase() === word;

const invalid = (detail: string) => errors.validation(detail, 'hogql_query');

/** Text of a select item split at top-level commas, with the positions in the original text. */
function splitTopLevel(text: string, tokens: readonly Token[], from: number, to: number): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = tokens[from]!.pos;
  for (let index = from; index < to; index += 1) {
    const token = tokens[index]!;
    if (token.type !== 'op') continue;
    if (token.value === '(' || token.value === '[') depth += 1;
    else if (token.value === ')' || token.value === ']') depth -= 1;
    else if (token.value === ',' && depth === 0) {
      items.push(text.slice(start, token.pos));
      start = tokens[index + 1]!.pos;
    }
  }
  items.push(text.slice(start, tokens[to]!.pos));
  return items.map((item) => item.trim());
}

/**
 * The exported columns of a `SELECT ... FROM events` query, checked in PostHog's order: it must parse, its
 * expressions must resolve, and then it may have no UNION, must read FROM events (and nothing else), with no
 * subquery and no JOIN. Only the select list matters to the export; anything after `FROM events` must parse.
 * An empty (or blank) query means the model's default columns: null.
 */
export function describeHogqlQuery(text: string | null | undefined): ExportSchema | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  let tokens: Token[];
  try {
    // Pieces of the text are cut out by position below, and the stored text has its line breaks collapsed: both
    // need it without comments.
    text = withoutComments(text);
    tokens = tokenize(text);
  } catch {
    throw invalid('Failed to parse query');
  }
  const words = tokens.map((token, index) => ({ token, index }));
  let depth = 0;
  const topLevel: { token: Token; index: number }[] = [];
  let nestedSelect = false;
  for (const { token, index } of words) {
    if (token.type === 'op' && (token.value === '(' || token.value === '[')) depth += 1;
    else if (token.type === 'op' && (token.value === ')' || token.value === ']')) depth -= 1;
    if (depth < 0) throw invalid('Failed to parse query');
    if (depth === 0) topLevel.push({ token, index });
    else if (isWord(token, 'select')) nestedSelect = true;
  }
  if (depth !== 0) throw invalid('Failed to parse query');
  const startsWithCte = isWord(tokens[0], 'with');
  if (!isWord(tokens[0], 'select') && !startsWithCte) throw invalid('Failed to parse query');

  const union = topLevel.find(({ token }) => isWord(token, 'union'));
  const selectEnd = union?.index ?? tokens.length - 1;
  const from = topLevel.find(({ token, index }) => index < selectEnd && isWord(token, 'from'));
  const itemsEnd = from?.index ?? selectEnd;
  if (!startsWithCte && itemsEnd <= 1) throw invalid('Failed to parse query');

  const fields: ExportSchema['fields'] = [];
  if (!startsWithCte) {
    for (const itemText of splitTopLevel(text, tokens, 1, itemsEnd)) {
      let item;
      try {
        item = parseSelectItem(itemText);
      } catch {
        throw invalid('Failed to parse query');
      }
      const field = item.expr.kind === 'field' && item.expr.chain.length === 1 ? item.expr.chain[0] : undefined;
      if (typeof field !== 'string' || !EXPORT_ONLY_FIELDS.includes(field)) {
        try {
          new Compiler({ timezone: 'UTC', allowAggregates: false, clause: 'select' }).compile(item.expr);
        } catch (error) {
          if (error instanceof HogQLError) throw invalid(`Invalid HogQL query: ${error.message}`);
          throw error;
        }
      }
      const expression = splitAlias(itemText);
      fields.push({ expression, alias: item.name === itemText.trim() ? expression : item.name });
    }
  }

  if (union) throw invalid('UNIONs are not supported');
  if (startsWithCte) throw invalid('Subqueries or CTEs are not supported');
  if (!from) throw invalid('Query must SELECT FROM events');
  const source = tokens[from.index + 1];
  if (nestedSelect || (source?.type === 'op' && source.value === '(')) throw invalid('Subqueries or CTEs are not supported');
  if (!source || source.type !== 'ident' || source.value !== 'events') throw invalid('Query must only SELECT FROM events');
  const rest = topLevel.filter(({ index }) => index > from.index + 1);
  if (rest.some(({ token }) => isWord(token, 'join') || (token.type === 'op' && token.value === ','))) {
    throw invalid('JOINs are not supported');
  }
  const whereAt = rest.find(({ token }) => isWord(token, 'where'));
  if (whereAt) {
    const clauseEnd = rest.find(({ token, index }) => index > whereAt.index && ['group', 'order', 'limit', 'having'].some((word) => isWord(token, word)));
    const whereText = text.slice(tokens[whereAt.index + 1]!.pos, tokens[clauseEnd?.index ?? tokens.length - 1]!.pos);
    try {
      parseExpression(whereText);
    } catch {
      throw invalid('Failed to parse query');
    }
  }
  return { fields, values: {}, hogql_query: normalise(text) };
}

/** A select item's expression without its `AS alias`. */
function splitAlias(itemText: string): string {
  const tokens = tokenize(itemText);
  const last = tokens.length - 2;
  let end = tokens.length - 1;
  if (last >= 1 && isWord(tokens[last - 1], 'as')) end = last - 1;
  return itemText.slice(0, tokens[end]!.pos).trim();
}

/** The query with its runs of white space outside quotes collapsed, as it is stored in the schema. */
function normalise(text: string): string {
  let result = '';
  let quote: string | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quote) {
      result += char;
      if (char === '\\') {
        result += text[index + 1] ?? '';
        index += 1;
      } else if (char === quote) quote = null;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') quote = char;
    if (/\s/.test(char)) {
      if (!result.endsWith(' ')) result += ' ';
      continue;
    }
    result += char;
  }
  return result.trim();
}

// ---------------------------------------------------------------------------------------------------------------
// filters, schedule

/** null, or a list of property filters `{key, operator, type, value}` that the filter parser accepts. */
export function validateFilters(raw: unknown): unknown[] | null {
  if (raw === null || raw === undefined) return null;
  const bad = () => errors.validation("'filters' should be an array of filters", 'filters');
  if (!Array.isArray(raw)) throw bad();
  if (raw.some((item) => typeof item !== 'object' || item === null || Array.isArray(item) || typeof item.key !== 'string')) throw bad();
  try {
    parsePropertyFilters(raw);
  } catch (error) {
    if (error instanceof HogQLError) throw errors.validation(`Invalid filters: ${error.message}`, 'filters');
    throw error;
  }
  return raw;
}

export function validateTimezone(timezone: unknown): string {
  if (typeof timezone === 'string' && timezone !== '') {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: timezone });
      return timezone;
    } catch {
      // falls through to the error
    }
  }
  throw errors.validation(`"${String(timezone)}" is not a valid choice.`, 'timezone', 'invalid_choice');
}

/**
 * `interval_offset` in seconds from the API's offset_day (weekly only, 0 = Sunday) and offset_hour (daily and
 * weekly). Offsets the interval cannot have are refused when given, and dropped when they only came from before
 * the interval changed.
 */
export function intervalOffset(
  interval: BatchExportInterval,
  given: { offset_day?: number | null; offset_hour?: number | null },
  stored: { day: number | null; hour: number | null } = { day: null, hour: null },
): number {
  const weekly = interval === 'week';
  const hourly = interval === 'week' || interval === 'day';
  if (given.offset_day !== undefined && given.offset_day !== null) {
    if (!weekly) throw errors.validation('offset_day can only be set for weekly batch exports', 'offset_day');
    if (given.offset_day < 0 || given.offset_day > 6) throw errors.validation('offset_day must be between 0 and 6', 'offset_day');
  }
  if (given.offset_hour !== undefined && given.offset_hour !== null) {
    if (!hourly) throw errors.validation('offset_hour can only be set for daily or weekly batch exports', 'offset_hour');
    if (given.offset_hour < 0 || given.offset_hour > 23) throw errors.validation('offset_hour must be between 0 and 23', 'offset_hour');
  }
  const day = weekly ? ((given.offset_day !== undefined ? given.offset_day : stored.day) ?? 0) : 0;
  const hour = hourly ? ((given.offset_hour !== undefined ? given.offset_hour : stored.hour) ?? 0) : 0;
  return day * 86400 + hour * 3600;
}

/** The API's offset_day and offset_hour of a stored interval_offset (null where the interval has none). */
export function offsetsOf(interval: BatchExportInterval, offset: number): { offset_day: number | null; offset_hour: number | null } {
  return {
    offset_day: interval === 'week' ? Math.floor(offset / 86400) : null,
    offset_hour: interval === 'week' || interval === 'day' ? Math.floor(offset / 3600) % 24 : null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// backfills

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}(?::\d{2}(?::\d{2}(?:\.\d{1,6})?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** A backfill bound: null when absent, else an ISO 8601 date-time with an offset. */
export function parseBackfillBound(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const match = typeof value === 'string' ? ISO_DATETIME.exec(text) : null;
  const date = match ? new Date(normaliseIso(text)) : null;
  if (!match || !date || Number.isNaN(date.getTime())) {
    throw errors.validation(`Input ${text} is not a valid ISO formatted datetime.`);
  }
  if (match[1] === undefined) throw errors.validation(`Input ${text} is naive.`);
  return date;
}

/** What Date.parse reads: a T between date and time, minutes on the hour offset, seconds present. */
function normaliseIso(text: string): string {
  let result = text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00').replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  if (/T\d{2}(Z|[+-]|$)/i.test(result)) result = result.replace(/T(\d{2})/i, 'T$1:00');
  return result;
}

export interface BackfillWindow {
  start: Date | null;
  end: Date | null;
}

/** The checks of a backfill window that need no data, in PostHog's order. */
export function checkBackfillWindow(window: BackfillWindow, interval: BatchExportInterval, now: Date): void {
  const { start, end } = window;
  if (start && end && start.getTime() >= end.getTime()) {
    throw errors.validation("The initial backfill datetime 'start_at' happens after 'end_at'");
  }
  if (end && end.getTime() > now.getTime() + INTERVAL_SECONDS[interval] * 1000) {
    throw errors.validation(
      `The provided 'end_at' (${pythonIso(end)}) is too far into the future. Cannot backfill beyond 1 batch period into the future.`,
    );
  }
}

/** The checks that need the earliest data (already aligned to the interval), and the start they give. */
export function adjustedBackfillStart(
  window: BackfillWindow,
  earliest: { at: Date; aligned: Date } | null,
  destinationType: DestinationType,
): Date | null {
  if (!earliest) throw errors.validation('There is no data to backfill for this model.');
  if (window.end && window.end.getTime() <= earliest.at.getTime()) {
    throw errors.validation(
      `The provided backfill date range contains no data. The earliest possible backfill start date is ${pythonIso(earliest.aligned)}`,
    );
  }
  if (!window.end && destinationType !== 'HTTP' && destinationType !== 'NoOp') {
    throw errors.validation('Backfilling a BatchExport with no end date is not allowed');
  }
  if (!window.start) return null;
  return window.start.getTime() < earliest.aligned.getTime() ? earliest.aligned : window.start;
}

/** An instant as Python's isoformat() prints an aware UTC datetime. */
export function pythonIso(date: Date): string {
  const iso = date.toISOString();
  const fraction = iso.slice(19, 23) === '.000' ? '' : `${iso.slice(19, 23)}000`;
  return `${iso.slice(0, 19)}${fraction}+00:00`;
}
