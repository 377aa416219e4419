/**
 * The keys of an S3 destination's files and manifest, named as PostHog names them: the prefix with its variables
 * filled, then the interval's bounds. They depend only on the export's settings and the run's interval, so a
 * retried run overwrites the same objects.
 */
import type { BatchExportModel } from '../../../db/queries/batch-exports/rows.js';
import { fileExtension, formatDatetime, type FileCompression, type FileFormat } from './files.js';
import { NonRetryableExportError } from './types.js';

/** How the interval's bounds appear in keys: ISO with `+00:00`, and `None` for the open start of an earliest backfill. */
export function intervalText(date: Date | null): string {
  return date === null ? 'None' : formatDatetime(date);
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The prefix with its variables filled as Python's str.format fills them in PostHog: `{{` and `}}` are braces,
 * `{name}` one of the variables below (the date parts come from the interval's end); anything else is refused.
 */
export function renderPrefix(prefix: string, interval: { start: Date | null; end: Date }, model: BatchExportModel): string {
  const { end } = interval;
  const variables: Record<string, string> = {
    year: pad(end.getUTCFullYear(), 4),
    month: pad(end.getUTCMonth() + 1),
    day: pad(end.getUTCDate()),
    hour: pad(end.getUTCHours()),
    minute: pad(end.getUTCMinutes()),
    second: pad(end.getUTCSeconds()),
    data_interval_start: intervalText(interval.start),
    data_interval_end: intervalText(end),
    table: model,
  };
  let rendered = '';
  for (let index = 0; index < prefix.length; index++) {
    const char = prefix[index]!;
    const next = prefix[index + 1];
    if ((char === '{' && next === '{') || (char === '}' && next === '}')) {
      rendered += char;
      index++;
    } else if (char === '{') {
      const close = prefix.indexOf('}', index);
      const name = close === -1 ? null : prefix.slice(index + 1, close);
      if (name === null || !(name in variables)) {
        throw new NonRetryableExportError(
          `The S3 prefix '${prefix}' uses ${name === null ? 'an unclosed {' : `{${name}}`}; its variables are ${Object.keys(variables)
            .map((variable) => `{${variable}}`)
            .join(', ')}`,
        );
      }
      rendered += variables[name];
      index = close;
    } else if (char === '}') {
      throw new NonRetryableExportError(`The S3 prefix '${prefix}' has a single '}': write '}}' for a brace`);
    } else {
      rendered += char;
    }
  }
  return rendered;
}

/**
 * Python's posixpath.join(prefix, name), and then, for a key that came out absolute, its path relative to `/`
 * (normalised: no empty or `.` segments, `..` resolved): S3 keys never start with a slash.
 */
export function joinKey(prefix: string, name: string): string {
  const joined = prefix === '' || prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
  if (!joined.startsWith('/')) return joined;
  const segments: string[] = [];
  for (const segment of joined.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}

export interface KeyRequest {
  prefix: string;
  start: Date | null;
  end: Date;
  model: BatchExportModel;
  format: FileFormat;
  compression: FileCompression | null;
  /** Only when the export has a maximum file size: every file is numbered, from 0. */
  fileNumber: number | null;
}

export function s3Key(request: KeyRequest): string {
  const interval = { start: request.start, end: request.end };
  const number = request.fileNumber === null ? '' : `-${request.fileNumber}`;
  const name = `${intervalText(request.start)}-${intervalText(request.end)}${number}.${fileExtension(request.format, request.compression)}`;
  return joinKey(renderPrefix(request.prefix, interval, request.model), name);
}

export function manifestKey(request: Pick<KeyRequest, 'prefix' | 'start' | 'end' | 'model'>): string {
  const interval = { start: request.start, end: request.end };
  return joinKey(renderPrefix(request.prefix, interval, request.model), `${intervalText(request.start)}-${intervalText(request.end)}_manifest.json`);
}
