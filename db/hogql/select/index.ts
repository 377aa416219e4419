/** The HogQL SELECT statement: parsed (parser.ts), compiled to one parameterised statement (compiler.ts). */
export { compileSelect, TABLE_NAMES, type CompiledSelect, type SelectOptions, type SelectOutputColumn } from './compiler.js';
export { SELECT_FUNCTION_NAMES } from './functions.js';
export { MAX_QUERY_LENGTH, parseSelect, type QueryNode, type QueryPlaceholders, type SelectQuery, type UnionQuery } from './parser.js';
export { requestPlaceholders, type HogQLFilters, type HogQLVariable } from './placeholders.js';
export { printExpr, printQuery } from './print.js';
export { catalogueMarkdown, functionCatalogue, type CatalogueEntry } from './catalogue.js';
