import { expect } from 'chai';
import { chromiumRemedy, postgresRemedy, type Machine, type Remedy } from '../../scripts/prerequisites.js';

function machine(overrides: Partial<Omit<Machine, 'has'>> & { commands?: string[] }): Machine {
  const commands = overrides.commands ?? ['pg_ctlcluster', 'apt-get'];
  return {
    isRoot: overrides.isRoot ?? true,
    has: (command) => commands.includes(command),
    postgresVersions: overrides.postgresVersions ?? ['15'],
    adminUrlIsLocal: overrides.adminUrlIsLocal ?? true,
  };
}

describe('unit: what npm test does when the machine lacks something (scripts/prerequisites.ts)', () => {
  const START_15 = ['pg_ctlcluster', '--skip-systemctl-redirect', '15', 'main', 'start'];
  const postgresCases: [string, Machine, boolean, Remedy][] = [
    ['root, installed and stopped: starts the newest cluster itself', machine({ postgresVersions: ['13', '15'] }), true, { run: START_15, tell: START_15.join(' ') }],
    ['not root: tells the sudo command', machine({ isRoot: false }), true, { run: null, tell: `sudo ${START_15.join(' ')}` }],
    [
      'not installed: tells how to install and start it',
      machine({ postgresVersions: [] }),
      true,
      { run: null, tell: 'apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start' },
    ],
    [
      'a remote admin URL: nothing to start here',
      machine({ adminUrlIsLocal: false }),
      true,
      { run: null, tell: 'start the PostgreSQL server that HEDGEROW_TEST_ADMIN_URL names' },
    ],
    [
      'a server that answers but refuses the login: starting it again would not help',
      machine({}),
      false,
      {
        run: null,
        tell: 'let the postgres user connect without a password, or set HEDGEROW_TEST_ADMIN_URL to a URL that may create databases',
      },
    ],
  ];
  for (const [title, given, refused, want] of postgresCases) {
    it(`PostgreSQL — ${title}`, () => expect(postgresRemedy(given, refused)).to.deep.equal(want));
  }

  const INSTALL = ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'];
  const chromiumCases: [string, Machine, Remedy][] = [
    ['root with apt: installs it itself', machine({}), { run: INSTALL, tell: INSTALL.join(' ') }],
    ['not root: tells the sudo command', machine({ isRoot: false }), { run: null, tell: `sudo ${INSTALL.join(' ')}` }],
    [
      'no apt: says what must exist',
      machine({ commands: [] }),
      { run: null, tell: "install Chromium so that /usr/bin/chromium exists (Debian's package: chromium)" },
    ],
  ];
  for (const [title, given, want] of chromiumCases) {
    it(`Chromium — ${title}`, () => expect(chromiumRemedy(given)).to.deep.equal(want));
  }
});
