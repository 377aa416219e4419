/**
 * ClickHouse's Map functions (listed in PostHog's mapping.py itself): none runs here, since Hedgerow has no Map
 * values; a property holding an object is read by path or with the JSON functions.
 */
import type { Family } from './index.js';

const NO_MAPS =
  "It works on ClickHouse's Map type, which Hedgerow does not have; read a property holding an object with properties.name.key or JSONExtract…(), and its keys with JSONExtractKeys().";

export const MAPS: Family = {
  title: 'Maps',
  definitions: [],
  unavailable: Object.fromEntries(
    [
      'map', 'mapFromArrays', 'mapAdd', 'mapSubtract', 'mapPopulateSeries', 'mapContains', 'mapKeys', 'mapValues', 'mapContainsKeyLike',
      'mapExtractKeyLike', 'mapApply', 'mapFilter', 'mapUpdate',
    ].map((name) => [name, NO_MAPS]),
  ),
};
