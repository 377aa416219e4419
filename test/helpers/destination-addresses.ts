/**
 * What test destinations may reach: they all listen on loopback (s3rver, HTTP receivers, other databases of the
 * test cluster), which the address policy refuses unless allowed, as an operator allows an internal warehouse.
 */
import { AddressPolicy, type HostResolver } from '../../db/destinations/address-policy.js';

export const LOOPBACK_ALLOWLIST: readonly string[] = ['127.0.0.0/8', '::1'];


export interface FakeResolver extends HostResolver {
  /** The names asked, in order. */
  asked: string[];
}

/** A resolver that answers the names given and fails every other as the system's does (ENOTFOUND). */
export function fakeResolver(answers: Record<string, readonly string[]>): FakeResolver {
  const asked: string[] = [];
  const resolve = (async (host: string) => {
    asked.push(host);
    const found = answers[host.toLowerCase().replace(/\.$/, '')];
    if (found) return [...found];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }) as FakeResolver;
  resolve.asked = asked;
  return resolve;
}

/**
 * What tests resolve names with unless they say otherwise: `localhost` only, as /etc/hosts has it. Tests never
 * ask the machine's DNS (its server is not on loopback), so names in tests are answered here or not at all.
 */
export function offlineResolver(): FakeResolver {
  return fakeResolver({ localhost: ['127.0.0.1'] });
}

/** The policy the destination tests run with: public addresses and loopback, names resolved offline. */
export const loopbackAddresses = new AddressPolicy({ allowlist: LOOPBACK_ALLOWLIST, resolve: offlineResolver() });
