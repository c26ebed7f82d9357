// The vendor's DirectoryTest of the AccountService: a test of the configured
// directory (LDAP or Active Directory), run on StartTest. The simulated
// controller has no network path to directory servers: with a directory
// configured the tests that need the server fail and say so; without one
// nothing runs. The results stay until the next test.
import type { DirectoryKind } from '../../domain/accounts/directory-settings.js';
import { Priv } from '../../lib/privileges.js';
import { defineAction, defineType, ro, t } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import { action, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type DirectoryTestDeps = Pick<Services, 'directories' | 'store'>;

/** The tests the vendor's controller runs, in its order. */
const TESTS = [
  'Directory Server DNS Name',
  'Ping Directory Server',
  'Connect to Directory Server',
  'Connect using SSL',
  'Bind to Directory Server',
  'Directory Administrator login',
  'User Authentication',
  'User Authorization',
  'Directory User Contexts',
  'LOM Object exists',
] as const;

const STATUSES = ['NotRun', 'InProgress', 'Passed', 'Failed', 'Warning'] as const;
type Status = (typeof STATUSES)[number];

interface Result {
  TestName: string;
  Status: Status;
  Notes: string;
}

const SETTING = 'accounts.directoryTest';
const NOT_RUN: Result[] = TESTS.map((TestName) => ({ TestName, Status: 'NotRun', Notes: '' }));

const StartTestAction = defineAction({
  name: `${oemType('DirectoryTest')}.StartTest`,
  description: 'Test the configured directory server; results in TestResults.',
  parameters: {
    AdminName: t.string(),
    AdminPassword: t.string({ secret: true }),
    TestUser: t.string(),
    TestPassword: t.string({ secret: true }),
  },
});

const StopTestAction = defineAction({ name: `${oemType('DirectoryTest')}.StopTest`, description: 'Stop a running test.', parameters: {} });

export const VendorDirectoryTestType = defineType({
  name: oemType('DirectoryTest'),
  version: '1.0.0',
  owner: OEM,
  description: 'A test of the directory settings of the account service.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    OverallStatus: ro(t.enum(STATUSES)),
    TestResults: ro(t.array(t.object({ TestName: t.string(), Status: t.enum(STATUSES), Notes: t.string() }, { typeName: 'TestResult' }))),
  },
  actions: [StartTestAction, StopTestAction],
});

/** The configured directory: the enabled one with a server address, LDAP first. */
function configured(d: DirectoryTestDeps): { kind: DirectoryKind; address: string } | undefined {
  for (const kind of ['LDAP', 'ActiveDirectory'] as const) {
    const s = d.directories.get(kind);
    const address = s.ServiceAddresses.find((a) => a !== '');
    if (s.ServiceEnabled && address) return { kind, address };
  }
  return undefined;
}

function run(d: DirectoryTestDeps): Result[] {
  const dir = configured(d);
  if (!dir) return TESTS.map((TestName) => ({ TestName, Status: 'NotRun', Notes: 'No directory server is enabled and configured.' }));
  const unreachable = `${dir.address} cannot be reached from the simulated controller.`;
  return TESTS.map((TestName, i) =>
    i === 0
      ? { TestName, Status: 'Passed', Notes: dir.address }
      : { TestName, Status: i === 1 ? 'Failed' : 'NotRun', Notes: i === 1 ? unreachable : '' },
  );
}

function overall(results: readonly Result[]): Status {
  if (results.some((r) => r.Status === 'Failed')) return 'Failed';
  if (results.every((r) => r.Status === 'NotRun')) return 'NotRun';
  return 'Passed';
}

function handlers(d: DirectoryTestDeps) {
  const results = () => d.store.setting<Result[]>(SETTING, NOT_RUN);
  return {
    getTest() {
      const r = results().peek();
      return { Id: 'DirectoryTest', Name: 'Directory Test', OverallStatus: overall(r), TestResults: r };
    },
    postStart() {
      results().set(run(d));
      return success();
    },
    // Tests finish as they start: there is nothing running to stop.
    postStop: () => success(),
  };
}

export function registerDirectoryTestRoutes(routes: RouteTable, d: DirectoryTestDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/AccountService/DirectoryTest/',
    type: VendorDirectoryTestType,
    get: { privilege: Priv.login, handler: h.getTest },
    actions: [action(StartTestAction, Priv.managerConfig, h.postStart), action(StopTestAction, Priv.managerConfig, h.postStop)],
  });
}
