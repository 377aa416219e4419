/**
 * The role Postgres destinations of the test cluster sign in as. The cluster is also the server's own, where a
 * destination may not be a superuser: tests (and the export benchmark) hand their destination databases to this
 * ordinary role (made once, kept: roles belong to the cluster), and read them back as it, so that the tables
 * they create are its own too.
 */
import pg from 'pg';

export const DESTINATION_ROLE = 'hedgerow_destination_writer';

/** Makes `database` the destination role's own, creating the role when it is missing; `adminUrl` signs in as a superuser. */
export async function handToDestinationRole(adminUrl: string, database: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // Other test runs may make it at the same moment: the second one finds it there.
    await admin.query(`do $$ begin create role ${DESTINATION_ROLE} login; exception when duplicate_object or unique_violation then null; end $$`);
    await admin.query(`alter database "${database}" owner to ${DESTINATION_ROLE}`);
  } finally {
    await admin.end();
  }
}

/** The connection string `databaseUrl` as the destination role signs in with it. */
export function destinationRoleUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.username = DESTINATION_ROLE;
  url.password = '';
  return url.toString();
}
