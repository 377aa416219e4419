/**
 * PostHog's own HogQL functions (posthog/hogql/functions/posthog.py, the UDFs of udfs.py, and languageCodeToName
 * of mapping.py). The ones that are a fixed rewrite or a fixed table run; the ones that read PostHog's models
 * (actions, surveys, feature flags), its ClickHouse dictionaries, its user-defined functions or a language model
 * are refused with the reason.
 */
import type { FunctionDef } from '../functions.js';
import { keyword, param, sql } from '../sql.js';
import { arrayOf, coerce, typed } from '../types.js';
import type { Family } from './index.js';

/**
 * ISO 639-1 codes and the English names PostHog gives them (posthog/hogql/language_mappings.py): an unknown code
 * is "Unknown", as PostHog's transform() default.
 */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  aa: 'Afar', ab: 'Abkhazian', ae: 'Avestan', af: 'Afrikaans', ak: 'Akan', am: 'Amharic', an: 'Aragonese', ar: 'Arabic',
  as: 'Assamese', av: 'Avaric', ay: 'Aymara', az: 'Azerbaijani', ba: 'Bashkir', be: 'Belarusian', bg: 'Bulgarian',
  bh: 'Bihari languages', bi: 'Bislama', bm: 'Bambara', bn: 'Bengali', bo: 'Tibetan', br: 'Breton', bs: 'Bosnian',
  ca: 'Catalan', ce: 'Chechen', ch: 'Chamorro', co: 'Corsican', cr: 'Cree', cs: 'Czech', cu: 'Church Slavic',
  cv: 'Chuvash', cy: 'Welsh', da: 'Danish', de: 'German', dv: 'Divehi', dz: 'Dzongkha', ee: 'Ewe', el: 'Greek',
  en: 'English', eo: 'Esperanto', es: 'Spanish', et: 'Estonian', eu: 'Basque', fa: 'Persian', ff: 'Fulah', fi: 'Finnish',
  fj: 'Fijian', fo: 'Faroese', fr: 'French', fy: 'Western Frisian', ga: 'Irish', gd: 'Scottish Gaelic', gl: 'Galician',
  gn: 'Guarani', gu: 'Gujarati', gv: 'Manx', ha: 'Hausa', he: 'Hebrew', hi: 'Hindi', ho: 'Hiri Motu', hr: 'Croatian',
  ht: 'Haitian', hu: 'Hungarian', hy: 'Armenian', hz: 'Herero', ia: 'Interlingua', id: 'Indonesian', ie: 'Interlingue',
  ig: 'Igbo', ii: 'Sichuan Yi', ik: 'Inupiaq', io: 'Ido', is: 'Icelandic', it: 'Italian', iu: 'Inuktitut', ja: 'Japanese',
  jv: 'Javanese', ka: 'Georgian', kg: 'Kongo', ki: 'Kikuyu', kj: 'Kuanyama', kk: 'Kazakh', kl: 'Kalaallisut',
  km: 'Central Khmer', kn: 'Kannada', ko: 'Korean', kr: 'Kanuri', ks: 'Kashmiri', ku: 'Kurdish', kv: 'Komi', kw: 'Cornish',
  ky: 'Kirghiz', la: 'Latin', lb: 'Luxembourgish', lg: 'Ganda', li: 'Limburgan', ln: 'Lingala', lo: 'Lao', lt: 'Lithuanian',
  lu: 'Luba-Katanga', lv: 'Latvian', mg: 'Malagasy', mh: 'Marshallese', mi: 'Maori', mk: 'Macedonian', ml: 'Malayalam',
  mn: 'Mongolian', mr: 'Marathi', ms: 'Malay', mt: 'Maltese', my: 'Burmese', na: 'Nauru', nb: 'Norwegian Bokmål',
  nd: 'North Ndebele', ne: 'Nepali', ng: 'Ndonga', nl: 'Dutch', nn: 'Norwegian Nynorsk', no: 'Norwegian',
  nr: 'South Ndebele', nv: 'Navajo', ny: 'Chichewa', oc: 'Occitan', oj: 'Ojibwa', om: 'Oromo', or: 'Oriya', os: 'Ossetian',
  pa: 'Panjabi', pi: 'Pali', pl: 'Polish', ps: 'Pashto', pt: 'Portuguese', qu: 'Quechua', rm: 'Romansh', rn: 'Rundi',
  ro: 'Romanian', ru: 'Russian', rw: 'Kinyarwanda', sa: 'Sanskrit', sc: 'Sardinian', sd: 'Sindhi', se: 'Northern Sami',
  sg: 'Sango', si: 'Sinhala', sk: 'Slovak', sl: 'Slovenian', sm: 'Samoan', sn: 'Shona', so: 'Somali', sq: 'Albanian',
  sr: 'Serbian', ss: 'Swati', st: 'Southern Sotho', su: 'Sundanese', sv: 'Swedish', sw: 'Swahili', ta: 'Tamil',
  te: 'Telugu', tg: 'Tajik', th: 'Thai', ti: 'Tigrinya', tk: 'Turkmen', tl: 'Tagalog', tn: 'Tswana', to: 'Tonga',
  tr: 'Turkish', ts: 'Tsonga', tt: 'Tatar', tw: 'Twi', ty: 'Tahitian', ug: 'Uighur', uk: 'Ukrainian', ur: 'Urdu',
  uz: 'Uzbek', ve: 'Venda', vi: 'Vietnamese', vo: 'Volapük', wa: 'Walloon', wo: 'Wolof', xh: 'Xhosa', yi: 'Yiddish',
  yo: 'Yoruba', za: 'Zhuang', zh: 'Chinese', zu: 'Zulu',
};

/**
 * A version X.Y.Z (no leading zeros; an optional "v" before it, a pre-release or build part after it, spaces
 * around it), as PostHog's sortableSemVer() reads one.
 */
const SEMVER = String.raw`^\s*v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:[-+]\S*)?\s*$`;

const DEFINITIONS: FunctionDef[] = [
  {
    name: 'sparkline',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // PostHog answers a HogQLX tag as a tuple: ('__hx_tag', 'Sparkline', 'data', values), which its
      // front end draws; a tuple is a JSON array here.
      const values = coerce(c.compile(args[0]!), 'array', c.scope);
      return arrayOf(sql`jsonb_build_array('__hx_tag', 'Sparkline', 'data', ${values.sql})`, 'json', false, values.aggregate);
    },
  },
  {
    name: 'sortableSemVer',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      // [major, minor, patch] as integers, which compare as versions do; anything else is [null], which no
      // version filter keeps (as PostHog's version: an invalid version falls out of every comparison).
      const text = coerce(c.compile(args[0]!), 'string', c.scope);
      const parts = sql`regexp_match(coalesce(${text.sql}, ''), ${param(SEMVER, 'text')})`;
      // A number beyond a 64-bit integer is null, as toInt64OrNull() makes it.
      const part = (index: number) => {
        const digits = sql`(${parts})[${keyword(String(index))}]`;
        return sql`(case when ${digits}::numeric <= 9223372036854775807 then ${digits}::bigint end)`;
      };
      const body = sql`(case when ${parts} is null then '[null]'::jsonb else jsonb_build_array(${part(1)}, ${part(2)}, ${part(3)}) end)`;
      return arrayOf(body, 'int', false, text.aggregate);
    },
  },
  {
    name: 'languageCodeToName',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const code = coerce(c.compile(args[0]!), 'string', c.scope);
      const names = param(JSON.stringify(LANGUAGE_NAMES), 'jsonb');
      return typed(sql`(case when ${code.sql} is null then null else coalesce(${names} ->> ${code.sql}, 'Unknown') end)`, 'string', code.nullable, code.aggregate);
    },
  },
];

const NO_ACTIONS = 'Hedgerow has no actions to match events against.';
const NO_RECORDINGS = 'Hedgerow stores no session recordings.';
const CHANNELS = 'it reads PostHog’s ClickHouse dictionaries of domains, sources and mediums, which Hedgerow does not ship; there is no channel type here.';
const GEOIP = 'it reads PostHog’s ClickHouse GeoIP dictionary, which Hedgerow does not ship.';
const TRAFFIC = 'PostHog’s table of bot and crawler user agents is not shipped with Hedgerow, so traffic types cannot be told here.';
const FUNNEL_UDF = 'it is one of PostHog’s user-defined funnel programs that run inside its ClickHouse, which Hedgerow does not run.';
const SURVEYS = 'Hedgerow has no surveys.';

const UNAVAILABLE: Record<string, string> = {
  matchesAction: NO_ACTIONS,
  recordingButton: NO_RECORDINGS,
  explainCSPReport: 'it asks a language model to explain the report, and Hedgerow runs no model.',
  embedText: 'it asks an embedding model for a vector, and Hedgerow runs no model.',
  _lookupGeoipCityName: GEOIP,
  _lookupGeoipPostalCode: GEOIP,
  lookupDomainType: CHANNELS,
  lookupPaidSourceType: CHANNELS,
  lookupPaidMediumType: CHANNELS,
  lookupOrganicSourceType: CHANNELS,
  lookupOrganicMediumType: CHANNELS,
  _defaultChannelType: CHANNELS,
  _domainType: CHANNELS,
  convertCurrency: 'Hedgerow keeps no table of exchange rates to convert with.',
  getSurveyResponse: SURVEYS,
  uniqueSurveySubmissionsFilter: SURVEYS,
  getTrafficType: TRAFFIC,
  getTrafficCategory: TRAFFIC,
  isLikelyBot: TRAFFIC,
  getBotType: TRAFFIC,
  getBotName: TRAFFIC,
  getBotOperator: TRAFFIC,
  __preview_getTrafficType: TRAFFIC,
  __preview_getTrafficCategory: TRAFFIC,
  __preview_isBot: TRAFFIC,
  __preview_getBotType: TRAFFIC,
  __preview_getBotName: TRAFFIC,
  __preview_getBotOperator: TRAFFIC,
  aggregate_funnel: FUNNEL_UDF,
  aggregate_funnel_array: FUNNEL_UDF,
  aggregate_funnel_cohort: FUNNEL_UDF,
  aggregate_funnel_trends: FUNNEL_UDF,
  aggregate_funnel_array_trends: FUNNEL_UDF,
  aggregate_funnel_cohort_trends: FUNNEL_UDF,
  aggregate_funnel_json: FUNNEL_UDF,
  aggregate_funnel_array_json: FUNNEL_UDF,
  aggregate_funnel_cohort_json: FUNNEL_UDF,
  aggregate_funnel_trends_json: FUNNEL_UDF,
  aggregate_funnel_array_trends_json: FUNNEL_UDF,
  aggregate_funnel_cohort_trends_json: FUNNEL_UDF,
  aggregate_funnel_test: FUNNEL_UDF,
  aggregate_funnel_array_trends_test: FUNNEL_UDF,
};

export const POSTHOG: Family = { title: "PostHog's own", definitions: DEFINITIONS, unavailable: UNAVAILABLE };
