/**
 * The direction of imports between the rooms of handlers/ and db/ is enforced by eslint.config.js: each case
 * lints one import, placed in a file of a room, with the repository's own configuration.
 */
import { expect } from 'chai';
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';

const RULE = 'no-restricted-imports';

const cases: Array<{ file: string; source: string; refused: boolean }> = [
  // db/ never imports handlers/.
  { file: 'db/x.ts', source: "import '../handlers/errors.js';", refused: true },
  { file: 'db/queries/x.ts', source: "import type { AppDeps } from '../../handlers/types.js';", refused: true },
  { file: 'db/queries/x.ts', source: "export { registry } from '../../handlers/index.js';", refused: true },
  { file: 'db/queries/x.ts', source: "import { errors } from '../core/errors.js';", refused: false },
  { file: 'db/queries/x.ts', source: "import type { Db } from '../pg/client.js';", refused: false },
  // db/core/ is the bottom: nothing of db/ or handlers/ above it, generated/ allowed.
  { file: 'db/core/x.ts', source: "import type { Db } from '../pg/client.js';", refused: true },
  { file: 'db/core/x.ts', source: "import '../../handlers/types.js';", refused: true },
  { file: 'db/core/x.ts', source: "import type { components } from '../../generated/api.js';", refused: false },
  { file: 'db/core/x.ts', source: "import { parseJson } from './exact-json.js';", refused: false },
  // db/pg/ is below the queries; db/hogql/ needs no connection.
  { file: 'db/pg/x.ts', source: "import '../queries/ingestion.js';", refused: true },
  { file: 'db/pg/x.ts', source: "import '../core/errors.js';", refused: false },
  { file: 'db/hogql/x.ts', source: "import '../pg/client.js';", refused: true },
  { file: 'db/hogql/x.ts', source: "import '../core/exact-json.js';", refused: false },
  // handlers/capture/ never imports the server that hosts it.
  { file: 'handlers/capture/x.ts', source: "import '../server/lane.js';", refused: true },
  // handlers/jobs/ (the batch export engine) never imports the server that hosts it.
  { file: 'handlers/jobs/x.ts', source: "import '../server/config.js';", refused: true },
  { file: 'handlers/jobs/destinations/x.ts', source: "import '../../server/config.js';", refused: true },
  { file: 'handlers/jobs/x.ts', source: "import '../../db/queries/batch-exports/runs.js';", refused: false },
  { file: 'handlers/capture/x.ts', source: "import '../openapi/validators.js';", refused: false },
  { file: 'handlers/capture/x.ts', source: "import '../../db/queries/ingestion.js';", refused: false },
  // handlers/openapi/ is the spec compiled: only db/core/ and generated/ below it.
  { file: 'handlers/openapi/x.ts', source: "import '../server/body.js';", refused: true },
  { file: 'handlers/openapi/x.ts', source: "import '../types.js';", refused: true },
  { file: 'handlers/openapi/x.ts', source: "import '../../db/core/errors.js';", refused: false },
  // The rooms above may import the ones below; scripts/ and test/ may import anything.
  { file: 'handlers/server/x.ts', source: "import '../capture/services.js';", refused: false },
  { file: 'handlers/x.ts', source: "import '../db/queries/projects.js';", refused: false },
  { file: 'test/unit/x.ts', source: "import '../../handlers/server/app.js';", refused: false },
  { file: 'scripts/x.ts', source: "import '../handlers/server/main.js';", refused: false },
];

describe('unit: the direction of imports (eslint.config.js)', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: ROOT });

  for (const { file, source, refused } of cases) {
    it(`${refused ? 'refuses' : 'allows'} ${source} in ${file}`, async () => {
      const [result] = await eslint.lintText(`${source}\n`, { filePath: join(ROOT, file) });
      const messages = result!.messages.filter((message) => message.ruleId === RULE);
      expect(messages, JSON.stringify(result!.messages)).to.have.length(refused ? 1 : 0);
      // The line parses: an allowed case passes because of the rule, not because nothing was linted.
      expect(result!.messages.filter((message) => message.fatal)).to.deep.equal([]);
    });
  }
});
