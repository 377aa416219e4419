/**
 * A run's `latest_error` as it is stored and answered: the error's message, bounded and without the
 * destination's secrets. It is read by whoever can read the export, so it carries what went wrong (a status,
 * an error class, a short excerpt of an answer) and never a credential or a page of someone else's text.
 */

/** Longest latest_error kept, in characters. */
export const LATEST_ERROR_CHARS = 500;

/** Destination settings whose values never appear in a latest_error. */
const SECRET_SETTINGS = ['password', 'token', 'aws_secret_access_key', 'aws_access_key_id'];

/** Secrets shorter than this are masked only where they stand as a whole token. */
const WHOLE_TOKEN_BELOW = 4;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The message with every secret replaced by `***`: a secret of four characters or more wherever it occurs; a
 * shorter one only where it is a token of its own (not next to a letter, digit or underscore), since inside
 * words it would mask pieces of ordinary text ("a batch e***port") while such a credential is still worth hiding
 * where it stands alone. Longer secrets first, so that one containing another is masked whole.
 */
export function maskSecrets(message: string, secrets: readonly unknown[]): string {
  const values = secrets.filter((value): value is string => typeof value === 'string' && value !== '').sort((a, b) => b.length - a.length);
  let masked = message;
  for (const value of values) {
    if (value.length >= WHOLE_TOKEN_BELOW) masked = masked.replaceAll(value, '***');
    else masked = masked.replace(new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(value)}(?![\\p{L}\\p{N}_])`, 'gu'), '***');
  }
  return masked;
}

export function latestErrorOf(error: unknown, destinationConfig: Record<string, unknown>): string {
  const text = error instanceof Error ? error.message : 'An unexpected error has occurred';
  const message = maskSecrets(
    text,
    SECRET_SETTINGS.map((name) => destinationConfig[name]),
  );
  return message.length > LATEST_ERROR_CHARS ? `${message.slice(0, LATEST_ERROR_CHARS)}…` : message;
}
