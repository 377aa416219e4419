/**
 * Capture's counters, kept in memory and rendered in Prometheus' text format by `GET /_metrics`. Dropped events
 * are counted by reason, as PostHog's capture reports them (`report_dropped_events`).
 */
import { BATCH_PATHS, DROP_REASONS, type DropReason } from './types.js';

type Labels = Record<string, string>;

class Counter {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  add(amount: number, labels: Labels = {}): void {
    const key = Object.values(labels).join('\u0000');
    const entry = this.values.get(key);
    if (entry) entry.value += amount;
    else this.values.set(key, { labels, value: amount });
  }

  value(labels: Labels = {}): number {
    return this.values.get(Object.values(labels).join('\u0000'))?.value ?? 0;
  }

  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const { labels, value } of this.values.values()) {
      const text = Object.entries(labels)
        .map(([key, label]) => `${key}="${label.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
        .join(',');
      lines.push(`${this.name}${text ? `{${text}}` : ''} ${value}`);
    }
    return lines;
  }
}

export class CaptureMetrics {
  readonly requests = new Counter('hedgerow_capture_requests_total', 'Capture requests answered, by operation and status.');
  readonly received = new Counter('hedgerow_capture_events_received_total', 'Events in capture requests that were decoded.');
  readonly ingested = new Counter('hedgerow_capture_events_ingested_total', 'Events committed to the database.');
  readonly duplicates = new Counter(
    'hedgerow_capture_events_duplicate_total',
    'Events not stored again because their uuid was already stored (SDK retries).',
  );
  readonly dropped = new Counter(
    'hedgerow_capture_events_dropped_total',
    'Events answered 200 but not ingested, by reason.',
  );
  readonly flushes = new Counter('hedgerow_capture_flushes_total', 'Group-commit transactions, by result.');
  readonly overlappingFlushes = new Counter(
    'hedgerow_capture_flushes_overlapping_total',
    'Group-commit transactions started while another was in flight (for a large queue).',
  );
  readonly flushedItems = new Counter('hedgerow_capture_flush_requests_total', 'Requests written by group-commit transactions.');
  readonly flushedEvents = new Counter('hedgerow_capture_flush_events_total', 'Events submitted to group-commit transactions.');
  readonly flushSeconds = new Counter('hedgerow_capture_flush_seconds_total', 'Time spent in group-commit transactions.');
  readonly batchPaths = new Counter(
    'hedgerow_capture_batches_total',
    'Committed batches by path: quick (every person remembered) or full (persons loaded and planned).',
  );

  constructor() {
    // Every reason is listed from the start, so that a dashboard can tell "none yet" from "not reported".
    for (const reason of DROP_REASONS) this.dropped.add(0, { reason });
    for (const path of BATCH_PATHS) this.batchPaths.add(0, { path });
    this.overlappingFlushes.add(0);
  }

  drop(reason: DropReason, count = 1): void {
    this.dropped.add(count, { reason });
  }

  /** The request counters, and the process's memory. */
  renderRequests(): string {
    const memory = process.memoryUsage();
    const lines = [
      ...this.requests.render(),
      '# HELP process_resident_memory_bytes Resident memory size in bytes.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
    ];
    return `${lines.join('\n')}\n`;
  }

  /** The event and group-commit counters. */
  renderIngestion(): string {
    const lines = [
      ...this.received.render(),
      ...this.ingested.render(),
      ...this.duplicates.render(),
      ...this.dropped.render(),
      ...this.flushes.render(),
      ...this.overlappingFlushes.render(),
      ...this.flushedItems.render(),
      ...this.flushedEvents.render(),
      ...this.flushSeconds.render(),
      ...this.batchPaths.render(),
    ];
    return `${lines.join('\n')}\n`;
  }
}

/** The API's key lookups by where they were answered, and whether the access cache may answer (db/queries/access-cache.ts). */
export function renderAccessLookups(access: { lookups: { memory: number; database: number }; listens: number; isListening: boolean }): string {
  const name = 'hedgerow_api_key_lookups_total';
  const lines = [
    `# HELP ${name} Personal API key lookups of API requests, by where the answer came from.`,
    `# TYPE ${name} counter`,
    `${name}{source="memory"} ${access.lookups.memory}`,
    `${name}{source="database"} ${access.lookups.database}`,
    '# HELP hedgerow_api_access_cache_listening 1 while the access cache hears of changes and may answer; 0 while every lookup asks the database.',
    '# TYPE hedgerow_api_access_cache_listening gauge',
    `hedgerow_api_access_cache_listening ${access.isListening ? 1 : 0}`,
    '# HELP hedgerow_api_access_cache_listens_total Listening sessions the access cache started (more than one: sessions were lost).',
    '# TYPE hedgerow_api_access_cache_listens_total counter',
    `hedgerow_api_access_cache_listens_total ${access.listens}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** Which host answered: a gauge of 1 whose label names it, as Prometheus' `*_info` metrics do. */
export function renderHostInfo(hostId: string): string {
  const label = hostId.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return [
    '# HELP hedgerow_host_info The host that answered (HEDGEROW_HOST_ID), whichever of its workers did.',
    '# TYPE hedgerow_host_info gauge',
    `hedgerow_host_info{host="${label}"} 1`,
  ].join('\n') + '\n';
}

/** A process's whole `/_metrics` text: capture's counters and the API's key lookups. */
export function renderProcessMetrics(metrics: CaptureMetrics, access: Parameters<typeof renderAccessLookups>[0]): string {
  return metrics.renderRequests() + metrics.renderIngestion() + renderAccessLookups(access);
}

/**
 * The `/_metrics` of several worker processes as one: counters are added up (a scraper sees the server's totals
 * whichever worker answers), gauges are kept per worker with a `worker` label (memory, whether each one's access
 * cache listens). HELP and TYPE lines come once, in the order first seen.
 */
export function combineWorkerMetrics(workers: ReadonlyArray<{ id: number; text: string }>): string {
  const families = new Map<string, { header: string[]; type: string; samples: Map<string, number> }>();
  for (const { id, text } of workers) {
    let family: { header: string[]; type: string; samples: Map<string, number> } | undefined;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const comment = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      if (comment) {
        const name = comment[2]!;
        family = families.get(name);
        if (!family) families.set(name, (family = { header: [], type: 'untyped', samples: new Map() }));
        if (!family.header.some((seen) => seen.startsWith(`# ${comment[1]} `))) family.header.push(line);
        if (comment[1] === 'TYPE') family.type = comment[3] ?? 'untyped';
        continue;
      }
      if (!family) continue;
      const space = line.lastIndexOf(' ');
      let series = line.slice(0, space);
      const value = Number(line.slice(space + 1));
      if (family.type !== 'counter') {
        const brace = series.indexOf('{');
        series = brace < 0 ? `${series}{worker="${id}"}` : `${series.slice(0, brace + 1)}worker="${id}",${series.slice(brace + 1)}`;
      }
      family.samples.set(series, (family.samples.get(series) ?? 0) + value);
    }
  }
  const lines: string[] = [];
  for (const family of families.values()) {
    lines.push(...family.header);
    for (const [series, value] of family.samples) lines.push(`${series} ${value}`);
  }
  return `${lines.join('\n')}\n`;
}
