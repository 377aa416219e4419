/**
 * ClickHouse's geo functions (PostHog's clickhouse/geo.py): none runs here, each for the reason it gives.
 */
import type { Family } from './index.js';

const H3 = "It works on Uber's H3 grid, for which PostgreSQL has no library here.";
const GEO_NAMES = [
  'h3IsValid', 'h3GetResolution', 'h3GetBaseCell', 'h3EdgeAngle', 'h3EdgeLengthM', 'h3EdgeLengthKm', 'geoToH3', 'h3ToGeo', 'h3ToGeoBoundary',
  'h3kRing', 'h3HexAreaM2', 'h3HexAreaKm2', 'h3IndexesAreNeighbors', 'h3ToChildren', 'h3ToParent', 'h3ToString', 'stringToH3', 'h3IsResClassIII',
  'h3IsPentagon', 'h3GetFaces', 'h3CellAreaM2', 'h3CellAreaRads2', 'h3ToCenterChild', 'h3ExactEdgeLengthM', 'h3ExactEdgeLengthKm',
  'h3ExactEdgeLengthRads', 'h3NumHexagons', 'h3PointDistM', 'h3PointDistKm', 'h3PointDistRads', 'h3GetRes0Indexes', 'h3GetPentagonIndexes',
  'h3Line', 'h3Distance', 'h3HexRing', 'h3GetUnidirectionalEdge', 'h3UnidirectionalEdgeIsValid', 'h3GetOriginIndexFromUnidirectionalEdge',
  'h3GetDestinationIndexFromUnidirectionalEdge', 'h3GetIndexesFromUnidirectionalEdge', 'h3GetUnidirectionalEdgesFromHexagon',
  'h3GetUnidirectionalEdgeBoundary',
];
const DISTANCE = "It uses ClickHouse's own approximation of the Earth's geometry, whose digits PostgreSQL's functions do not reproduce.";
const GEOHASH = 'It has no PostgreSQL function here (PostGIS is not installed).';

export const GEO: Family = {
  title: 'Geo',
  definitions: [],
  unavailable: {
    greatCircleDistance: DISTANCE,
    geoDistance: DISTANCE,
    greatCircleAngle: DISTANCE,
    pointInEllipses: "It works on ClickHouse's planar ellipses of coordinates; Hedgerow has no geometry functions (PostGIS is not installed).",
    pointInPolygon: "It works on ClickHouse's polygons of tuples; Hedgerow has no geometry functions (PostGIS is not installed).",
    geohashEncode: GEOHASH,
    geohashDecode: GEOHASH,
    geohashesInBox: GEOHASH,
    ...Object.fromEntries(GEO_NAMES.map((name) => [name, H3])),
  },
};
