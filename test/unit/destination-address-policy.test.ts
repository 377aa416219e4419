/**
 * The address policy of batch export destinations, by itself: every address class and spelling it refuses,
 * the public addresses it lets through, what the allowlist admits (exactly what it names), and the Postgres
 * host spellings it refuses whatever the allowlist says. Names resolve through a resolver the test controls.
 */
import { expect } from 'chai';
import {
  AddressPolicy,
  addressOf,
  checkPostgresHostSpelling,
  DestinationAddressError,
  parseAllowlist,
  refusedClassOf,
} from '../../db/destinations/address-policy.js';
import { sameDatabase, type DatabaseIdentity } from '../../db/destinations/postgres.js';
import { fakeResolver } from '../helpers/destination-addresses.js';

const SUFFIX = " Destinations may reach public addresses only, unless the server's operator allows others.";
const refusedMessage = (host: string, verb: string, what: string) => `The destination address is not allowed: ${host} ${verb} ${what}.${SUFFIX}`;

/** Host spellings that are addresses, and the class each is refused as. */
export const REFUSED_LITERALS: ReadonlyArray<readonly [string, string]> = [
  ['127.0.0.1', 'a loopback address'],
  ['127.1', 'a loopback address'],
  ['127.0.0.1.', 'a loopback address'],
  ['169.254.169.254.', 'a link-local address'],
  ['0x7f000001', 'a loopback address'],
  ['2130706433', 'a loopback address'],
  ['0177.0.0.1', 'a loopback address'],
  ['127.255.255.254', 'a loopback address'],
  ['::1', 'a loopback address'],
  ['[::1]', 'a loopback address'],
  ['[::ffff:127.0.0.1]', 'a loopback address'],
  ['::ffff:7f00:1', 'a loopback address'],
  ['[::ffff:0:127.0.0.1]', 'a loopback address'],
  ['10.1.2.3', 'a private address'],
  ['172.16.0.1', 'a private address'],
  ['172.31.255.255', 'a private address'],
  ['192.168.1.1', 'a private address'],
  ['[fc00::1]', 'a private address'],
  ['fd12:3456::1', 'a private address'],
  ['[64:ff9b::10.1.2.3]', 'a private address'],
  ['[2002:a01:203::1]', 'a private address'],
  ['169.254.169.254', 'a link-local address'],
  ['[::ffff:169.254.169.254]', 'a link-local address'],
  ['[fe80::1]', 'a link-local address'],
  ['100.64.0.1', 'a carrier-grade NAT address'],
  ['100.127.255.255', 'a carrier-grade NAT address'],
  ['0.0.0.0', 'an unspecified address'],
  ['0', 'an unspecified address'],
  ['0.1.2.3', 'an unspecified address'],
  ['[::]', 'an unspecified address'],
  ['224.0.0.1', 'a multicast address'],
  ['239.255.255.250', 'a multicast address'],
  ['[ff02::1]', 'a multicast address'],
  ['255.255.255.255', 'a broadcast address'],
  ['240.0.0.1', 'a reserved address'],
  ['[::a01:203]', 'a reserved address'],
  ['[4000::1]', 'a reserved address'],
  ['192.0.0.8', 'a special-purpose address'],
  ['192.88.99.1', 'a special-purpose address'],
  ['[2001::1]', 'a special-purpose address'],
  ['192.0.2.1', 'a documentation address'],
  ['198.51.100.7', 'a documentation address'],
  ['203.0.113.9', 'a documentation address'],
  ['[2001:db8::1]', 'a documentation address'],
  ['198.18.0.1', 'a benchmarking address'],
];

/** Public unicast addresses, in several spellings, and just outside the refused ranges. */
const PUBLIC_LITERALS = ['93.184.215.14', '8.8.8.8', '172.32.0.1', '100.128.0.1', '11.0.0.1', '[2a00:1450:4001::1]', '[::ffff:93.184.215.14]', '1572395790'];

describe('destination address policy', () => {
  describe('refused address classes', () => {
    for (const [spelling, what] of REFUSED_LITERALS) {
      it(`refuses ${spelling} as ${what}`, async () => {
        const policy = new AddressPolicy({ resolve: fakeResolver({}) });
        const address = addressOf(spelling);
        expect(address, spelling).to.not.equal(null);
        expect(refusedClassOf(address!)).to.equal(what);
        const message = refusedMessage(spelling, 'is', what);
        expect(() => policy.checkLiteral(spelling)).to.throw(DestinationAddressError, message);
        await expectRejection(policy.resolve(spelling), message);
        await expectRejection(policy.checkForWrite(spelling), message);
      });
    }

    for (const spelling of PUBLIC_LITERALS) {
      it(`lets the public ${spelling} through`, async () => {
        const policy = new AddressPolicy({ resolve: fakeResolver({}) });
        expect(refusedClassOf(addressOf(spelling)!)).to.equal(null);
        await policy.checkForWrite(spelling);
        expect((await policy.resolve(spelling)).length).to.equal(1);
      });
    }
  });

  describe('names', () => {
    const resolver = () =>
      fakeResolver({
        'warehouse.example.com': ['10.0.0.7'],
        'metadata.example.com': ['169.254.169.254'],
        'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
        'six.example.com': ['::1'],
        'public.example.com': ['93.184.215.14', '2a00:1450:4001::1'],
        localhost: ['127.0.0.1'],
      });

    const refusedNames: ReadonlyArray<readonly [string, string]> = [
      ['warehouse.example.com', 'a private address'],
      ['WAREHOUSE.example.com.', 'a private address'],
      ['metadata.example.com', 'a link-local address'],
      ['mixed.example.com', 'a loopback address'],
      ['six.example.com', 'a loopback address'],
      ['localhost', 'a loopback address'],
    ];
    for (const [name, what] of refusedNames) {
      it(`refuses ${name}, which resolves to ${what}, when written and when a run connects`, async () => {
        const policy = new AddressPolicy({ resolve: resolver() });
        const message = refusedMessage(name, 'resolves to', what);
        await expectRejection(policy.checkForWrite(name), message);
        await expectRejection(policy.resolve(name), message);
      });
    }

    it('takes names under localhost for loopback even when the resolver does not know them', async () => {
      const policy = new AddressPolicy({ resolve: fakeResolver({}) });
      await expectRejection(policy.checkForWrite('db.localhost'), refusedMessage('db.localhost', 'resolves to', 'a loopback address'));
    });

    it('lets a public name through, answering its addresses', async () => {
      const policy = new AddressPolicy({ resolve: resolver() });
      await policy.checkForWrite('public.example.com');
      expect(await policy.resolve('public.example.com')).to.deep.equal([
        { address: '93.184.215.14', family: 4 },
        { address: '2a00:1450:4001::1', family: 6 },
      ]);
    });

    it('accepts a name that does not resolve when written, and fails the run that cannot resolve it', async () => {
      const policy = new AddressPolicy({ resolve: fakeResolver({}) });
      await policy.checkForWrite('unknown.example.com');
      await expectRejection(policy.resolve('unknown.example.com'), 'getaddrinfo ENOTFOUND unknown.example.com');
    });

    it('accepts a name whose resolution takes too long when written', async () => {
      const policy = new AddressPolicy({ resolve: () => new Promise(() => undefined), writeResolveTimeoutMs: 20 });
      await policy.checkForWrite('slow.example.com');
    });
  });

  describe('the allowlist', () => {
    const resolve = fakeResolver({
      'warehouse.internal': ['10.9.9.9'],
      'other.internal': ['10.9.9.9'],
      'lab.internal': ['192.168.7.7'],
    });
    const policy = new AddressPolicy({ allowlist: ['10.1.2.3', ' 192.168.0.0/16', 'warehouse.internal', 'fd00::/8', '::ffff:172.20.0.0/112'], resolve });

    const admitted = ['10.1.2.3', '[::ffff:10.1.2.3]', '192.168.0.1', '192.168.255.255', 'warehouse.internal', 'WAREHOUSE.internal.', 'lab.internal', '[fd00::5]', '172.20.1.1'];
    for (const host of admitted) {
      it(`admits ${host}, which it names`, async () => {
        await policy.checkForWrite(host);
        expect((await policy.resolve(host)).length).to.equal(1);
      });
    }

    const refused: ReadonlyArray<readonly [string, string, string]> = [
      ['10.1.2.4', 'is', 'a private address'],
      ['172.16.0.1', 'is', 'a private address'],
      ['172.21.0.1', 'is', 'a private address'],
      ['127.0.0.1', 'is', 'a loopback address'],
      ['[fc00::1]', 'is', 'a private address'],
      ['169.254.169.254', 'is', 'a link-local address'],
      ['other.internal', 'resolves to', 'a private address'],
    ];
    for (const [host, verb, what] of refused) {
      it(`refuses ${host}, which it does not name`, async () => {
        await expectRejection(policy.checkForWrite(host), refusedMessage(host, verb, what));
        await expectRejection(policy.resolve(host), refusedMessage(host, verb, what));
      });
    }

    it('is empty by default: nothing but public addresses', async () => {
      await expectRejection(new AddressPolicy({ resolve }).resolve('warehouse.internal'), refusedMessage('warehouse.internal', 'resolves to', 'a private address'));
    });

    it('refuses entries that are no host name, address or range', () => {
      expect(() => parseAllowlist(['10.0.0.0/33'])).to.throw('HEDGEROW_DESTINATION_ALLOWLIST: "10.0.0.0/33" is not a CIDR range');
      expect(() => parseAllowlist(['http://x'])).to.throw('HEDGEROW_DESTINATION_ALLOWLIST: "http://x" is not a CIDR range');
      expect(() => parseAllowlist(['bad host'])).to.throw('HEDGEROW_DESTINATION_ALLOWLIST: "bad host" is not a host name, an address or a CIDR range');
      expect(parseAllowlist(['', ' '])).to.deep.equal({ names: new Set(), ranges: [] });
    });
  });

  describe('Postgres host spellings', () => {
    const message =
      'The destination address is not allowed: a Postgres host must be one host name or address, not a socket path or a list of hosts.';
    for (const host of ['/var/run/postgresql', '/tmp', 'db1.example.com,db2.example.com', '10.0.0.1,93.184.215.14', 'user@db.example.com', 'db example', '']) {
      it(`refuses ${JSON.stringify(host)} whatever the allowlist says`, () => {
        expect(() => checkPostgresHostSpelling(host)).to.throw(DestinationAddressError, message);
      });
    }

    const notAHost =
      "The destination address is not allowed: a Postgres host must be a host name or an address, without a port, a zone or other characters (the port goes in 'port').";
    const refused: ReadonlyArray<readonly [string, string]> = [
      ['127.0.0.1%lo', 'an IPv4 address with a zone'],
      ['fe80::1%eth0', 'an IPv6 address with a zone'],
      ['[fe80::1%25eth0]', 'a bracketed IPv6 address with a zone'],
      ['127.0.0.1:5433', 'an address with a port'],
      ['db.example.com:5432', 'a name with a port'],
      ['[::1]:5432', 'a bracketed IPv6 address with a port'],
      ['[::1', 'an unclosed bracket'],
      ['::1]', 'a stray bracket'],
      ['[db.example.com]', 'a name in brackets'],
      ['1:2:3', 'colons that are no IPv6 address'],
      ['localhost..', 'an empty last label'],
      ['db..example.com', 'an empty label'],
      ['.example.com', 'an empty first label'],
      ['.', 'only the root'],
      ['localhost\u0000', 'a NUL'],
      ['db\u0007.example.com', 'a control character'],
      ['db\u007f', 'DEL'],
      ['db\\example', 'a backslash'],
      ['db%2eexample.com', 'a percent sign'],
      ['db!.example.com', 'a character no host name has'],
    ];
    for (const [host, what] of refused) {
      it(`refuses ${what}: ${JSON.stringify(host)}`, () => {
        expect(() => checkPostgresHostSpelling(host)).to.throw(DestinationAddressError, notAHost);
      });
    }

    const accepted = ['db.example.com', 'db.example.com.', 'localhost', 'my_db-1.internal', '93.184.215.14', '0x7f000001', '::1', '[::1]', '2001:db8::5', '[::ffff:127.0.0.1]', 'bücher.example'];
    for (const host of accepted) {
      it(`takes ${JSON.stringify(host)} as a host (the address policy judges it)`, () => {
        expect(() => checkPostgresHostSpelling(host)).to.not.throw();
      });
    }
  });
});

describe("a destination's identity against the server's own database", () => {
  const own: DatabaseIdentity = { systemIdentifier: '7713367297749780594', startedAt: '2026-11-28 23:24:33.242022+00', databaseOid: '16384', databaseName: 'hedgerow' };
  const cases: ReadonlyArray<readonly [string, Partial<DatabaseIdentity>, boolean]> = [
    ['the same database', {}, true],
    ['the same database, its identifier hidden from the destination role (the start time decides)', { systemIdentifier: null }, true],
    ['another cluster whose database has the same oid and name', { systemIdentifier: '7713367297749780595', startedAt: '2026-11-20 10:00:00.000001+00' }, false],
    ['another cluster, identifier hidden, started at another moment', { systemIdentifier: null, startedAt: '2026-11-28 23:24:33.242023+00' }, false],
    ['another database of the same cluster', { databaseOid: '16385', databaseName: 'warehouse' }, false],
    ['a database of the same name recreated (another oid)', { databaseOid: '16999' }, false],
  ];
  for (const [name, change, same] of cases) {
    it(`${same ? 'is' : 'is not'} the server's own: ${name}`, () => {
      expect(sameDatabase(own, { ...own, ...change })).to.equal(same);
      expect(sameDatabase({ ...own, ...change }, own)).to.equal(same);
    });
  }
});

async function expectRejection(promise: Promise<unknown>, message: string): Promise<void> {
  let caught: unknown = null;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a rejection: ${message}`).to.be.instanceOf(Error);
  expect((caught as Error).message).to.equal(message);
}
