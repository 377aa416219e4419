/**
 * `npm run spec:compat` (part of `npm test`): fails when spec/openapi.yaml breaks a client of the last release,
 * unless spec/intended-changes.yaml lists the change with its reason.
 *
 * The last release is the newest entry of spec/releases.json, a version and the commit it was cut from; its
 * document is read from git. api-smart-diff compares the two documents operation by operation ($refs resolved)
 * and classifies each change. It judges a removed response field or response enum value harmless, as JSON
 * Schema's rules go; clients generated from our spec do read them, so any removed field or enum value is
 * breaking here too. Only the changes it finds under `paths` count: those under `components` are the same
 * changes again, seen without knowing whether a schema is read or written.
 *
 * Declaring a release: add its version and commit to spec/releases.json, and empty spec/intended-changes.yaml.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { apiDiff, type Diff } from 'api-smart-diff';
import { CORE_SCHEMA, load } from 'js-yaml';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEC = 'spec/openapi.yaml';
const RELEASES = 'spec/releases.json';
const INTENDED = 'spec/intended-changes.yaml';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** A change as it is printed and as spec/intended-changes.yaml names it: `METHOD /path/ [where]: what`. */
function describe(diff: Diff): string {
  const [, route, method, ...rest] = diff.path.map(String);
  const where = rest.length > 0 ? ` ${rest.join('/')}` : '';
  return `${String(method).toUpperCase()} ${route}${where}: ${diff.description ?? diff.action}`;
}

function isBreaking(diff: Diff): boolean {
  if (diff.type === 'breaking') return true;
  const [parent] = diff.path.slice(-2).map(String);
  return diff.action === 'remove' && (parent === 'properties' || parent === 'enum');
}

/** The changes from `before` to `after` that can break a client of `before`, one line each. */
export function breakingChanges(before: unknown, after: unknown): string[] {
  return apiDiff(before, after)
    .filter((diff) => diff.path[0] === 'paths' && HTTP_METHODS.has(String(diff.path[2])))
    .filter(isBreaking)
    .map(describe);
}

export interface IntendedChange {
  change: string;
  reason: string;
}

/** The breaking changes that spec/intended-changes.yaml does not list. */
export function unintendedChanges(changes: string[], intended: IntendedChange[]): string[] {
  const listed = new Set(intended.map((entry) => entry.change));
  return changes.filter((change) => !listed.has(change));
}

function parseYaml(text: string): unknown {
  return load(text, { schema: CORE_SCHEMA });
}

/** The newest release of spec/releases.json (the one with the highest version). */
export function lastRelease(releases: Record<string, string>): { version: string; commit: string } {
  const versions = Object.keys(releases).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  const version = versions.at(-1);
  if (!version) throw new Error(`${RELEASES} names no release`);
  return { version, commit: releases[version]! };
}

function main(): void {
  const release = lastRelease(JSON.parse(readFileSync(`${ROOT}${RELEASES}`, 'utf8')) as Record<string, string>);
  let released: string;
  try {
    released = execFileSync('git', ['show', `${release.commit}:${SPEC}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch {
    process.stderr.write(
      `spec:compat: commit ${release.commit} (release ${release.version}) is not in this clone: run \`git fetch --unshallow\` (or clone with full history).\n`,
    );
    process.exit(1);
  }
  const intended = ((parseYaml(readFileSync(`${ROOT}${INTENDED}`, 'utf8')) as { changes?: IntendedChange[] } | null)?.changes ?? []);
  const current = readFileSync(`${ROOT}${SPEC}`, 'utf8');
  const unintended = unintendedChanges(breakingChanges(parseYaml(released), parseYaml(current)), intended);
  if (unintended.length > 0) {
    process.stderr.write(
      `spec:compat: ${SPEC} breaks clients of release ${release.version} (${release.commit.slice(0, 12)}):\n` +
        unintended.map((change) => `  - ${change}\n`).join('') +
        `Restore what was removed, or list each change in ${INTENDED} with the reason it is intended.\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`spec:compat: no unintended breaking change since release ${release.version}.\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
