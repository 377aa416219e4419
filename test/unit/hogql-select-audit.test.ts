/**
 * Audit of the grown SELECT compiler (merge a73d1df): inputs that must be 400s (HogQLError) but are not.
 * Each case fails today; sizes are kept small so that a failing run stays fast.
 */
import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, parseSelect } from '../../db/hogql/select/index.js';

const OPTIONS = { teamId: 1, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };
const compile = (query: string) => compileSelect(parseSelect(query), OPTIONS);

describe('hogql select audit: refusals that are 500s or resource bombs today', () => {
  // A WITH query is expanded inline at each use: a chain of WITH queries that each read the previous twice
  // compiles to 2^n copies (16 levels, 1 kB of HogQL: ~10 s of blocked event loop and a 10 MB statement).
  it('refuses a WITH chain whose inline expansion doubles at each level', function () {
    this.timeout(30_000);
    const ctes = ['a0 as (select event from events)'];
    for (let i = 1; i <= 12; i += 1) ctes.push(`a${i} as (select event from a${i - 1} union all select event from a${i - 1})`);
    expect(() => compile(`with ${ctes.join(', ')} select count() from a12`)).to.throw(HogQLError);
  });

  // Nested FROM subqueries are pulled up by PostgreSQL's planner, which copies a column's expression into each
  // reference: `x + x` at each level is a tree of 2^n nodes, built while planning, where neither
  // statement_timeout nor pg_terminate_backend reaches it (30 levels, under 1 kB, exhausts the server's memory).
  it('refuses nested subqueries whose columns double at each level', () => {
    let query = 'select length(event) as x from events';
    for (let i = 0; i < 30; i += 1) query = `select x + x as x from (${query})`;
    expect(() => compile(query)).to.throw(HogQLError);
  });
});
