/**
 * Which network addresses a batch export destination may reach: public unicast addresses only, unless the
 * server's operator allows more (HEDGEROW_DESTINATION_ALLOWLIST). A destination is configured by whoever holds
 * a `batch_export:write` key, so without this a destination is a way into the server's own network: its
 * loopback services, its database, the cloud's metadata address.
 *
 * One policy answers both moments: when an export is written (the host as it is spelled, and what its name
 * resolves to then) and when a run connects (every address a connection is about to use, after resolution, so a
 * name that resolves elsewhere later is caught). Every spelling of an address goes through one parser, the one
 * that also reads the forms the C library accepts (`0x7f000001`, `2130706433`, `0177.0.0.1`, `127.1`), and
 * IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4) are judged by the address they carry.
 */
import { isIPv6 } from 'node:net';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A host name's addresses, as the system (or a test) resolves it. */
export type HostResolver = (host: string) => Promise<string[]>;

export const systemResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);

/** A destination names, or resolves to, an address it may not reach: a run fails at once, a write is a 400. */
export class DestinationAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationAddressError';
  }
}

const cidr = (text: string): [Address, number] => ipaddr.parseCIDR(text);

/** What the address classes are called in messages, with their article. */
const LOOPBACK = 'a loopback address';
const PRIVATE = 'a private address';
const LINK_LOCAL = 'a link-local address';
const SHARED = 'a carrier-grade NAT address';
const UNSPECIFIED = 'an unspecified address';
const MULTICAST = 'a multicast address';
const BROADCAST = 'a broadcast address';
const RESERVED = 'a reserved address';
const DOCUMENTATION = 'a documentation address';
const BENCHMARKING = 'a benchmarking address';
const SPECIAL = 'a special-purpose address';

/** IANA's IPv4 special-purpose ranges, first match wins (the broadcast address sits inside 240/4). */
const REFUSED_V4: ReadonlyArray<readonly [[Address, number], string]> = [
  [cidr('0.0.0.0/8'), UNSPECIFIED],
  [cidr('10.0.0.0/8'), PRIVATE],
  [cidr('100.64.0.0/10'), SHARED],
  [cidr('127.0.0.0/8'), LOOPBACK],
  [cidr('169.254.0.0/16'), LINK_LOCAL],
  [cidr('172.16.0.0/12'), PRIVATE],
  [cidr('192.0.0.0/24'), SPECIAL],
  [cidr('192.0.2.0/24'), DOCUMENTATION],
  [cidr('192.31.196.0/24'), SPECIAL],
  [cidr('192.52.193.0/24'), SPECIAL],
  [cidr('192.88.99.0/24'), SPECIAL],
  [cidr('192.168.0.0/16'), PRIVATE],
  [cidr('192.175.48.0/24'), SPECIAL],
  [cidr('198.18.0.0/15'), BENCHMARKING],
  [cidr('198.51.100.0/24'), DOCUMENTATION],
  [cidr('203.0.113.0/24'), DOCUMENTATION],
  [cidr('224.0.0.0/4'), MULTICAST],
  [cidr('255.255.255.255/32'), BROADCAST],
  [cidr('240.0.0.0/4'), RESERVED],
];

/** IPv6 forms whose last 32 bits (or, for 6to4, bits 16 to 48) are an IPv4 address that decides. */
const CARRIES_V4: ReadonlyArray<readonly [[Address, number], (parts: number[]) => [number, number]]> = [
  [cidr('::ffff:0:0/96'), (parts) => [parts[6]!, parts[7]!]],
  [cidr('::ffff:0:0:0/96'), (parts) => [parts[6]!, parts[7]!]],
  [cidr('64:ff9b::/96'), (parts) => [parts[6]!, parts[7]!]],
  [cidr('2002::/16'), (parts) => [parts[1]!, parts[2]!]],
];

/** IPv6 special-purpose ranges; anything outside global unicast (2000::/3) is reserved besides. */
const REFUSED_V6: ReadonlyArray<readonly [[Address, number], string]> = [
  [cidr('::/128'), UNSPECIFIED],
  [cidr('::1/128'), LOOPBACK],
  [cidr('2001::/23'), SPECIAL],
  [cidr('2001:db8::/32'), DOCUMENTATION],
  [cidr('3fff::/20'), DOCUMENTATION],
  [cidr('5f00::/16'), SPECIAL],
  [cidr('fc00::/7'), PRIVATE],
  [cidr('fe80::/10'), LINK_LOCAL],
  [cidr('fec0::/10'), PRIVATE],
  [cidr('ff00::/8'), MULTICAST],
];
const GLOBAL_UNICAST_V6 = cidr('2000::/3');

const within = (address: Address, [network, bits]: [Address, number]): boolean =>
  address.kind() === network.kind() && address.match(network, bits);

/**
 * The address a host spelling denotes, or null for a name: dotted, octal, hex and shortened IPv4 forms, IPv6
 * with or without brackets (an IPv4-mapped one as its IPv4 address).
 */
export function addressOf(host: string): Address | null {
  // A trailing dot makes no name of an IPv4 address (`127.0.0.1.`): it is judged as the address.
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host.replace(/^([0-9a-fx.]+)\.$/i, '$1');
  if (!ipaddr.isValid(bare)) return null;
  const address = ipaddr.parse(bare);
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** Why an address may not be reached by default (its class, with an article), or null for a public one. */
export function refusedClassOf(address: Address): string | null {
  if (address instanceof ipaddr.IPv4) return REFUSED_V4.find(([range]) => within(address, range))?.[1] ?? null;
  for (const [range, carried] of CARRIES_V4) {
    if (!within(address, range)) continue;
    const [high, low] = carried(address.parts);
    return refusedClassOf(new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]));
  }
  const special = REFUSED_V6.find(([range]) => within(address, range))?.[1];
  if (special) return special;
  return within(address, GLOBAL_UNICAST_V6) ? null : RESERVED;
}

/** A host name as compared: lower case, without the root's trailing dot. */
const normalName = (host: string): string => host.toLowerCase().replace(/\.$/, '');

const isLocalhostName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');

interface Allowlist {
  names: ReadonlySet<string>;
  ranges: ReadonlyArray<[Address, number]>;
}

/**
 * HEDGEROW_DESTINATION_ALLOWLIST's entries: an address, a CIDR range, or a host name (admitted whatever it
 * resolves to). Throws on an entry that is none of these, so that a typo stops the server instead of refusing
 * quietly.
 */
export function parseAllowlist(entries: readonly string[]): Allowlist {
  const names = new Set<string>();
  const ranges: Array<[Address, number]> = [];
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    if (entry.includes('/')) {
      let range: [Address, number];
      try {
        range = ipaddr.parseCIDR(entry);
      } catch {
        throw new Error(`HEDGEROW_DESTINATION_ALLOWLIST: "${entry}" is not a CIDR range`);
      }
      const [network, bits] = range;
      // An IPv4-mapped range is the IPv4 range it maps: addresses are compared in their IPv4 form.
      if (network instanceof ipaddr.IPv6 && network.isIPv4MappedAddress() && bits >= 96) ranges.push([network.toIPv4Address(), bits - 96]);
      else ranges.push(range);
      continue;
    }
    const address = addressOf(entry);
    if (address) {
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      continue;
    }
    if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?$/i.test(entry)) {
      throw new Error(`HEDGEROW_DESTINATION_ALLOWLIST: "${entry}" is not a host name, an address or a CIDR range`);
    }
    names.add(normalName(entry));
  }
  return { names, ranges };
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface AddressPolicyOptions {
  /** HEDGEROW_DESTINATION_ALLOWLIST's entries. */
  allowlist?: readonly string[];
  resolve?: HostResolver;
  /** How long a write waits for a name to resolve before it takes it on trust (the run checks again). */
  writeResolveTimeoutMs?: number;
}

const refusal = (host: string, verb: 'is' | 'resolves to', what: string) =>
  new DestinationAddressError(
    `The destination address is not allowed: ${host} ${verb} ${what}. Destinations may reach public addresses only, unless the server's operator allows others.`,
  );

export class AddressPolicy {
  private readonly allowlist: Allowlist;
  private readonly resolver: HostResolver;
  private readonly writeResolveTimeoutMs: number;

  constructor(options: AddressPolicyOptions = {}) {
    this.allowlist = parseAllowlist(options.allowlist ?? []);
    this.resolver = options.resolve ?? systemResolver;
    this.writeResolveTimeoutMs = options.writeResolveTimeoutMs ?? 3_000;
  }

  private allowsName(host: string): boolean {
    return this.allowlist.names.has(normalName(host));
  }

  /** Throws when `address` (what `host` is or resolves to) may not be reached. */
  private check(host: string, address: Address, verb: 'is' | 'resolves to'): void {
    const refused = refusedClassOf(address);
    if (refused === null) return;
    if (this.allowlist.ranges.some((range) => within(address, range))) return;
    throw refusal(host, verb, refused);
  }

  /**
   * For a host that is an address: throws when it may not be reached, and answers it. Null for a name, which
   * only its resolution can judge. No resolution happens here, so this may run where nothing can wait.
   */
  checkLiteral(host: string): ResolvedAddress | null {
    const address = addressOf(host);
    if (!address) return null;
    this.check(host, address, 'is');
    return { address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
  }

  /**
   * The addresses a run may connect to for `host`, every one of them checked: a name resolving to any refused
   * address is refused as a whole. A name on the allowlist is taken as it resolves. Rejects with the resolver's
   * error when the name does not resolve.
   */
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const literal = this.checkLiteral(host);
    if (literal) return [literal];
    const answers = await this.resolver(host);
    const named = this.allowsName(host);
    return answers.map((answer) => {
      const address = addressOf(answer);
      if (!address) throw new DestinationAddressError(`The destination address is not allowed: ${host} did not resolve to an address`);
      if (!named) this.check(host, address, 'resolves to');
      return { address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
    });
  }

  /**
   * The check when an export is written. A name that does not resolve now (or not in time) is accepted: it may
   * be a name only the export workers' network knows, and every run checks what it resolves to then. Names
   * under `localhost` are loopback whatever the resolver says (RFC 6761).
   */
  async checkForWrite(host: string): Promise<void> {
    if (this.checkLiteral(host) || this.allowsName(host)) return;
    let answers: string[] | null;
    try {
      answers = await withTimeout(this.resolver(host), this.writeResolveTimeoutMs);
    } catch {
      answers = null;
    }
    if (isLocalhostName(normalName(host))) answers = [...(answers ?? []), '127.0.0.1'];
    for (const answer of answers ?? []) {
      const address = addressOf(answer);
      if (address) this.check(host, address, 'resolves to');
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A Postgres host must be one host: node-postgres takes a host starting with `/` for a unix socket directory
 * (the server's own database is one), and libpq reads commas as a list of hosts. Refused whatever the allowlist
 * says. And it must be a host name or an address as it stands: a `:port` suffix, a `%zone`, empty labels,
 * backslashes or control characters are no host, and are refused when written rather than failing every run as a
 * name not found.
 */
export function checkPostgresHostSpelling(host: string): void {
  if (host.includes('/') || host.includes(',') || host.includes('@') || /\s/.test(host) || host === '') {
    throw new DestinationAddressError(
      'The destination address is not allowed: a Postgres host must be one host name or address, not a socket path or a list of hosts.',
    );
  }
  if (!isHostNameOrAddress(host)) {
    throw new DestinationAddressError(
      "The destination address is not allowed: a Postgres host must be a host name or an address, without a port, a zone or other characters (the port goes in 'port').",
    );
  }
}

/** A host name of non-empty labels (one trailing dot allowed), or an address; an IPv6 one bare or in brackets. */
function isHostNameOrAddress(host: string): boolean {
  if (/[\u0000-\u001f\u007f%\\]/.test(host)) return false;
  if (host.includes(':') || host.startsWith('[') || host.endsWith(']')) {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    return isIPv6(bare);
  }
  return host
    .replace(/\.$/, '')
    .split('.')
    .every((label) => /^[\p{L}\p{N}_-]+$/u.test(label));
}
