/**
 * `npm run admin -- <command> [options]`: administration from the shell. Every command migrates the database
 * first (the one DATABASE_URL names, else the embedded one). With --json each prints one JSON object.
 */
import { parseArgs } from 'node:util';
import { connectionStringOf, type Db } from '../db/pg/client.js';
import { distributeTables, hasCitus, joinWorkers, type CitusNode } from '../db/pg/citus.js';
import { bootstrap, hasAnyOrganization } from '../db/queries/bootstrap.js';
import { setMembership } from '../db/queries/memberships.js';
import { insertOrganizationWithOwner } from '../db/queries/organizations.js';
import { createPersonalApiKey, revokePersonalApiKey } from '../db/queries/personal-api-keys.js';
import { createProject } from '../db/queries/projects.js';
import { createUser, findUserByEmail } from '../db/queries/users.js';
import { DataDirInUseError } from '../db/pg/embedded.js';
import { MembershipLevel } from '../db/rows.js';
import { ApiError } from '../db/core/errors.js';
import { readConfig } from '../handlers/server/config.js';
import { createLogger, openRuntime } from '../handlers/server/runtime.js';

const HELP = `Usage: npm run admin -- <command> [options]

Every command applies pending migrations first. Add --json to print one JSON object.

Commands:
  migrate                        Apply pending migrations and exit.
  bootstrap                      First-run set-up: an organization with a project, an admin user and a
                                 personal API key with every scope. Refuses (exit 1) when any organization exists.
      [--email E] [--organization NAME] [--project NAME]
  create-user --email E          Create a user.
      [--first-name F] [--last-name L] [--organization ID [--level member|admin|owner]]
  create-organization --name N --owner EMAIL
                                 Create an organization (with a first project) owned by an existing user.
  create-project --organization ID --name N
                                 Create a project (with its environment and project API key).
  create-key --user EMAIL --scopes S[,S…]
                                 Create a personal API key; it is printed once, only its hash is stored.
      [--label L] [--organizations ID[,ID…]] [--projects ID[,ID…]]
  revoke-key KEY|ID|MASK         Delete a personal API key, named by the key itself, its id, or its mask.
  distribute                     Spread a database over a Citus cluster: its PostgreSQL must load Citus
                                 (shared_preload_libraries); adds the extension and joins the workers named,
                                 then shards the tenant tables by environment and copies the shared ones to
                                 every node. Safe to run again.
      [--workers HOST:PORT[,HOST:PORT…]] [--coordinator HOST:PORT]
  help                           Show this text.

Scopes: "*" or <resource>:read|write, e.g. organization:read, query:read, session_recording_playlist:write.
`;

class UsageError extends Error {}

function parseNode(text: string): CitusNode {
  const match = /^(.+):(\d{1,5})$/.exec(text.trim());
  if (!match) throw new UsageError(`not HOST:PORT: ${text}`);
  return { host: match[1]!, port: Number(match[2]) };
}

const LEVELS: Readonly<Record<string, MembershipLevel>> = {
  member: MembershipLevel.member,
  admin: MembershipLevel.admin,
  owner: MembershipLevel.owner,
};

type Options = Record<string, string | boolean | undefined>;

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

const list = (value: unknown): string[] | null =>
  typeof value === 'string' && value.trim() !== '' ? value.split(',').map((item) => item.trim()).filter(Boolean) : null;

async function userByEmail(db: Db, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new UsageError(`no user with e-mail ${email}`);
  return user;
}

type Command = (db: Db, options: Options, positionals: string[]) => Promise<Record<string, unknown>>;

const COMMANDS: Readonly<Record<string, Command>> = {
  async migrate() {
    return { migrated: true };
  },

  async bootstrap(db, options) {
    if (await hasAnyOrganization(db)) {
      throw new UsageError('this database already has an organization; bootstrap only sets up an empty one');
    }
    return {
      ...(await bootstrap(db, {
        email: typeof options.email === 'string' ? options.email : 'admin@hedgerow.local',
        organizationName: typeof options.organization === 'string' ? options.organization : 'Default organization',
        projectName: typeof options.project === 'string' ? options.project : 'Default project',
      })),
    };
  },

  async 'create-user'(db, options) {
    const user = await createUser(db, {
      email: required(options, 'email'),
      first_name: typeof options['first-name'] === 'string' ? options['first-name'] : '',
      last_name: typeof options['last-name'] === 'string' ? options['last-name'] : '',
    });
    const organization = typeof options.organization === 'string' ? options.organization : null;
    const levelName = typeof options.level === 'string' ? options.level : 'member';
    const level = LEVELS[levelName];
    if (!level) throw new UsageError(`--level must be member, admin or owner, not "${levelName}"`);
    if (organization) await setMembership(db, organization, user.id, level);
    return { user_id: user.id, email: user.email, organization_id: organization, level: organization ? level : null };
  },

  async 'create-organization'(db, options) {
    const owner = await userByEmail(db, required(options, 'owner'));
    const { organization, environment } = await db.transaction((trx) =>
      insertOrganizationWithOwner(trx, owner.id, { name: required(options, 'name') }),
    );
    return {
      organization_id: organization.id,
      slug: organization.slug,
      project_id: environment.project_id,
      project_api_key: environment.api_token,
    };
  },

  async 'create-project'(db, options) {
    const { project, environment } = await createProject(db, required(options, 'organization'), required(options, 'name'));
    return { project_id: project.id, environment_id: environment.id, project_api_key: environment.api_token };
  },

  async 'create-key'(db, options) {
    const user = await userByEmail(db, required(options, 'user'));
    const scopes = list(options.scopes);
    if (!scopes) throw new UsageError('--scopes is required');
    const invalid = scopes.filter((scope) => scope !== '*' && !/^[a-z_]+:(read|write)$/.test(scope));
    if (invalid.length > 0) throw new UsageError(`not a scope: ${invalid.join(', ')}`);
    const projects = list(options.projects)?.map(Number) ?? null;
    if (projects?.some((id) => !Number.isSafeInteger(id))) throw new UsageError('--projects takes numeric ids');
    const { key, row } = await createPersonalApiKey(db, {
      userId: user.id,
      label: typeof options.label === 'string' ? options.label : 'cli',
      scopes,
      scopedOrganizations: list(options.organizations),
      scopedTeams: projects,
    });
    return {
      id: row.id,
      personal_api_key: key,
      mask_value: row.mask_value,
      scopes: row.scopes,
      scoped_organizations: row.scoped_organizations,
      scoped_teams: row.scoped_teams,
    };
  },

  async distribute(db, options) {
    const workers = (list(options.workers) ?? []).map(parseNode);
    if (!(await hasCitus(db))) {
      if (workers.length === 0) throw new UsageError('this database has no Citus yet: name its workers with --workers HOST:PORT,…');
      await db.raw('create extension citus');
    }
    if (workers.length > 0) {
      const url = new URL(connectionStringOf(db));
      const coordinator = typeof options.coordinator === 'string' ? parseNode(options.coordinator) : { host: url.hostname, port: Number(url.port || 5432) };
      await joinWorkers(db, coordinator, workers);
    }
    const placed = await db.transaction((trx) => distributeTables(trx));
    return {
      reference_tables: placed.reference,
      distributed_tables: placed.distributed,
      functions_copied: placed.functions.length,
    };
  },

  async 'revoke-key'(db, _options, positionals) {
    const target = positionals[0];
    if (!target) throw new UsageError('revoke-key needs the key, its id or its mask');
    const revoked = await revokePersonalApiKey(db, target);
    if (revoked === 0) throw new UsageError(`no personal API key matches ${target}`);
    return { revoked };
  },
};

function print(result: Record<string, unknown>, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  for (const [name, value] of Object.entries(result)) {
    process.stdout.write(`${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}\n`);
  }
}

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      organization: { type: 'string' },
      organizations: { type: 'string' },
      project: { type: 'string' },
      projects: { type: 'string' },
      level: { type: 'string' },
      name: { type: 'string' },
      owner: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      label: { type: 'string' },
      workers: { type: 'string' },
      coordinator: { type: 'string' },
    },
  });
  const [commandName, ...rest] = positionals;
  if (values.help || !commandName || commandName === 'help') {
    process.stdout.write(HELP);
    return commandName || values.help ? 0 : 1;
  }
  const command = COMMANDS[commandName];
  if (!command) {
    process.stderr.write(`Unknown command "${commandName}".\n\n${HELP}`);
    return 1;
  }
  const config = { ...readConfig(), logLevel: process.env.LOG_LEVEL || 'warn' };
  let runtime: Awaited<ReturnType<typeof openRuntime>>;
  try {
    runtime = await openRuntime(config, createLogger(config));
  } catch (error) {
    // The embedded database has one owner at a time: while the server runs, the admin CLI cannot open it.
    if (!(error instanceof DataDirInUseError)) throw error;
    if (values.json) process.stdout.write(`${JSON.stringify({ error: error.message })}\n`);
    process.stderr.write(`admin ${commandName}: ${error.message}\n`);
    return 1;
  }
  try {
    print(await command(runtime.db, values, rest), Boolean(values.json));
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ApiError) {
      const message = error instanceof ApiError ? `${error.detail}${error.attr ? ` (${error.attr})` : ''}` : error.message;
      if (values.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
      process.stderr.write(`admin ${commandName}: ${message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await runtime.close();
  }
}

process.exitCode = await main();
