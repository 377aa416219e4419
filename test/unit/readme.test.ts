import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { registry } from '../../handlers/index.js';
import { NOT_BUILT } from '../../handlers/types.js';
import { specOperations } from '../helpers/spec-sync.js';

describe('unit: the README tells the truth', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = /<!-- not-built:start -->([\s\S]*?)<!-- not-built:end -->/.exec(readme)?.[1] ?? '';
  const listed = [...section.matchAll(/^- `([a-z0-9_]+)` — ([A-Z]+) (\S+)$/gm)];

  it('lists exactly the operations that answer 501, each with its method and path', () => {
    const notBuilt = Object.entries(registry)
      .filter(([, handler]) => handler === NOT_BUILT)
      .map(([operationId]) => operationId);
    expect(listed.map((match) => match[1]).sort()).to.deep.equal(notBuilt.sort());
    const operations = new Map(specOperations().map((op) => [op.operationId, `${op.method.toUpperCase()} ${op.path}`]));
    for (const [, operationId, method, path] of listed) {
      expect(`${method} ${path}`, operationId).to.equal(operations.get(operationId!));
    }
  });
});
