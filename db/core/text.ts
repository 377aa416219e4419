/** Text made safe for the languages Hedgerow writes patterns in; each escape written once, here. */

/** A canonical UUID (hyphenated, any case), as PostgreSQL's uuid type prints it. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Escapes a JavaScript regular expression's special characters so that `text` matches only itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Escapes LIKE's wildcards (and its escape character) so that `text` matches only itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}
