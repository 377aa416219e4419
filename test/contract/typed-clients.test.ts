/**
 * What Hedgerow's users do with its spec: generate a typed client and call the server through it.
 *
 * Two generators, openapi-typescript (types for openapi-fetch) and @hey-api/openapi-ts (an SDK of its own),
 * write their clients into a temporary directory; a small consumer of each, written as a user would write it,
 * must compile under strict TypeScript, and its `@ts-expect-error` lines prove the types are not `any`. Then
 * openapi-fetch calls every operation of the spec against the real server, each with the spec's own example
 * input, and every answer must be documented (501 only for what the registry marks not built).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import createFetchClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import type { paths } from '../../generated/api.js';
import { registry } from '../../handlers/index.js';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { NOT_BUILT, type OperationId } from '../../handlers/types.js';
import { contractViolations } from '../helpers/contract.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations, type SpecOperation } from '../helpers/spec-sync.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A user's strict project around one consumer file (which brings in its client). */
const consumerTsconfig = (file: string) => ({
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [], strict: true, noEmit: true },
  files: [file],
});

/** A user of openapi-fetch with the types openapi-typescript generated. */
const OPENAPI_FETCH_CONSUMER = `import createClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/api.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8000', headers: { Authorization: 'Bearer phx_example' } });

export async function playlistNames(projectId: string): Promise<string[]> {
  const { data, error } = await client.GET('/api/environments/{project_id}/session_recording_playlists/', {
    params: { path: { project_id: projectId }, query: { limit: 10 } },
  });
  if (error) throw new Error(error.detail);
  return data.results.map((playlist) => playlist.name ?? playlist.short_id);
}

export async function newCollection(projectId: string): Promise<boolean> {
  const { data } = await client.POST('/api/environments/{project_id}/session_recording_playlists/', {
    params: { path: { project_id: projectId } },
    body: { name: 'Checkout drop-offs', type: 'collection' },
  });
  return data?.is_synthetic ?? false;
}

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error the path parameter is required
  await client.GET('/api/environments/{project_id}/session_recording_playlists/', {});
  // @ts-expect-error no such path
  await client.GET('/api/not-a-path/');
  const { data } = await client.GET('/api/organizations/');
  // @ts-expect-error count is a number
  const count: string | undefined = data?.count;
  void count;
}
`;

/** A user of the SDK @hey-api/openapi-ts generated. */
const HEY_API_CONSUMER = `import { client } from './hey-api/client.gen.js';
import { environmentsSessionRecordingPlaylistsList, organizationsRetrieve } from './hey-api/sdk.gen.js';

client.setConfig({ baseUrl: 'http://127.0.0.1:8000', headers: { Authorization: 'Bearer phx_example' } });

export async function playlistNames(projectId: string): Promise<string[]> {
  const { data, error } = await environmentsSessionRecordingPlaylistsList({ path: { project_id: projectId }, query: { limit: 10 } });
  if (error) throw new Error(error.detail);
  return (data?.results ?? []).map((playlist) => playlist.name ?? playlist.short_id);
}

export async function organizationName(id: string): Promise<string> {
  const { data } = await organizationsRetrieve({ path: { id } });
  return data?.name ?? '';
}

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error the path parameter is required
  await organizationsRetrieve({});
  const { data } = await organizationsRetrieve({ path: { id: 'x' } });
  // @ts-expect-error the name is a string
  const name: number | undefined = data?.name;
  void name;
}
`;

const run = promisify(execFile);

async function compile(directory: string, file: string): Promise<{ ok: boolean; output: string }> {
  const tsconfig = join(directory, `tsconfig.${file}.json`);
  await writeFile(tsconfig, JSON.stringify(consumerTsconfig(file)));
  try {
    await run(join(ROOT, 'node_modules/.bin/tsc'), ['-p', tsconfig], { cwd: directory });
    return { ok: true, output: '' };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

describe('typed clients generated from the spec', function () {
  this.timeout(180_000);

  describe('compile under strict TypeScript', () => {
    let directory: string;

    before(async () => {
      directory = await mkdtemp(join(tmpdir(), 'hedgerow-clients-'));
      // The consumers import openapi-fetch as a user's project would: from its node_modules.
      await symlink(join(ROOT, 'node_modules'), join(directory, 'node_modules'), 'dir');
      await mkdir(join(directory, 'openapi-typescript'));
      const types = astToString(await openapiTS(pathToFileURL(SPEC_PATH)));
      await writeFile(join(directory, 'openapi-typescript/api.ts'), types);
      // An absolute path: a bare relative one is taken for the name of a spec in Hey API's online registry.
      await run(join(ROOT, 'node_modules/.bin/openapi-ts'), ['--input', SPEC_PATH, '--output', join(directory, 'hey-api'), '--silent', '--no-log-file']);
    });

    after(async () => {
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    const consumers = [
      { generator: 'openapi-typescript with openapi-fetch', file: 'openapi-fetch-consumer.ts', source: OPENAPI_FETCH_CONSUMER },
      { generator: '@hey-api/openapi-ts', file: 'hey-api-consumer.ts', source: HEY_API_CONSUMER },
    ];
    for (const { generator, file, source } of consumers) {
      it(`compiles a consumer of the ${generator} client, whose types refuse wrong calls`, async () => {
        await writeFile(join(directory, file), source);
        const { ok, output } = await compile(directory, file);
        expect(output).to.equal('');
        expect(ok).to.equal(true);
      });
    }
  });

  describe('call every operation through openapi-fetch', () => {
    let server: TestServer;
    let account: Account;
    let playlistShortId: string;

    before(async () => {
      server = await startTestServer();
      account = await newAccount(testDb(), { scopes: ['*'] });
      const created = await server.http.post(
        `/api/environments/${account.environment.id}/session_recording_playlists/`,
        { type: 'collection' },
        { key: account.key },
      );
      playlistShortId = (created.body as { short_id: string }).short_id;
    });

    after(async () => {
      await server?.close();
    });

    /** The path parameters naming the account's own resources; others keep the spec's example. */
    function pathParams(operation: SpecOperation): Record<string, unknown> {
      const values: Record<string, unknown> = {};
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path') continue;
        const example = parameter.example ?? parameter.schema?.example;
        const owned: Record<string, unknown> = {
          project_id: account.environment.id,
          organization_id: account.organization.id,
          short_id: playlistShortId,
          token: account.environment.api_token,
          id: operation.path.startsWith('/api/organizations/{id}/') ? account.organization.id : example,
        };
        values[parameter.name] = parameter.name in owned ? owned[parameter.name] : example;
      }
      return values;
    }

    /** The query parameters the operation requires, with the spec's examples. */
    function requiredQuery(operation: SpecOperation): Record<string, unknown> {
      const required = (operation.parameters ?? []).filter((parameter) => parameter.in === 'query' && parameter.required);
      return Object.fromEntries(required.map((parameter) => [parameter.name, parameter.example ?? parameter.schema?.example]));
    }

    /** The spec's first example of the JSON request body, with its project API key the account's. */
    function exampleBody(operation: SpecOperation): unknown {
      const media = operation.requestBody?.content?.['application/json'];
      if (!media) return undefined;
      const example = media.example ?? Object.values(media.examples ?? {})[0]?.value;
      return JSON.parse(JSON.stringify(example ?? {}).replaceAll(/phc_[A-Za-z0-9]+/g, account.environment.api_token));
    }

    // Deleting the organization comes last: everything else lives in it.
    const operations = specOperations(['get', 'post', 'put', 'patch', 'delete', 'options']).sort(
      (a, b) => Number(a.operationId === 'organizations_destroy') - Number(b.operationId === 'organizations_destroy'),
    );

    it('covers every operation of the spec', () => {
      expect(operations.map((operation) => operation.operationId).sort()).to.deep.equal(Object.keys(registry).sort());
    });

    for (const operation of operations) {
      const method = operation.method.toUpperCase();
      const notBuilt = registry[operation.operationId as OperationId] === NOT_BUILT;
      it(`${operation.operationId} (${method} ${operation.path}) answers a documented status${notBuilt ? ', 501 as not built' : ''}`, async () => {
        const client = createFetchClient<paths>({ baseUrl: server.directUrl, headers: { Authorization: `Bearer ${account.key}` } });
        // The loop's method and path are only known at run time; the typed calls are compiled above.
        const request = client.request as unknown as (
          method: string,
          path: string,
          init: { params: { path: Record<string, unknown>; query: Record<string, unknown> }; body?: unknown; parseAs: 'text' },
        ) => Promise<{ data?: string; error?: unknown; response: Response }>;
        const body = exampleBody(operation);
        const { data, error, response } = await request(method.toLowerCase(), operation.path, {
          params: { path: pathParams(operation), query: requiredQuery(operation) },
          ...(body === undefined ? {} : { body }),
          parseAs: 'text',
        });
        // openapi-fetch hands an error body over parsed when it is JSON, and the rest as text.
        const payload = data ?? error ?? '';
        const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
        const contentType = response.headers.get('content-type');
        const violations = await contractViolations({
          method,
          path: new URL(response.url).pathname,
          status: response.status,
          contentType,
          body: typeof payload === 'string' && contentType?.includes('json') && text ? JSON.parse(text) : payload,
          text,
          allow: response.headers.get('allow'),
        });
        expect(violations).to.deep.equal([]);
        if (notBuilt) expect(response.status).to.equal(501);
        else expect(response.status, text).to.be.below(500);
      });
    }
  });
});
