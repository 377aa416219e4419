/**
 * The bounds of the query endpoint that the configuration reads as well as the query code, kept apart from both
 * so that reading the configuration loads no database code (the supervisor process reads it too).
 */

/** The answer's byte budget unless configured otherwise (HEDGEROW_QUERY_RESULT_MAX_MB). */
export const DEFAULT_RESULT_MAX_BYTES = 20 * 1024 * 1024;

/** Slots an environment may have at most: one byte of the slot lock's class (db/queries/query/shares.ts). */
export const MAX_QUERY_SLOTS = 256;
