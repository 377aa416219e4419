/**
 * ClickHouse's IP address functions (PostHog's mapping: IPv4StringToNum, toIPv4, isIPAddressInRange, …) on
 * PostgreSQL's inet type. An IPv4 number is an Int64 (ClickHouse's UInt32); an IPv4 or IPv6 value is its text
 * as ClickHouse writes it (PostgreSQL writes IPv6 as ClickHouse does: lower case, the longest run of zero groups
 * as "::", an IPv4-mapped address with its IPv4 part dotted), so toString() of it is ClickHouse's. Text that is
 * not an address is NULL at run time (hogql_ip_address); a constant one is refused where ClickHouse raises an
 * error, so that the query says why.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { keyword, sql, type Fragment } from '../sql.js';
import { arrayOf, coerce, typed, type Typed } from '../types.js';
import type { Family } from './index.js';
import { arg, constantInteger, derived } from './common.js';

/** Four decimal numbers of at most three digits, each up to 255, as ClickHouse's IPv4 parser reads them. */
const IPV4_PATTERN = /^((25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9]?[0-9])$/;
/** What an IPv6 address may hold (PostgreSQL's inet reads the rest of its form). */
const IPV6_CHARACTERS = /^[0-9A-Fa-f:.]+$/;

/** An argument as text: a property, a number or a date is read as its text, as PostHog's toString() does. */
function text(c: Compiler, expr: Expr): Typed {
  return coerce(c.compile(expr), 'string', c.scope);
}

/** The inet of an IPv4 text, or NULL (SQL functions of the migration create_hogql_ip_functions). */
function ipv4Of(value: Fragment): Fragment {
  return sql`hogql_ipv4_address(${value})`;
}

/** The inet of an IPv6 text (an IPv4 one is not an IPv6 address), or NULL. */
function ipv6Of(value: Fragment): Fragment {
  return sql`hogql_ipv6_address(${value})`;
}

/** Whether a constant text is an address ClickHouse reads as the family (an IPv4 one as IPv6 too); undefined for a non-constant. */
function constantIsAddress(value: Typed, family: 4 | 6): boolean | undefined {
  if (typeof value.constant !== 'string') return undefined;
  if (IPV4_PATTERN.test(value.constant)) return true;
  return family === 6 && value.constant.includes(':') && IPV6_CHARACTERS.test(value.constant);
}

/** A function that raises an error in ClickHouse for text that is not an address: refused for a constant one. */
function refuseConstant(name: string, value: Typed, family: 4 | 6): void {
  if (constantIsAddress(value, family) === false) {
    throw new HogQLError(`${name}() cannot read "${String(value.constant)}" as an IPv${family} address; ${name}OrNull() answers NULL for it.`);
  }
}

type Fallback = 'error' | 'null' | 'default';

/** The default for text that is not an address; NULL for NULL, as ClickHouse's functions of a Nullable argument. */
function orNullFor(value: Typed, fallback: Fragment): Fragment {
  return value.nullable ? sql`(case when ${value.sql} is not null then ${fallback} end)` : fallback;
}

/** IPv4StringToNum…: the address as a number. */
function ipv4StringToNum(name: string, fallback: Fallback): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = text(c, arg(args, 0));
      if (fallback === 'error') refuseConstant(name, value, 4);
      const number = sql`(${ipv4Of(value.sql)} - '0.0.0.0'::inet)`;
      const body = fallback === 'default' ? sql`coalesce(${number}, ${orNullFor(value, keyword('0'))})` : number;
      return derived(body, 'int', [value], fallback === 'default' ? value.nullable : true);
    },
  };
}

/** The IPv4 address of a number: its low 32 bits, as ClickHouse's UInt32. */
function ipv4FromNumber(value: Fragment): Fragment {
  return sql`('0.0.0.0'::inet + ((${value}) & 4294967295))`;
}

/** toIPv4…, toIPv6…: an address of the family, as its text. */
function toAddress(name: string, family: 4 | 6, fallback: Fallback): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const compiled = c.compile(arg(args, 0));
      let address: Fragment;
      let parts: Typed[];
      if (family === 4 && (compiled.type === 'int' || compiled.type === 'float')) {
        const number = coerce(compiled, 'int', c.scope);
        address = ipv4FromNumber(number.sql);
        parts = [number];
      } else {
        const value = coerce(compiled, 'string', c.scope);
        if (fallback === 'error') refuseConstant(name, value, family);
        // An IPv4 text converts to IPv6 as its IPv4-mapped address (::ffff:a.b.c.d), as in ClickHouse.
        address = family === 4 ? ipv4Of(value.sql) : sql`hogql_to_ipv6(${value.sql})`;
        parts = [value];
      }
      const shown = sql`host(${address})`;
      const zero = family === 4 ? keyword("'0.0.0.0'") : keyword("'::'");
      const body = fallback === 'default' ? sql`coalesce(${shown}, ${orNullFor(parts[0]!, zero)})` : shown;
      return derived(body, 'string', parts, fallback === 'default' ? parts[0]!.nullable : true);
    },
  };
}

/** isIPv4String, isIPv6String: 1 where the text is an address of the family, else 0; NULL for NULL. */
function isAddressText(name: string, family: 4 | 6): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const value = text(c, arg(args, 0));
      return derived(family === 4 ? sql`hogql_is_ipv4(${value.sql})` : sql`hogql_is_ipv6(${value.sql})`, 'boolean', [value]);
    },
  };
}

/** The inet of an IPv4 argument: a number (UInt32) or an address's text. */
function ipv4Argument(c: Compiler, expr: Expr): Typed {
  const compiled = c.compile(expr);
  if (compiled.type === 'int' || compiled.type === 'float') {
    const number = coerce(compiled, 'int', c.scope);
    return { ...number, sql: ipv4FromNumber(number.sql) };
  }
  const value = coerce(compiled, 'string', c.scope);
  return { ...value, sql: ipv4Of(value.sql), nullable: true };
}

/** IPv4CIDRToRange, IPv6CIDRToRange: the lowest and highest address of the address's network, as a tuple. */
function cidrToRange(name: string, family: 4 | 6): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const address = family === 4 ? ipv4Argument(c, arg(args, 0)) : (() => {
        const value = text(c, arg(args, 0));
        return { ...value, sql: ipv6Of(value.sql), nullable: true };
      })();
      const most = family === 4 ? 32 : 128;
      const bits = constantInteger(arg(args, 1), `The prefix length of ${name}()`);
      if (bits < 0 || bits > most) throw new HogQLError(`The prefix length of ${name}() must be from 0 to ${most}.`);
      const network = sql`set_masklen(${address.sql}, ${keyword(String(bits))})`;
      const body = sql`(case when ${address.sql} is not null then jsonb_build_array(host(network(${network})), host(broadcast(${network}))) end)`;
      return { ...arrayOf(body, 'string', true, address.aggregate), tupleTypes: ['string', 'string'], elementNullable: false };
    },
  };
}

/** A constant range's text: an address, "/" and a prefix length within its family's bits. */
function checkRange(value: Typed): void {
  if (typeof value.constant !== 'string') return;
  const match = /^([0-9A-Fa-f:.]+)\/([0-9]{1,3})$/.exec(value.constant);
  const family = match ? (IPV4_PATTERN.test(match[1]!) ? 4 : match[1]!.includes(':') ? 6 : 0) : 0;
  if (!match || family === 0 || Number(match[2]) > (family === 4 ? 32 : 128)) {
    throw new HogQLError(`isIPAddressInRange() cannot read "${value.constant}" as a range in CIDR notation (an address, "/" and a prefix length).`);
  }
}

/** The calls whose FixedString(16) IPv6NumToString() reads, each as the function that gives its address as text. */
const BINARY_SOURCES: Readonly<Record<string, string>> = {
  IPv6StringToNum: 'toIPv6',
  IPv6StringToNumOrDefault: 'toIPv6OrDefault',
  IPv6StringToNumOrNull: 'toIPv6OrNull',
  toIPv6: 'toIPv6',
  toIPv6OrDefault: 'toIPv6OrDefault',
  toIPv6OrZero: 'toIPv6OrZero',
  toIPv6OrNull: 'toIPv6OrNull',
};

/**
 * IPv6NumToString() of the 16 bytes a call gives: Hedgerow has no FixedString(16), so it reads the call itself
 * (IPv6StringToNum…, IPv4ToIPv6, or an IPv6 value of toIPv6…) and gives the address's text, as ClickHouse writes it.
 */
const IPV6_NUM_TO_STRING: FunctionDef = {
  name: 'IPv6NumToString',
  minArgs: 1,
  maxArgs: 1,
  compile: (c, args) => {
    const source = arg(args, 0);
    if (source.kind === 'call' && source.name === 'IPv4ToIPv6' && source.args.length === 1) {
      // The IPv4-mapped address of a number (its low 32 bits, as ClickHouse's UInt32).
      const number = coerce(c.compile(arg(source.args, 0)), 'int', c.scope);
      return derived(sql`host(('::ffff:' || host(${ipv4FromNumber(number.sql)}))::inet)`, 'string', [number]);
    }
    const target = source.kind === 'call' ? BINARY_SOURCES[source.name] : undefined;
    if (source.kind === 'constant' && source.value === null) return typed(keyword('null::text'), 'string', true);
    if (!target || source.kind !== 'call') {
      throw new HogQLError('IPv6NumToString() reads the 16 bytes of a FixedString(16), which Hedgerow has no type for: it takes IPv6StringToNum(), IPv4ToIPv6() or toIPv6() directly.');
    }
    return c.call(target, source.args);
  },
};

const DEFINITIONS: FunctionDef[] = [
  ipv4StringToNum('IPv4StringToNum', 'error'),
  ipv4StringToNum('IPv4StringToNumOrDefault', 'default'),
  ipv4StringToNum('IPv4StringToNumOrNull', 'null'),
  {
    name: 'IPv4NumToString',
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const number = coerce(c.compile(arg(args, 0)), 'int', c.scope);
      return derived(sql`host(${ipv4FromNumber(number.sql)})`, 'string', [number]);
    },
  },
  toAddress('toIPv4', 4, 'error'),
  toAddress('toIPv4OrDefault', 4, 'default'),
  toAddress('toIPv4OrZero', 4, 'default'),
  toAddress('toIPv4OrNull', 4, 'null'),
  toAddress('toIPv6', 6, 'error'),
  toAddress('toIPv6OrDefault', 6, 'default'),
  toAddress('toIPv6OrZero', 6, 'default'),
  toAddress('toIPv6OrNull', 6, 'null'),
  isAddressText('isIPv4String', 4),
  isAddressText('isIPv6String', 6),
  {
    name: 'isIPAddressInRange',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // As PostHog runs it: an address that is not one (a NULL too) is read as "::", which matches no real range;
      // an IPv4 address is never in an IPv6 range (ClickHouse does not map it), as PostgreSQL's <<= answers.
      const address = text(c, arg(args, 0));
      const range = text(c, arg(args, 1));
      checkRange(range);
      const body = sql`(coalesce(hogql_ip_address(${address.sql}), '::'::inet) <<= hogql_ip_range(${range.sql}))`;
      return typed(body, 'boolean', range.nullable || range.constant === undefined, address.aggregate || range.aggregate);
    },
  },
  IPV6_NUM_TO_STRING,
  cidrToRange('IPv4CIDRToRange', 4),
  cidrToRange('IPv6CIDRToRange', 6),
  {
    name: 'cutIPv6',
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      // The address with its last bytes zeroed: bytesToCutForIPv4 of an IPv4-mapped one, bytesToCutForIPv6 of others.
      const value = text(c, arg(args, 0));
      const forIPv6 = constantInteger(arg(args, 1), 'The bytes to cut for IPv6 of cutIPv6()');
      const forIPv4 = constantInteger(arg(args, 2), 'The bytes to cut for IPv4 of cutIPv6()');
      if (forIPv6 < 0 || forIPv6 > 16 || forIPv4 < 0 || forIPv4 > 4) throw new HogQLError('cutIPv6() cuts 0 to 16 bytes of an IPv6 address and 0 to 4 of an IPv4 one.');
      const address = ipv6Of(value.sql);
      const mapped = sql`(${address} <<= '::ffff:0.0.0.0/96'::inet)`;
      const cut = (bytes: number) => sql`host(network(set_masklen(${address}, ${keyword(String(128 - 8 * bytes))})))`;
      return derived(sql`(case when ${mapped} then ${cut(forIPv4)} else ${cut(forIPv6)} end)`, 'string', [value], true);
    },
  },
];

const BINARY =
  'It gives the 16 bytes of a FixedString(16), which Hedgerow has no type for (its text holds no NUL byte); IPv6NumToString() of it runs, and toIPv6() gives the address as its text.';

export const IP: Family = {
  title: 'IP addresses',
  definitions: DEFINITIONS,
  unavailable: {
    IPv6StringToNum: BINARY,
    IPv6StringToNumOrDefault: BINARY,
    IPv6StringToNumOrNull: BINARY,
    IPv4ToIPv6: BINARY,
  },
};
