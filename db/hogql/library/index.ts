/**
 * PostHog's HogQL function library beyond the first functions (functions.ts, select/functions.ts): one file a
 * family of PostHog's mapping (arrays, dates, strings, aggregates, PostHog's own, …). Each family gives its
 * definitions and, for each function of its family that does not run here, the reason a refusal names.
 */
import type { FunctionDef } from '../functions.js';
import { AGGREGATES } from './aggregates.js';
import { ARRAYS } from './arrays.js';
import { CONVERSIONS } from './conversions.js';
import { DATES } from './dates.js';
import { GEO } from './geo.js';
import { IP } from './ip.js';
import { JSON_FAMILY } from './json.js';
import { MAPS } from './maps.js';
import { MATH } from './math.js';
import { OPERATOR_FUNCTIONS } from './operators.js';
import { POSTHOG } from './posthog.js';
import { STRINGS } from './strings.js';
import { URLS } from './urls.js';

export interface Family {
  /** What the functions are, as the generated list heads them. */
  title: string;
  definitions: readonly FunctionDef[];
  /** Functions of the family that are refused, each with why (by PostHog's spelling of its name). */
  unavailable: Readonly<Record<string, string>>;
}

export const FAMILIES: readonly Family[] = [ARRAYS, OPERATOR_FUNCTIONS, DATES, AGGREGATES, POSTHOG, STRINGS, MATH, CONVERSIONS, JSON_FAMILY, URLS, MAPS, GEO, IP];

/** The library's functions, by lower-case name. */
export const LIBRARY_FUNCTIONS: Readonly<Record<string, FunctionDef>> = Object.fromEntries(
  FAMILIES.flatMap((family) => family.definitions.map((definition) => [definition.name.toLowerCase(), definition])),
);

/** Why a function is not available, by lower-case name. */
export const UNAVAILABLE: Readonly<Record<string, { name: string; reason: string }>> = Object.fromEntries(
  FAMILIES.flatMap((family) => Object.entries(family.unavailable).map(([name, reason]) => [name.toLowerCase(), { name, reason }])),
);
