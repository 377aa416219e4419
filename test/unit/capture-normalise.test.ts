import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import { readEnvelope, tokenProblem, withPlainNumbersOutsideValues } from '../../handlers/capture/envelope.js';
import { ExactInteger, parseJson } from '../../db/core/exact-json.js';
import { jsonbText } from '../../db/core/jsonb-text.js';
import { elementsToChain, normaliseEvent, type NormaliseContext } from '../../handlers/capture/normalise.js';
import { eventTimestamp, parseTimestamp, sentAtFromQuery } from '../../handlers/capture/timestamps.js';
import type { CapturedEvent, Normalised } from '../../handlers/capture/types.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const GENERATED = '0190f1c4-0000-7000-8000-000000000000';

function context(overrides: Partial<NormaliseContext> = {}): NormaliseContext {
  return { now: NOW, sentAt: null, historicalMigration: false, engage: false, newUuid: () => GENERATED, ...overrides };
}

function ingested(outcome: Normalised): CapturedEvent {
  if (outcome.kind !== 'ingest') throw new Error(`expected the event to be ingested, it was dropped: ${outcome.reason}`);
  return outcome.event;
}

describe('capture normalisation (handlers/capture/normalise.ts)', () => {
  describe('distinct_id', () => {
    const cases: Array<{ name: string; given: Record<string, unknown>; want: string }> = [
      { name: 'a top-level string as it is', given: { distinct_id: 'user-1' }, want: 'user-1' },
      { name: 'a number as its text', given: { distinct_id: 123 }, want: '123' },
      { name: 'an object as its JSON', given: { distinct_id: { id: 1 } }, want: '{"id":1}' },
      {
        name: 'an integer beyond 2^53 as its digits',
        given: { distinct_id: new ExactInteger('12345678901234567891') },
        want: '12345678901234567891',
      },
      {
        name: 'an object holding one, as its JSON with the digits',
        given: { distinct_id: { id: new ExactInteger('-12345678901234567891') } },
        want: '{"id":-12345678901234567891}',
      },
      { name: '$distinct_id', given: { $distinct_id: 'user-2' }, want: 'user-2' },
      { name: 'properties.distinct_id when the top level has none', given: { properties: { distinct_id: 'user-3' } }, want: 'user-3' },
      {
        name: 'properties.distinct_id when the top level is null',
        given: { distinct_id: null, properties: { distinct_id: 'user-4' } },
        want: 'user-4',
      },
      { name: 'the top level before properties', given: { distinct_id: 'top', properties: { distinct_id: 'inner' } }, want: 'top' },
      { name: 'cut to 200 characters', given: { distinct_id: 'x'.repeat(250) }, want: 'x'.repeat(200) },
      { name: 'with NUL replaced', given: { distinct_id: 'a\u0000b' }, want: 'a\uFFFDb' },
      {
        name: 'cut to 200 characters, counting one outside the BMP once',
        given: { distinct_id: `${'x'.repeat(199)}😀tail` },
        want: `${'x'.repeat(199)}😀`,
      },
      { name: 'with 200 such characters kept whole', given: { distinct_id: '😀'.repeat(201) }, want: '😀'.repeat(200) },
      { name: 'a lone surrogate made whole', given: { distinct_id: 'a\ud800b' }, want: 'a\uFFFDb' },
    ];
    for (const { name, given, want } of cases) {
      it(`takes ${name}`, () => {
        expect(ingested(normaliseEvent({ event: 'e', ...given }, context())).distinctId).to.equal(want);
      });
    }
  });

  describe('events answered 200 but not ingested', () => {
    const cases: Array<{ name: string; given: Record<string, unknown>; reason: string }> = [
      { name: 'no name', given: { distinct_id: 'u' }, reason: 'missing_event_name' },
      { name: 'a null name', given: { event: null, distinct_id: 'u' }, reason: 'missing_event_name' },
      { name: 'an empty name', given: { event: '', distinct_id: 'u' }, reason: 'missing_event_name' },
      { name: 'no distinct_id', given: { event: 'e' }, reason: 'missing_distinct_id' },
      { name: 'a null distinct_id', given: { event: 'e', distinct_id: null }, reason: 'missing_distinct_id' },
      { name: 'an empty distinct_id', given: { event: 'e', distinct_id: '' }, reason: 'empty_distinct_id' },
      { name: 'a survey without $survey_id', given: { event: 'survey sent', distinct_id: 'u' }, reason: 'survey_missing_survey_id' },
      {
        name: 'a survey with an empty $survey_id',
        given: { event: 'survey shown', distinct_id: 'u', properties: { $survey_id: '' } },
        reason: 'survey_missing_survey_id',
      },
      {
        name: 'a personless $identify',
        given: { event: '$identify', distinct_id: 'u', properties: { $process_person_profile: false } },
        reason: 'invalid_event_when_process_person_profile_is_false',
      },
      {
        name: 'a personless $create_alias',
        given: { event: '$create_alias', distinct_id: 'u', properties: { alias: 'a', $process_person_profile: false } },
        reason: 'invalid_event_when_process_person_profile_is_false',
      },
      {
        name: 'a personless $groupidentify',
        given: { event: '$groupidentify', distinct_id: 'u', properties: { $process_person_profile: false } },
        reason: 'invalid_event_when_process_person_profile_is_false',
      },
    ];
    for (const { name, given, reason } of cases) {
      it(`drops ${name} (${reason}) with a warning of that type`, () => {
        const outcome = normaliseEvent(given, context());
        expect(outcome.kind).to.equal('drop');
        if (outcome.kind !== 'drop') return;
        expect(outcome.reason).to.equal(reason);
        expect(outcome.warnings.map((warning) => warning.type)).to.deep.equal([reason]);
      });
    }

    it('keeps a survey event that has its $survey_id, with its responses', () => {
      const event = ingested(
        normaliseEvent(
          {
            event: 'survey sent',
            distinct_id: 'u',
            properties: { $survey_id: 's1', $survey_response_q1: 'yes', $survey_questions: [{ id: 'q1', question: 'Ok?' }] },
          },
          context(),
        ),
      );
      expect(event.properties).to.deep.equal({
        $survey_id: 's1',
        $survey_response_q1: 'yes',
        $survey_questions: [{ id: 'q1', question: 'Ok?' }],
      });
    });
  });

  describe('uuid', () => {
    it('keeps the client’s uuid, lower-cased', () => {
      const event = ingested(normaliseEvent({ event: 'e', distinct_id: 'u', uuid: '0190F1C4-AAAA-7BBB-8CCC-DDDDDDDDDDDD' }, context()));
      expect([event.uuid, event.clientUuid]).to.deep.equal(['0190f1c4-aaaa-7bbb-8ccc-dddddddddddd', true]);
    });
    for (const given of [undefined, '', null]) {
      it(`generates one when it is ${JSON.stringify(given)}`, () => {
        const event = ingested(normaliseEvent({ event: 'e', distinct_id: 'u', uuid: given }, context()));
        expect([event.uuid, event.clientUuid]).to.deep.equal([GENERATED, false]);
      });
    }
  });

  describe('timestamp', () => {
    const sentAt = new Date('2026-11-21T09:00:10.000Z');
    const cases: Array<{ name: string; given: Record<string, unknown>; context?: Partial<NormaliseContext>; want: string; warning?: string }> = [
      { name: 'none: the time it arrived', given: {}, want: '2026-11-21T12:00:00.000Z' },
      { name: 'a timestamp without sent_at: as it is', given: { timestamp: '2026-11-20T08:00:00Z' }, want: '2026-11-20T08:00:00.000Z' },
      {
        name: 'with sent_at: shifted by the client’s clock skew',
        given: { timestamp: '2026-11-21T09:00:00.000Z' },
        context: { sentAt },
        want: '2026-11-21T11:59:50.000Z',
      },
      {
        name: 'with sent_at and $ignore_sent_at: as it is',
        given: { timestamp: '2026-11-21T09:00:00.000Z', properties: { $ignore_sent_at: true } },
        context: { sentAt },
        want: '2026-11-21T09:00:00.000Z',
      },
      { name: 'offset: that many ms before arrival', given: { offset: 1500, timestamp: '2020-01-01T00:00:00Z' }, want: '2026-11-21T11:59:58.500Z' },
      {
        name: 'more than 23 hours ahead: the time it arrived',
        given: { timestamp: '2026-11-22T12:00:00Z' },
        want: '2026-11-21T12:00:00.000Z',
        warning: 'event_timestamp_in_future',
      },
      { name: '22 hours ahead: as it is', given: { timestamp: '2026-11-22T10:00:00Z' }, want: '2026-11-22T10:00:00.000Z' },
      {
        name: 'unreadable: the time it arrived',
        given: { timestamp: 'yesterday-ish' },
        want: '2026-11-21T12:00:00.000Z',
        warning: 'ignored_invalid_timestamp',
      },
    ];
    for (const { name, given, context: overrides, want, warning } of cases) {
      it(`reads ${name}`, () => {
        const outcome = normaliseEvent({ event: 'e', distinct_id: 'u', ...given }, context(overrides));
        expect(ingested(outcome).timestamp.toISOString()).to.equal(want);
        expect(outcome.warnings.map((w) => w.type)).to.deep.equal(warning ? [warning] : []);
      });
    }

    const formats: Array<{ given: unknown; want: string | null }> = [
      { given: '2026-11-21T10:00:00Z', want: '2026-11-21T10:00:00.000Z' },
      { given: '2026-11-21T10:00:00.123456Z', want: '2026-11-21T10:00:00.123Z' },
      { given: '2026-11-21T10:00:00+02:00', want: '2026-11-21T08:00:00.000Z' },
      { given: '2026-11-21T10:00:00+02', want: '2026-11-21T08:00:00.000Z' },
      { given: '2026-11-21T10:00:00-0130', want: '2026-11-21T11:30:00.000Z' },
      { given: '2026-11-21 10:00:00', want: '2026-11-21T10:00:00.000Z' },
      { given: '2026-11-21T10:00:00', want: '2026-11-21T10:00:00.000Z' },
      { given: '2026-11-21', want: '2026-11-21T00:00:00.000Z' },
      { given: 'Sat, 21 Nov 2026 10:00:00 +0000', want: '2026-11-21T10:00:00.000Z' },
      { given: '1795255200', want: '2026-11-21T10:00:00.000Z' },
      { given: '1795255200000', want: '2026-11-21T10:00:00.000Z' },
      { given: 1795255200, want: '2026-11-21T10:00:00.000Z' },
      { given: '2026-02-30T10:00:00Z', want: null },
      { given: '2026/11/21', want: null },
      { given: 'soon', want: null },
      { given: '', want: null },
      { given: true, want: null },
    ];
    for (const { given, want } of formats) {
      it(`parses ${JSON.stringify(given)} as ${want ?? 'nothing'}`, () => {
        expect(parseTimestamp(given)?.toISOString() ?? null).to.equal(want);
      });
    }

    it('takes the `_` query parameter as sent_at only when it is milliseconds after 2021', () => {
      expect(sentAtFromQuery('1763719200000')?.toISOString()).to.equal('2025-11-21T10:00:00.000Z');
      expect(sentAtFromQuery(1763719200000)?.toISOString()).to.equal('2025-11-21T10:00:00.000Z');
      expect(sentAtFromQuery('1763719200')).to.equal(null);
      expect(sentAtFromQuery('soon')).to.equal(null);
      expect(sentAtFromQuery(undefined)).to.equal(null);
    });

    it('takes no sent_at from a `_` beyond the range of dates (8.64e15 ms)', () => {
      expect(sentAtFromQuery('8640000000000000')?.toISOString()).to.equal('+275760-09-13T00:00:00.000Z');
      expect(sentAtFromQuery('8640000000000001')).to.equal(null);
      expect(sentAtFromQuery('99999999999999999999999')).to.equal(null);
    });

    it('turns a year outside 0-9999 into the Unix epoch, after the future clamp', () => {
      const { timestamp } = eventTimestamp({ timestamp: '-001000-01-01T00:00:00Z', offset: undefined, sentAt: null, now: NOW, ignoreSentAt: false });
      expect(timestamp.getTime()).to.equal(0);
      const far = eventTimestamp({ timestamp: undefined, offset: -1e15, sentAt: null, now: NOW, ignoreSentAt: false });
      expect(far.timestamp.toISOString()).to.equal(NOW.toISOString());
      const ancient = eventTimestamp({ timestamp: undefined, offset: 1e14, sentAt: null, now: NOW, ignoreSentAt: false });
      expect(ancient.timestamp.getTime()).to.equal(0);
    });

    it('clamps an offset beyond the range of dates in the future to the time it arrived, with a warning', () => {
      const { timestamp, warnings } = eventTimestamp({ timestamp: undefined, offset: -1e20, sentAt: null, now: NOW, ignoreSentAt: false });
      expect(timestamp.toISOString()).to.equal(NOW.toISOString());
      expect(warnings).to.deep.equal([
        { type: 'event_timestamp_in_future', details: { timestamp: null, sentAt: null, offset: -1e20, result: null } },
      ]);
    });
  });

  describe('person properties and $process_person_profile', () => {
    it('merges top-level $set and $set_once into properties, the top level winning', () => {
      const event = ingested(
        normaliseEvent(
          {
            event: '$identify',
            distinct_id: 'u',
            $set: { email: 'top@example.com' },
            $set_once: { first: 'top' },
            properties: { $set: { email: 'inner@example.com', plan: 'pro' }, $unset: ['old'] },
          },
          context(),
        ),
      );
      expect(event.personUpdate).to.deep.equal({
        set: { email: 'top@example.com', plan: 'pro' },
        setOnce: { first: 'top' },
        unset: ['old'],
      });
      expect(event.properties.$set).to.deep.equal({ email: 'top@example.com', plan: 'pro' });
      expect(event.identify).to.deep.equal({ anonDistinctId: null });
    });

    it('makes a $process_person_profile: false event personless and strips its person properties', () => {
      const event = ingested(
        normaliseEvent({ event: 'e', distinct_id: 'u', properties: { $process_person_profile: false, $set: { a: 1 }, x: 1 } }, context()),
      );
      expect(event.processPerson).to.equal(false);
      expect(event.personUpdate).to.equal(null);
      expect(event.properties).to.deep.equal({ $process_person_profile: false, x: 1 });
    });

    it('warns about a $process_person_profile that is not a boolean and processes the person', () => {
      const outcome = normaliseEvent({ event: 'e', distinct_id: 'u', properties: { $process_person_profile: 'no' } }, context());
      expect(ingested(outcome).processPerson).to.equal(true);
      expect(outcome.warnings.map((w) => w.type)).to.deep.equal(['invalid_process_person_profile']);
    });

    it('reads $identify’s $anon_distinct_id and $create_alias’s alias', () => {
      expect(ingested(normaliseEvent({ event: '$identify', distinct_id: 'u', properties: { $anon_distinct_id: 'anon' } }, context())).identify).to.deep.equal({
        anonDistinctId: 'anon',
      });
      expect(ingested(normaliseEvent({ event: '$create_alias', distinct_id: 'u', properties: { alias: 'a' } }, context())).alias).to.equal('a');
      const noAlias = normaliseEvent({ event: '$create_alias', distinct_id: 'u' }, context());
      expect(ingested(noAlias).alias).to.equal(null);
      expect(noAlias.warnings.map((w) => w.type)).to.deep.equal(['invalid_alias']);
    });

    it('turns a nameless event on /engage/ into an $identify', () => {
      const event = ingested(normaliseEvent({ distinct_id: 'u', $set: { a: 1 } }, context({ engage: true })));
      expect([event.event, event.personUpdate?.set]).to.deep.equal(['$identify', { a: 1 }]);
    });
  });

  describe('groups', () => {
    it('reads $groups, skipping empty keys and keeping numbers as text', () => {
      const event = ingested(
        normaliseEvent({ event: 'e', distinct_id: 'u', properties: { $groups: { company: 'acme', team: 7, empty: '', none: null } } }, context()),
      );
      expect(event.groups).to.deep.equal([
        ['company', 'acme'],
        ['team', '7'],
      ]);
    });

    it('ignores a group type or key longer than 400 characters, with a warning', () => {
      const long = 'k'.repeat(401);
      const outcome = normaliseEvent(
        { event: 'e', distinct_id: 'u', uuid: GENERATED, properties: { $groups: { company: long, [long]: 'x', team: 'k'.repeat(400), emoji: '😀'.repeat(400) } } },
        context(),
      );
      expect(ingested(outcome).groups).to.deep.equal([
        ['team', 'k'.repeat(400)],
        ['emoji', '😀'.repeat(400)],
      ]);
      expect(outcome.warnings).to.deep.equal([
        { type: 'group_key_too_long', details: { eventUuid: GENERATED, distinctId: 'u', groupType: 'company', maxLength: 400 } },
        { type: 'group_key_too_long', details: { eventUuid: GENERATED, distinctId: 'u', groupType: 'k'.repeat(50), maxLength: 400 } },
      ]);
      const identify = normaliseEvent({ event: '$groupidentify', distinct_id: 'u', properties: { $group_type: 'company', $group_key: long } }, context());
      expect(ingested(identify).groupIdentify).to.equal(null);
      expect(identify.warnings.map((w) => w.type)).to.deep.equal(['group_key_too_long']);
    });

    it('reads $groupidentify, and warns when its type or key is missing', () => {
      const event = ingested(
        normaliseEvent(
          {
            event: '$groupidentify',
            distinct_id: '$company_acme',
            properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } },
          },
          context(),
        ),
      );
      expect(event.groupIdentify).to.deep.equal({ type: 'company', key: 'acme', set: { name: 'Acme' } });
      const broken = normaliseEvent({ event: '$groupidentify', distinct_id: 'x', properties: { $group_key: 'acme' } }, context());
      expect(ingested(broken).groupIdentify).to.equal(null);
      expect(broken.warnings.map((w) => w.type)).to.deep.equal(['invalid_group_identify']);
    });
  });

  describe('everything else an event carries', () => {
    it('moves $elements_chain to its column', () => {
      const event = ingested(normaliseEvent({ event: '$autocapture', distinct_id: 'u', properties: { $elements_chain: 'a:href="/"', x: 1 } }, context()));
      expect([event.elementsChain, event.properties]).to.deep.equal(['a:href="/"', { x: 1 }]);
    });

    it('writes $elements as an elements chain, innermost first, attributes sorted', () => {
      expect(
        elementsToChain([
          { tag_name: 'button', attr__class: ['primary', 'big'], $el_text: 'Buy "now"', nth_child: 2, nth_of_type: 1, attr__id: 'buy' },
          { tag_name: 'div', nth_child: 1, nth_of_type: 1 },
        ]),
      ).to.equal(
        'button.big.primary:attr__class="primary,big"attr__id="buy"attr_id="buy"nth-child="2"nth-of-type="1"text="Buy \\"now\\"";div:nth-child="1"nth-of-type="1"',
      );
    });

    const elementCases: Array<{ name: string; given: Record<string, unknown>; want: string }> = [
      { name: 'NUL in a tag name', given: { tag_name: 'a\u0000' }, want: 'a\uFFFD:nth-child="0"nth-of-type="0"' },
      {
        name: 'classes given as text, kept as an attribute too (posthog-js)',
        given: { tag_name: 'a', attr__class: 'btn primary', attr__href: '/x' },
        want: 'a.btn.primary:attr__class="btn primary"attr__href="/x"href="/x"nth-child="0"nth-of-type="0"',
      },
      {
        name: 'half a surrogate pair in a class',
        given: { tag_name: 'a', attr__class: ['c\ud800'] },
        want: 'a.c\uFFFD:attr__class="c\uFFFD"nth-child="0"nth-of-type="0"',
      },
      { name: 'positions that are objects', given: { tag_name: 'a', nth_child: { toString: 'x' }, nth_of_type: { a: 1 } }, want: 'a:nth-child="0"nth-of-type="0"' },
      { name: 'positions given as text', given: { tag_name: 'li', nth_child: '3', nth_of_type: 2.5 }, want: 'li:nth-child="3"nth-of-type="2.5"' },
    ];
    for (const { name, given, want } of elementCases) {
      it(`writes an element with ${name}`, () => {
        expect(elementsToChain([given])).to.equal(want);
      });
    }

    it('flags events of a historical migration and keeps names to 200 characters', () => {
      const event = ingested(normaliseEvent({ event: 'x'.repeat(300), distinct_id: 'u' }, context({ historicalMigration: true })));
      expect([event.historicalMigration, event.event.length]).to.deep.equal([true, 200]);
    });

    it('writes properties as JSON that jsonb accepts', () => {
      expect(jsonbText({ a: 'x\u0000y', b: '\ud800', c: 'ok' })).to.equal('{"a":"x\uFFFDy","b":"\uFFFD","c":"ok"}');
      expect(jsonbText({ a: '😀' })).to.equal('{"a":"😀"}');
    });
  });
});

describe('capture envelope (handlers/capture/envelope.ts)', () => {
  const TOKEN = 'phc_3kWq9rTzV7mN2bXc5dLfH8jPs4GyA6uE1oQiR0tKwZx';

  const cases: Array<{ name: string; given: unknown; want: { token: string; events: number; historical?: boolean } }> = [
    { name: 'a single event with api_key', given: { api_key: TOKEN, event: 'e' }, want: { token: TOKEN, events: 1 } },
    { name: 'a single event with token', given: { token: TOKEN, event: 'e' }, want: { token: TOKEN, events: 1 } },
    { name: 'a single event with $token', given: { $token: TOKEN, event: 'e' }, want: { token: TOKEN, events: 1 } },
    { name: 'a single event with properties.token', given: { event: 'e', properties: { token: TOKEN } }, want: { token: TOKEN, events: 1 } },
    { name: 'an array, the key in one event', given: [{ event: 'a' }, { event: 'b', properties: { token: TOKEN } }], want: { token: TOKEN, events: 2 } },
    {
      name: 'a batch, whose key wins over the events’',
      given: { api_key: ` ${TOKEN} `, historical_migration: true, batch: [{ event: 'a', token: 'phc_other' }] },
      want: { token: TOKEN, events: 1, historical: true },
    },
  ];
  for (const { name, given, want } of cases) {
    it(`reads ${name}`, () => {
      const envelope = readEnvelope(given);
      expect({ token: envelope.token, events: envelope.events.length, historical: envelope.historicalMigration }).to.deep.equal({
        historical: false,
        ...want,
      });
    });
  }

  describe('integers beyond 2^53 where no value is stored', () => {
    const cases: Array<{ name: string; text: string; want: unknown }> = [
      {
        name: 'an event’s offset is a number, its distinct id and properties keep theirs',
        text: '{"offset":12345678901234567890,"distinct_id":12345678901234567891,"properties":{"n":12345678901234567892}}',
        want: { offset: 12345678901234567000, distinct_id: { exact: '12345678901234567891' }, properties: { n: { exact: '12345678901234567892' } } },
      },
      {
        name: 'in a batch, its own fields and its events’',
        text: '{"api_key":12345678901234567890,"batch":[{"$distinct_id":12345678901234567891,"properties":12345678901234567892}]}',
        want: { api_key: 12345678901234567000, batch: [{ $distinct_id: { exact: '12345678901234567891' }, properties: 12345678901234567000 }] },
      },
      {
        name: 'in an array of events',
        text: '[{"token":12345678901234567890,"distinct_id":12345678901234567891}]',
        want: [{ token: 12345678901234567000, distinct_id: { exact: '12345678901234567891' } }],
      },
      {
        name: 'an event that is one',
        text: '{"batch":[{"event":"e"},12345678901234567890]}',
        want: { batch: [{ event: 'e' }, 12345678901234567000] },
      },
      { name: 'the payload itself', text: '12345678901234567890', want: 12345678901234567000 },
    ];
    /** Exact integers shown as such, numbers as numbers. */
    const shown = (value: unknown): unknown =>
      value instanceof ExactInteger
        ? { exact: value.text }
        : Array.isArray(value)
          ? value.map(shown)
          : typeof value === 'object' && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shown(inner)]))
            : value;
    for (const { name, text, want } of cases) {
      it(name, () => {
        expect(shown(withPlainNumbersOutsideValues(parseJson(text, 127)))).to.deep.equal(want);
      });
    }
  });

  it('reads sent_at of a batch', () => {
    expect(readEnvelope({ api_key: TOKEN, sent_at: '2026-11-21T10:00:00Z', batch: [{}] }).sentAt?.toISOString()).to.equal(
      '2026-11-21T10:00:00.000Z',
    );
  });

  const refusals: Array<{ name: string; given: unknown; status: number; code: string }> = [
    { name: 'no key anywhere', given: { event: 'e' }, status: 401, code: 'missing_api_key' },
    { name: 'an empty key', given: { api_key: '  ', event: 'e' }, status: 401, code: 'empty' },
    { name: 'a personal API key', given: { api_key: 'phx_secret', event: 'e' }, status: 401, code: 'personal_api_key' },
    { name: 'a key that is too long', given: { api_key: `phc_${'x'.repeat(70)}`, event: 'e' }, status: 401, code: 'too_long' },
    { name: 'a key that is not ASCII', given: { api_key: 'phc_é', event: 'e' }, status: 401, code: 'not_ascii' },
    { name: 'a key that is not a string', given: { event: 'e', properties: { token: 42 } }, status: 401, code: 'not_string' },
    {
      name: 'different keys in one array',
      given: [
        { event: 'a', token: TOKEN },
        { event: 'b', token: 'phc_other' },
      ],
      status: 401,
      code: 'inconsistent_api_key',
    },
    { name: 'an empty array', given: [], status: 400, code: 'no_events' },
    { name: 'an empty batch', given: { api_key: TOKEN, batch: [] }, status: 400, code: 'no_events' },
  ];
  for (const { name, given, status, code } of refusals) {
    it(`refuses ${name} with ${status} ${code}`, () => {
      try {
        readEnvelope(given);
        expect.fail('accepted');
      } catch (error) {
        expect(error).to.be.instanceOf(ApiError);
        expect([(error as ApiError).status, (error as ApiError).code]).to.deep.equal([status, code]);
      }
    });
  }

  it('knows a project key’s shape', () => {
    expect(tokenProblem(TOKEN)).to.equal(null);
    expect(tokenProblem('a\u0000b')).to.equal('null_byte');
  });
});
