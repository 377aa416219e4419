import { expect } from 'chai';
import { planGroups } from '../../handlers/capture/groups.js';
import { applyPersonUpdate, isIllegalMergeId, planPersons, referencedDistinctIds } from '../../handlers/capture/persons.js';
import type { StoredDistinctId } from '../../db/queries/ingestion-types.js';
import type { EventEffects } from '../../handlers/capture/types.js';

const TEAM = 7;
const AT = new Date('2026-11-21T10:00:00.000Z');

/** An event's effects, as normalise.ts makes them. */
function ev(distinctId: string, overrides: Partial<EventEffects> = {}): { teamId: number; event: EventEffects } {
  return {
    teamId: TEAM,
    event: {
      uuid: `0190f1c4-0000-7000-8000-${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`,
      clientUuid: true,
      event: 'e',
      distinctId,
      timestamp: AT,
      elementsChain: '',
      historicalMigration: false,
      processPerson: true,
      personUpdate: null,
      identify: null,
      alias: null,
      groupIdentify: null,
      groups: [],
      ...overrides,
    },
  };
}

function stored(distinctId: string, person: { id: string; uuid: string; properties?: Record<string, unknown>; isIdentified?: boolean }): StoredDistinctId {
  return {
    teamId: TEAM,
    distinctId,
    person: { properties: {}, isIdentified: false, createdAt: new Date('2026-01-01T00:00:00Z'), ...person },
  };
}

/** Deterministic uuids for new persons: new-1, new-2, … */
function uuids(): () => string {
  let n = 0;
  return () => `new-${++n}`;
}

const set = (values: Record<string, unknown>) => ({ set: values, setOnce: {}, unset: [] });

describe('person planning (handlers/capture/persons.ts)', () => {
  it("gives each event its person's properties as they are once that event is processed", () => {
    const plan = planPersons(
      [
        ev('u1', { personUpdate: set({ plan: 'free' }) }),
        ev('u1', { personUpdate: set({ plan: 'pro' }) }),
        ev('u1'),
        ev('u1', { processPerson: false }),
        ev('anon'),
        // The merge gives the surviving person the other one's properties it lacks, from this event on.
        ev('u1', { alias: 'anon', personUpdate: set({ seen: true }) }),
      ],
      [stored('anon', { id: '9', uuid: 'anon-person', properties: { referrer: 'ad', plan: 'none' } })],
      uuids(),
    );
    expect(plan.eventPersonProperties.map((text) => (text === null ? null : JSON.parse(text)))).to.deep.equal([
      { plan: 'free' },
      { plan: 'pro' },
      { plan: 'pro' },
      null,
      { referrer: 'ad', plan: 'none' },
      { referrer: 'ad', plan: 'pro', seen: true },
    ]);
  });

  it('creates one person for the events of a new distinct id, applying $set in event order', () => {
    const plan = planPersons(
      [ev('u1', { personUpdate: set({ plan: 'free' }) }), ev('u1', { personUpdate: set({ plan: 'pro' }) }), ev('u1')],
      [],
      uuids(),
    );
    expect(plan.created).to.deep.equal([{ uuid: 'new-1', teamId: TEAM, properties: { plan: 'pro' }, isIdentified: false, createdAt: AT }]);
    expect(plan.links).to.deep.equal([{ teamId: TEAM, distinctId: 'u1', personUuid: 'new-1' }]);
    expect(plan.eventPersons).to.deep.equal(['new-1', 'new-1', 'new-1']);
    expect(plan.updated).to.deep.equal([]);
  });

  it('updates an existing person only when its properties change', () => {
    const existing = [stored('u1', { id: '10', uuid: 'p-10', properties: { plan: 'free', keep: 1 } })];
    expect(planPersons([ev('u1', { personUpdate: set({ plan: 'free' }) })], existing, uuids()).updated).to.deep.equal([]);
    const plan = planPersons(
      [ev('u1', { personUpdate: { set: { plan: 'pro' }, setOnce: { keep: 2, first: 'x' }, unset: ['missing'] } })],
      existing,
      uuids(),
    );
    expect(plan.updated).to.deep.equal([{ id: '10', properties: { plan: 'pro', keep: 1, first: 'x' }, isIdentified: false }]);
    expect(plan.eventPersons).to.deep.equal(['p-10']);
  });

  it('applies $set_once, then $set, then $unset', () => {
    const properties: Record<string, unknown> = { a: 1, gone: true };
    applyPersonUpdate(properties, { set: { a: 2, b: 2 }, setOnce: { a: 3, c: 3 }, unset: ['gone'] });
    expect(properties).to.deep.equal({ a: 2, b: 2, c: 3 });
  });

  it('sets, keeps and unsets properties named like Object.prototype’s, __proto__ included', () => {
    // Parsed from text, as a client's JSON is: an own property named __proto__, not a prototype.
    const update = JSON.parse('{"set":{"__proto__":{"email":"proto@x"},"toString":"t"},"setOnce":{"constructor":"c"},"unset":[]}');
    const properties: Record<string, unknown> = {};
    expect(applyPersonUpdate(properties, update)).to.equal(true);
    expect(JSON.stringify(properties)).to.equal('{"constructor":"c","__proto__":{"email":"proto@x"},"toString":"t"}');
    expect(Object.getPrototypeOf(properties)).to.equal(Object.prototype);
    applyPersonUpdate(properties, JSON.parse('{"set":{},"setOnce":{"email":"real@x","constructor":"ignored"},"unset":["toString","hasOwnProperty"]}'));
    expect(JSON.stringify(properties)).to.equal('{"constructor":"c","__proto__":{"email":"proto@x"},"email":"real@x"}');
  });

  describe('who becomes identified (as in PostHog: an alias or anonymous id naming a second legal id)', () => {
    const cases: Array<[name: string, event: Parameters<typeof ev>[1], identified: boolean]> = [
      ['an $identify with an anonymous id', { event: '$identify', identify: { anonDistinctId: 'anon' } }, true],
      ['an $identify without one (posthog-node)', { event: '$identify', identify: { anonDistinctId: null } }, false],
      ['an $identify whose anonymous id is its distinct id', { event: '$identify', identify: { anonDistinctId: 'u1' } }, false],
      ['an $identify whose anonymous id is illegal', { event: '$identify', identify: { anonDistinctId: 'null' } }, false],
      ['an alias', { event: '$create_alias', alias: 'other' }, true],
      ['an alias to itself', { event: '$create_alias', alias: 'u1' }, false],
    ];
    for (const [name, event, identified] of cases) {
      it(`${identified ? 'marks' : 'does not mark'} the person of ${name}`, () => {
        const plan = planPersons([ev('u1', event)], [stored('u1', { id: '1', uuid: 'p-1' })], uuids());
        expect(plan.updated.map((person) => person.isIdentified)).to.deep.equal(identified ? [true] : []);
      });
    }

    it('marks the person even when an identified anonymous person is not merged into it', () => {
      const plan = planPersons(
        [ev('u1', { event: '$identify', identify: { anonDistinctId: 'anon' } })],
        [stored('u1', { id: '1', uuid: 'p-1' }), stored('anon', { id: '2', uuid: 'p-2', isIdentified: true })],
        uuids(),
      );
      expect([plan.merges, plan.updated, plan.warnings.map((w) => w.type)]).to.deep.equal([
        [],
        [{ id: '1', properties: {}, isIdentified: true }],
        ['cannot_merge_already_identified'],
      ]);
    });
  });

  describe('$create_alias', () => {
    it('makes a new alias another distinct id of the existing person', () => {
      const plan = planPersons([ev('u1', { alias: 'anon' })], [stored('u1', { id: '1', uuid: 'p-1' })], uuids());
      expect(plan.links).to.deep.equal([{ teamId: TEAM, distinctId: 'anon', personUuid: 'p-1' }]);
      expect(plan.created).to.deep.equal([]);
      expect(plan.merges).to.deep.equal([]);
    });

    it('makes a new distinct id another id of the alias’s existing person', () => {
      const plan = planPersons([ev('u1', { alias: 'anon' })], [stored('anon', { id: '2', uuid: 'p-2' })], uuids());
      expect(plan.links).to.deep.equal([{ teamId: TEAM, distinctId: 'u1', personUuid: 'p-2' }]);
      expect(plan.eventPersons).to.deep.equal(['p-2']);
    });

    it('creates one person for two new ids', () => {
      const plan = planPersons([ev('u1', { alias: 'anon' })], [], uuids());
      expect(plan.created.map((p) => [p.uuid, p.isIdentified])).to.deep.equal([['new-1', true]]);
      expect(plan.links.map((l) => [l.distinctId, l.personUuid])).to.deep.equal([
        ['u1', 'new-1'],
        ['anon', 'new-1'],
      ]);
    });

    it('merges the alias’s person into the person of distinct_id, that person’s values winning', () => {
      const plan = planPersons(
        [ev('u1', { alias: 'anon' }), ev('anon')],
        [
          stored('u1', { id: '1', uuid: 'p-1', properties: { email: 'a@b.c', plan: 'pro' }, isIdentified: true }),
          stored('anon', { id: '2', uuid: 'p-2', properties: { plan: 'free', referrer: 'ad' } }),
        ],
        uuids(),
      );
      expect(plan.merges).to.deep.equal([{ teamId: TEAM, sourceId: '2', targetUuid: 'p-1' }]);
      expect(plan.updated).to.deep.equal([{ id: '1', properties: { plan: 'pro', referrer: 'ad', email: 'a@b.c' }, isIdentified: true }]);
      expect(plan.eventPersons).to.deep.equal(['p-1', 'p-1']);
      expect(plan.links).to.deep.equal([]);
    });

    it('merges even an identified person (alias is explicit), but never on an id SDK bugs send', () => {
      const both = [stored('u1', { id: '1', uuid: 'p-1' }), stored('u2', { id: '2', uuid: 'p-2', isIdentified: true })];
      expect(planPersons([ev('u1', { alias: 'u2' })], both, uuids()).merges).to.have.length(1);
      const refused = planPersons([ev('u1', { alias: 'null' })], [], uuids());
      expect(refused.warnings.map((w) => w.type)).to.deep.equal(['cannot_merge_with_illegal_distinct_id']);
      expect(refused.links.map((l) => l.distinctId)).to.deep.equal(['u1']);
    });

    it('follows a chain of merges to the person that survives', () => {
      const plan = planPersons(
        [ev('b', { alias: 'a' }), ev('c', { alias: 'b' })],
        [stored('a', { id: '1', uuid: 'p-1' }), stored('b', { id: '2', uuid: 'p-2' }), stored('c', { id: '3', uuid: 'p-3' })],
        uuids(),
      );
      expect(plan.merges).to.deep.equal([
        { teamId: TEAM, sourceId: '1', targetUuid: 'p-3' },
        { teamId: TEAM, sourceId: '2', targetUuid: 'p-3' },
      ]);
      expect(plan.eventPersons).to.deep.equal(['p-3', 'p-3']);
      expect(plan.distinctIdPersons.sort()).to.deep.equal([
        ['a', 'p-3'],
        ['b', 'p-3'],
        ['c', 'p-3'],
      ]);
    });
  });

  describe('$identify with $anon_distinct_id', () => {
    it('merges the anonymous person into the identified one', () => {
      const plan = planPersons(
        [ev('user', { event: '$identify', identify: { anonDistinctId: 'anon' } })],
        [stored('user', { id: '1', uuid: 'p-1', isIdentified: true }), stored('anon', { id: '2', uuid: 'p-2' })],
        uuids(),
      );
      expect(plan.merges).to.deep.equal([{ teamId: TEAM, sourceId: '2', targetUuid: 'p-1' }]);
    });

    it('does not merge an anonymous person that is already identified', () => {
      const plan = planPersons(
        [ev('user', { event: '$identify', identify: { anonDistinctId: 'other' } })],
        [stored('user', { id: '1', uuid: 'p-1' }), stored('other', { id: '2', uuid: 'p-2', isIdentified: true })],
        uuids(),
      );
      expect(plan.merges).to.deep.equal([]);
      expect(plan.warnings.map((w) => w.type)).to.deep.equal(['cannot_merge_already_identified']);
    });

    it('links a new identified id to the anonymous person', () => {
      const plan = planPersons(
        [ev('user', { event: '$identify', identify: { anonDistinctId: 'anon' } })],
        [stored('anon', { id: '2', uuid: 'p-2' })],
        uuids(),
      );
      expect(plan.links).to.deep.equal([{ teamId: TEAM, distinctId: 'user', personUuid: 'p-2' }]);
      expect(plan.updated).to.deep.equal([{ id: '2', properties: {}, isIdentified: true }]);
    });
  });

  it('creates no person for personless events and $groupidentify, and stores personless events without one', () => {
    const plan = planPersons(
      [
        ev('anon', { processPerson: false }),
        ev('$company_acme', { event: '$groupidentify', groupIdentify: { type: 'company', key: 'acme', set: {} } }),
      ],
      [],
      uuids(),
    );
    expect([plan.created, plan.links, plan.eventPersons]).to.deep.equal([[], [], [null, null]]);
    expect(referencedDistinctIds([ev('anon', { processPerson: false }).event, ev('u', { alias: 'a' }).event])).to.deep.equal(['u', 'a']);
  });

  const illegal: Array<[string, boolean]> = [
    ['anonymous', true],
    ['Guest', true],
    ['null', true],
    ['0', true],
    ['[object Object]', true],
    ['  ', true],
    ['user-1', false],
    ['Null-ish', false],
  ];
  for (const [id, want] of illegal) {
    it(`${want ? 'never merges on' : 'may merge on'} ${JSON.stringify(id)}`, () => expect(isIllegalMergeId(id)).to.equal(want));
  }
});

describe('group planning (handlers/capture/groups.ts)', () => {
  it('numbers new group types in order of appearance, after the known ones', () => {
    const known = new Map([[TEAM, new Map([['company', 0]])]]);
    const plan = planGroups(
      [ev('u', { groups: [['company', 'acme'], ['team', 't1']] }), ev('u', { groups: [['project', 'p1']] })],
      known,
    );
    expect(plan.newTypes).to.deep.equal([
      { teamId: TEAM, type: 'team', index: 1 },
      { teamId: TEAM, type: 'project', index: 2 },
    ]);
    expect(plan.eventGroups).to.deep.equal([
      ['acme', 't1', null, null, null],
      [null, null, 'p1', null, null],
    ]);
    expect(known.get(TEAM)!.size).to.equal(1); // the caller's map is left as it was
  });

  it('refuses a sixth group type with one warning', () => {
    const known = new Map([[TEAM, new Map(['a', 'b', 'c', 'd', 'e'].map((type, index) => [type, index]))]]);
    const plan = planGroups([ev('u', { groups: [['f', '1']] }), ev('u', { groups: [['f', '2']] })], known);
    expect(plan.newTypes).to.deep.equal([]);
    expect(plan.warnings.map((w) => w.type)).to.deep.equal(['group_type_limit_reached']);
    expect(plan.eventGroups[0]).to.deep.equal([null, null, null, null, null]);
  });

  it('merges the $group_set of one group in event order into one upsert; $groups alone creates none', () => {
    const plan = planGroups(
      [
        ev('$company_acme', { groupIdentify: { type: 'company', key: 'acme', set: { name: 'Acme', size: 10 } } }),
        ev('u', { groups: [['company', 'globex']] }),
        ev('$company_acme', { groupIdentify: { type: 'company', key: 'acme', set: { size: 11 } } }),
      ],
      new Map(),
    );
    expect(plan.upserts).to.deep.equal([{ teamId: TEAM, index: 0, key: 'acme', properties: { name: 'Acme', size: 11 }, createdAt: AT }]);
  });

  it('merges a $group_set holding __proto__ as a property', () => {
    const plan = planGroups(
      [
        ev('$company_acme', { groupIdentify: { type: 'company', key: 'acme', set: { name: 'Acme' } } }),
        ev('$company_acme', { groupIdentify: { type: 'company', key: 'acme', set: JSON.parse('{"__proto__":{"a":1}}') } }),
      ],
      new Map(),
    );
    expect(JSON.stringify(plan.upserts[0]!.properties)).to.equal('{"name":"Acme","__proto__":{"a":1}}');
  });
});
