/**
 * What the tests of the batch exports API share: its error bodies, an S3 export to create, its paths, and run
 * rows written as the engine writes them.
 */
import { randomUUID } from 'node:crypto';
import { testDb } from './database.js';
import { unique, type Account } from './fixtures.js';

export const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null };

export const invalid = (detail: string, attr: string | null = null, code = 'invalid_input') => ({
  type: 'validation_error',
  code,
  detail,
  attr,
});

export const S3_CONFIG = { bucket_name: 'exports', region: 'eu-west-1', prefix: 'events/' };

export const S3_SECRETS = { aws_access_key_id: 'AKIA-SECRET-ID', aws_secret_access_key: 'very-secret-key' };

export const s3Export = (extra: Record<string, unknown> = {}) => ({
  name: unique('Events to S3'),
  destination: { type: 'AwsS3', config: { ...S3_CONFIG, ...S3_SECRETS } },
  interval: 'hour',
  ...extra,
});

export const envPath = (account: Account) => `/api/environments/${account.environment.id}/batch_exports/`;

export const orgPath = (account: Account) => `/api/organizations/${account.organization.id}/batch_exports/`;

export const backfillRows = (exportId: string) => testDb()('batch_export_backfills').where({ batch_export_id: exportId }).orderBy('created_at');

/** A run row as the engine would write it, in the given status, created `minutesAgo` minutes ago. */
export async function insertRun(
  exportId: string,
  options: { status?: string; hour?: number; minutesAgo?: number; backfillId?: string | null; bytes?: number } = {},
): Promise<string> {
  const id = randomUUID();
  const end = new Date(Date.UTC(2026, 10, 20, options.hour ?? 1));
  const { team_id } = (await testDb()('batch_exports').where({ id: exportId }).first('team_id')) as { team_id: number };
  await testDb()('batch_export_runs').insert({
    id,
    team_id,
    batch_export_id: exportId,
    backfill_id: options.backfillId ?? null,
    status: options.status ?? 'Completed',
    data_interval_start: new Date(end.getTime() - 3600_000),
    data_interval_end: end,
    records_completed: 5,
    bytes_exported: options.bytes ?? 1234,
    created_at: new Date(Date.now() - (options.minutesAgo ?? 0) * 60_000),
  });
  return id;
}
