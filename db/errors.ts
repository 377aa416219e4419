/**
 * Turns PostgreSQL errors into API errors, here in the data layer, so that handlers never see a driver error.
 * Anything not listed stays as it is and becomes a logged 500 in the error middleware.
 */
import { ApiError, errors } from '../handlers/errors.js';

interface PgError {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

/** Constraint names whose violation means "this value is taken", with the API field they belong to. */
const UNIQUE_FIELDS: Readonly<Record<string, string>> = {
  organizations_slug_unique: 'slug',
  users_email_unique: 'email',
  organization_memberships_organization_id_user_id_unique: 'user',
};

export function translatePgError(error: unknown): unknown {
  if (error instanceof ApiError || typeof error !== 'object' || error === null) return error;
  const pg = error as PgError;
  switch (pg.code) {
    case '23505': {
      const attr = (pg.constraint && UNIQUE_FIELDS[pg.constraint]) ?? null;
      return errors.conflict(attr ? `A resource with this ${attr} already exists.` : 'This resource already exists.', attr);
    }
    case '23503':
      return errors.validation('A referenced resource does not exist.', pg.column ?? null, 'does_not_exist');
    case '23502':
      return pg.column ? errors.required(pg.column) : errors.validation('A required value is missing.');
    case '22001':
      return errors.validation('A value is longer than allowed.', pg.column ?? null, 'max_length');
    case '22P02':
    case '22007':
    case '22008':
      return errors.validation('A value is not of the expected type.', pg.column ?? null);
    case '22003':
      return errors.validation('A number is out of range.', pg.column ?? null);
    case '23514':
      return errors.validation('A value is not allowed here.', pg.column ?? null, 'invalid_choice');
    // A NUL character in a text parameter (22021) or in a JSON string bound for jsonb (22P05): PostgreSQL
    // cannot store either, and DRF refuses them with this text.
    case '22021':
    case '22P05':
      return errors.validation('Null characters are not allowed.', null, 'null_characters_not_allowed');
    default:
      return error;
  }
}

/** Runs a query function and rethrows its PostgreSQL error as an API error. */
export async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translatePgError(error);
  }
}
