/**
 * The function library against PostHog's: every function PostHog's HogQL maps (the lists under
 * test/fixtures/posthog-hogql-functions/, one name a line, taken from posthog/hogql/functions/ of PostHog's
 * repository) either runs here or is refused with a reason, and the generated list says which.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, functionCatalogue, parseSelect } from '../../db/hogql/select/index.js';

const FIXTURES = new URL('../fixtures/posthog-hogql-functions/', import.meta.url);
const OPTIONS = { teamId: 1, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };

function posthogNames(): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.txt'))) {
    for (const line of readFileSync(new URL(file, FIXTURES), 'utf8').split('\n')) {
      const name = line.replace(/#.*/, '').trim();
      if (name) names.set(name, file);
    }
  }
  return names;
}

describe('unit: HogQL function catalogue', () => {
  const catalogue = functionCatalogue();
  const plain = catalogue.filter((entry) => !entry.family.startsWith('Window'));

  it('names each function once', () => {
    const seen = new Map<string, string>();
    const twice = plain.filter((entry) => {
      const key = entry.name.toLowerCase();
      const again = seen.has(key);
      seen.set(key, entry.family);
      return again;
    });
    expect(twice.map((entry) => `${entry.name} (${entry.family})`)).to.deep.equal([]);
  });

  it("has every function of PostHog's mapping, running or refused with a reason", () => {
    const known = new Set(plain.map((entry) => entry.name.toLowerCase()));
    const missing = [...posthogNames()].filter(([name]) => !known.has(name.toLowerCase())).map(([name, file]) => `${name} (${file})`);
    expect(missing).to.deep.equal([]);
  });

  it('refuses each unavailable function with a 400 that names it and says why', () => {
    for (const entry of plain.filter((item) => !item.available)) {
      expect(entry.note, entry.name).to.match(/\S{3}/);
      const query = parseSelect(`select ${entry.name}(event) from events`);
      expect(() => compileSelect(query, OPTIONS), entry.name)
        .to.throw(HogQLError)
        .with.property('message', `The function ${entry.name}() is not available: ${entry.note}`);
    }
  });
});
