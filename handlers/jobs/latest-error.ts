/**
 * A run's `latest_error` as it is stored and answered: the error's message, bounded and without the
 * destination's secrets. It is read by whoever can read the export, so it carries what went wrong (a status,
 * an error class, a short excerpt of an answer) and never a credential or a page of someone else's text.
 */

/** Longest latest_error kept, in characters. */
export const LATEST_ERROR_CHARS = 500;

/** Destination settings whose values never appear in a latest_error. */
const SECRET_SETTINGS = ['password', 'token', 'aws_secret_access_key', 'aws_access_key_id'];

export function latestErrorOf(error: unknown, destinationConfig: Record<string, unknown>): string {
  let message = error instanceof Error ? error.message : 'An unexpected error has occurred';
  for (const name of SECRET_SETTINGS) {
    const value = destinationConfig[name];
    // A very short value would be found inside ordinary words; a credential that short protects nothing anyway.
    if (typeof value === 'string' && value.length >= 4) message = message.replaceAll(value, '***');
  }
  return message.length > LATEST_ERROR_CHARS ? `${message.slice(0, LATEST_ERROR_CHARS)}…` : message;
}
