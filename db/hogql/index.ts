/**
 * The HogQL expression engine: parse (parser.ts) → typed tree (ast.ts) → parameterised PostgreSQL
 * (compiler.ts, functions.ts, property-filters.ts), and the event listing query built from it (event-listing.ts).
 */
export type { Expr, SelectItem } from './ast.js';
export { Compiler, FIELD_NAMES, type CompileOptions } from './compiler.js';
export { parseDateTimeInput, parseIsoDateTime, type DateTimeText } from './datetime.js';
export { HogQLError, inParameter } from './errors.js';
export {
  compileEventsQuery,
  compilePersonLookup,
  listedEventColumns,
  PERSON_LOOKUP_LIMIT,
  type CompiledEventsQuery,
  type EventsQuerySpec,
  type Keyset,
} from './event-listing.js';
export { FUNCTION_NAMES } from './functions.js';
export { parseExpression, parseSelectItem } from './parser.js';
export { compilePropertyGroup, parsePropertyFilters, splitPersonFilters, type PropertyGroup } from './property-filters.js';
export type { Fragment } from './sql.js';
export { outputValue, type HogQLType } from './types.js';
