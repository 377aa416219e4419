/**
 * The draft_sql rules on their own (db/queries/query/draft-sql.ts): prompt and vocabulary → the exact draft,
 * printed, and that it parses back to the same text.
 */
import { expect } from 'chai';
import { draftTree, type DraftVocabulary } from '../../db/queries/query/draft-sql.js';
import { parseSelect, printQuery } from '../../db/hogql/select/index.js';

const VOCABULARY: DraftVocabulary = {
  eventNames: ['$pageview', '$autocapture', 'sign up', 'sign up completed', 'order_placed'],
  propertyKeys: ['$browser', '$current_url', 'plan', 'utm source'],
};

const CASES: { prompt: string; sql: string | null }[] = [
  {
    prompt: 'pageviews in the past 2 weeks',
    sql: "SELECT event, distinct_id, timestamp FROM events WHERE (event = '$pageview') AND (timestamp >= (now() - (INTERVAL 2 week))) ORDER BY timestamp DESC LIMIT 100",
  },
  {
    prompt: 'number of order placed last month by utm source',
    sql: "SELECT properties['utm source'], count() FROM events WHERE (event = 'order_placed') AND (timestamp >= (now() - (INTERVAL 1 month))) GROUP BY properties['utm source'] ORDER BY count() DESC, properties['utm source'] ASC LIMIT 100",
  },
  {
    prompt: 'Weekly distinct users by current url',
    sql: 'SELECT toStartOfWeek(timestamp) AS week, properties.$current_url, uniq(distinct_id) FROM events GROUP BY week, properties.$current_url ORDER BY week ASC, properties.$current_url ASC LIMIT 100',
  },
  { prompt: 'sign up completed', sql: "SELECT event, distinct_id, timestamp FROM events WHERE event = 'sign up completed' ORDER BY timestamp DESC LIMIT 100" },
  { prompt: 'by browser', sql: 'SELECT properties.$browser, count() FROM events GROUP BY properties.$browser ORDER BY count() DESC, properties.$browser ASC LIMIT 100' },
  { prompt: 'last 0 days of nothing', sql: null },
  { prompt: 'what is the weather', sql: null },
];

describe('unit: draft_sql rules', () => {
  for (const { prompt, sql } of CASES) {
    it(`"${prompt}"`, () => {
      const tree = draftTree(prompt, VOCABULARY);
      if (sql === null) {
        expect(tree).to.equal(null);
        return;
      }
      const text = printQuery(tree!);
      expect(text).to.equal(sql);
      expect(printQuery(parseSelect(text))).to.equal(text);
    });
  }
});

describe('unit: draft_sql with a large vocabulary', () => {
  // A key is found by where it is said, not by a test of every key at every "by": these prompts are answered
  // as the rules say with the largest vocabulary the endpoint reads.
  const keys = Array.from({ length: 5000 }, (_, index) => `key_${String(index).padStart(4, '0')}`);
  const names = Array.from({ length: 1000 }, (_, index) => `${'a '.repeat(10)}${index}`);

  it('"count by by … by key 4999 by plans" with 5,000 property keys', () => {
    const prompt = `count${' by'.repeat(120)} key 4999 by plans`;
    expect(prompt.length).to.be.at.most(400);
    const tree = draftTree(prompt, { eventNames: [], propertyKeys: [...keys, 'plan', '$plan'] });
    expect(printQuery(tree!)).to.equal(
      'SELECT properties.key_4999, properties.$plan, count() FROM events GROUP BY properties.key_4999, properties.$plan ORDER BY count() DESC, properties.key_4999 ASC, properties.$plan ASC LIMIT 100',
    );
  });

  it('1,000 event names that share their first ten words, and a prompt of those words', () => {
    const prompt = `${'a '.repeat(150)}a a a a a a a a a a 999s and a a a a a a a a a a 7`;
    expect(prompt.length).to.be.at.most(400);
    const tree = draftTree(prompt, { eventNames: names, propertyKeys: keys });
    expect(printQuery(tree!)).to.equal(
      "SELECT event, distinct_id, timestamp FROM events WHERE event IN ('a a a a a a a a a a 7', 'a a a a a a a a a a 999') ORDER BY timestamp DESC LIMIT 100",
    );
  });
});
