/**
 * A HogQL query that runs until it is cancelled: an environment's handful of events joined with themselves
 * twelve times (5^12 rows for five events).
 */
export const ENDLESS_QUERY = `select count() from events a ${'bcdfghijklm'
  .split('')
  .map((alias) => `join events ${alias} on 1 = 1`)
  .join(' ')}`;
