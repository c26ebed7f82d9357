// Issue 3, point 2: privileges enforced on every route. A matrix of roles and
// single-privilege accounts x kinds of operation x Basic and session auth,
// and a walk of the route table proving every method declares a privilege.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { roleOf, STANDARD_PRIVILEGES, VENDOR_PRIVILEGES, type VendorPrivilege } from '../../src/lib/privileges.js';
import { actionPath, paramNamesOf } from '../../src/protocol/routes.js';
import { addMemberToEveryCollection } from '../support/members.js';
import { crawlRoutes } from '../support/route-walk.js';
import { ADMIN_PASSWORD, ADMIN_USER, messageIds, startTestService, type RequestOptions, type TestService } from '../support/service.js';
import { addComponent } from '../support/update-queue.js';

const PASSWORD = 'Matrix-Pass-1';

interface Principal {
  name: string;
  user: string;
  privileges: ReadonlySet<VendorPrivilege>;
}

interface Operation {
  kind: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path, or a function of the acting principal (own account). */
  path: string | ((p: Principal) => string);
  /** The body, or a function giving one valid in the current state. */
  body?: unknown | ((p: Principal) => Promise<unknown>);
  /** The vendor privilege it needs; 'Self' means any logged-in account on its own resource. */
  needs: VendorPrivilege | 'Self';
}

describe('privilege matrix', () => {
  let svc: TestService;
  const principals: Principal[] = [];
  const accountIds = new Map<string, string>();
  let targetUri = '';

  before(async () => {
    svc = await startTestService({ config: { maxSessions: 64 } });
    principals.push({ name: 'Administrator', user: ADMIN_USER, privileges: new Set(VENDOR_PRIVILEGES) });
    const add = async (name: string, user: string, privs: VendorPrivilege[], roleId?: string) => {
      const booleans = Object.fromEntries(VENDOR_PRIVILEGES.map((p) => [p, privs.includes(p)]));
      const RoleId = roleId ?? roleOf(booleans as Record<VendorPrivilege, boolean>);
      const body = roleId
        ? { UserName: user, Password: PASSWORD, RoleId }
        : { UserName: user, Password: PASSWORD, RoleId, Oem: { Vendor: { Privileges: booleans } } };
      const r = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', { body });
      assert.equal(r.status, 201, r.text);
      accountIds.set(user, r.body.Id);
      principals.push({
        name,
        user,
        privileges: new Set(
          Object.entries(r.body.Oem.Vendor.Privileges)
            .filter(([, v]) => v)
            .map(([k]) => k as VendorPrivilege),
        ),
      });
    };
    await add('Operator', 'm-operator', [], 'Operator');
    await add('ReadOnly', 'm-readonly', [], 'ReadOnly');
    for (const p of [
      'UserConfigPriv',
      'ManagerConfigPriv',
      'VirtualPowerAndResetPriv',
      'HostBIOSConfigPriv',
      'SystemRecoveryConfigPriv',
    ] as const) {
      await add(`only ${p}`, `m-${p.toLowerCase()}`, ['LoginPriv', p]);
    }
    const target = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'm-target', Password: PASSWORD, RoleId: 'ReadOnly' },
    });
    targetUri = target.headers.location as string;
    accountIds.set(ADMIN_USER, (await svc.get('/redfish/v1/AccountService/Accounts/1/')).body.Id);
  });
  after(() => svc.close());

  const operations: Operation[] = [
    { kind: 'read', method: 'GET', path: '/redfish/v1/AccountService/', needs: 'LoginPriv' },
    { kind: 'read', method: 'GET', path: '/redfish/v1/SessionService/Sessions/', needs: 'LoginPriv' },
    { kind: 'account admin', method: 'PATCH', path: () => targetUri, body: { Enabled: true }, needs: 'UserConfigPriv' },
    {
      kind: 'account policy',
      method: 'PATCH',
      path: '/redfish/v1/AccountService/',
      body: { MinPasswordLength: 8 },
      needs: 'UserConfigPriv',
    },
    {
      kind: 'own password',
      method: 'PATCH',
      path: (p) => `/redfish/v1/AccountService/Accounts/${accountIds.get(p.user)}/`,
      body: async (p: Principal) => ({ Password: p.user === ADMIN_USER ? ADMIN_PASSWORD : PASSWORD }),
      needs: 'Self',
    },
    {
      kind: 'manager config',
      method: 'PATCH',
      path: '/redfish/v1/Managers/1/SecurityService/CertificateAuthentication/',
      body: { CertificateLoginEnabled: false },
      needs: 'ManagerConfigPriv',
    },
    {
      kind: 'manager network',
      method: 'PATCH',
      path: '/redfish/v1/Managers/1/NetworkProtocol/',
      body: { HostName: 'mc-host' },
      needs: 'ManagerConfigPriv',
    },
    {
      kind: 'power/reset',
      method: 'POST',
      path: '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/',
      // Whatever applies to the power state now, so every allowed call can succeed.
      body: async () => ({
        ResetType: (await svc.get('/redfish/v1/Systems/1/', { auth: 'basic' })).body.PowerState === 'Off' ? 'On' : 'ForceOff',
      }),
      needs: 'VirtualPowerAndResetPriv',
    },
    {
      kind: 'BIOS write',
      method: 'PATCH',
      path: '/redfish/v1/Systems/1/Bios/Settings/',
      body: { Attributes: {} },
      needs: 'HostBIOSConfigPriv',
    },
    {
      kind: 'secure boot write',
      method: 'PATCH',
      path: '/redfish/v1/Systems/1/SecureBoot/',
      body: { SecureBootEnable: false },
      needs: 'HostBIOSConfigPriv',
    },
  ];

  for (const op of operations) {
    for (const mode of ['basic', 'session'] as const) {
      it(`${op.kind} (${op.method} ${typeof op.path === 'string' ? op.path : 'own account'}) with ${mode} auth`, async (t) => {
        if (typeof op.path === 'string' && !svc.running.services.routes.match(op.path)) {
          t.skip(`${op.path} is not implemented yet`);
          return;
        }
        for (const p of principals) {
          const password = p.user === ADMIN_USER ? ADMIN_PASSWORD : PASSWORD;
          const auth = mode === 'basic' ? { user: p.user, password } : { token: await svc.login(p.user, password) };
          const path = typeof op.path === 'string' ? op.path : op.path(p);
          const body = typeof op.body === 'function' ? await (op.body as (p: Principal) => Promise<unknown>)(p) : op.body;
          const r = await svc.req(op.method, path, { body, auth });
          const allowed = op.needs === 'Self' || p.privileges.has(op.needs);
          if (allowed) {
            assert.ok(r.status >= 200 && r.status < 300, `${p.name} should be allowed ${op.kind}: ${r.status} ${r.text}`);
          } else {
            assert.equal(r.status, 403, `${p.name} should be refused ${op.kind}: ${r.status} ${r.text}`);
            assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
          }
        }
      });
    }
  }

  for (const mode of ['basic', 'session'] as const) {
    it(`recovery install set writes need SystemRecoveryConfigPriv (with ManagerConfigPriv for install sets) with ${mode} auth`, async (t) => {
      const sets = '/redfish/v1/UpdateService/InstallSets/';
      if (!svc.running.services.routes.match(sets)) {
        t.skip(`${sets} is not implemented yet`);
        return;
      }
      let recovery: string | undefined;
      for (const m of (await svc.get(sets, { auth: 'basic' })).body?.Members ?? []) {
        if ((await svc.get(m['@odata.id'], { auth: 'basic' })).body?.IsRecovery === true) recovery = m['@odata.id'];
      }
      if (!recovery) {
        await addComponent(svc, { targets: ['IE'], version: '0.2.3.0', file: 'ie.fwpkg', criticality: 'Critical' });
        const body = {
          Name: 'Recovery',
          IsRecovery: true,
          Sequence: [{ Name: 'IE', UpdatableBy: ['Bmc'], Command: 'ApplyUpdate', Filename: 'ie.fwpkg' }],
        };
        const r = await svc.req('POST', sets, { body, auth: 'basic' });
        assert.equal(r.status, 201, r.text);
        recovery = r.headers.location;
      }
      assert.ok(recovery, 'a recovery install set');
      for (const p of principals) {
        const password = p.user === ADMIN_USER ? ADMIN_PASSWORD : PASSWORD;
        const auth = mode === 'basic' ? { user: p.user, password } : { token: await svc.login(p.user, password) };
        const r = await svc.req('PATCH', recovery, { body: { Description: `recovery set (${p.name})` }, auth });
        if (p.privileges.has('SystemRecoveryConfigPriv') && p.privileges.has('ManagerConfigPriv')) {
          assert.equal(r.status, 200, `${p.name}: ${r.text}`);
        } else {
          assert.equal(r.status, 403, `${p.name}: ${r.text}`);
          assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
        }
      }
    });
  }
});

/**
 * What each vendor privilege alone lets an account write, as the vendor documents it: the first rule
 * whose pattern matches "METHOD template" names the privileges any one of which grants the write.
 * Every write route must match a rule, so a new route needs a line here.
 */
const WRITE_POLICY: readonly (readonly [RegExp, readonly VendorPrivilege[]])[] = [
  [/\/VirtualMedia\//, ['VirtualMediaPriv']],
  // One-button secure erase ends with the controller's factory reset: controller configuration.
  [/^POST \/redfish\/v1\/Systems\/\{SystemId\}\/Actions\/Oem\/Vendor\/VendorComputerSystemExt\.SecureSystemErase\//, ['ManagerConfigPriv']],
  [
    /^POST \/redfish\/v1\/Systems\/\{SystemId\}\/SecureEraseReportService\/Actions\/VendorSecureEraseReportService\.DeleteSecureEraseReport\//,
    ['ManagerConfigPriv'],
  ],
  // A directory test is run by who configures the controller, as on the vendor's.
  [/^POST \/redfish\/v1\/AccountService\/DirectoryTest\//, ['ManagerConfigPriv']],
  [/\/Storage\//, ['HostStorageConfigPriv']],
  // iLO's array configuration documents, the same volumes as Storage.
  [/\/SmartStorageConfig\//, ['HostStorageConfigPriv']],
  [/\/LogServices\//, ['ManagerConfigPriv']],
  [/^POST \/redfish\/v1\/Systems\/\{SystemId\}\/Actions\//, ['VirtualPowerAndResetPriv']],
  // The server's identity and firmware settings: BIOS, Secure Boot, boot, AssetTag, the UID light.
  [/^\w+ \/redfish\/v1\/Systems\/\{SystemId\}\/(Bios\/|SecureBoot\/|$)/, ['HostBIOSConfigPriv']],
  [/^PATCH \/redfish\/v1\/Chassis\/\{ChassisId\}\/$/, ['HostBIOSConfigPriv']],
  // Power capping throttles the host: iLO's power settings (manager configuration) or power control.
  // The PowerLimit Control is the same limit.
  [/^PATCH \/redfish\/v1\/Chassis\/\{ChassisId\}\/(Power|Controls\/\{ControlId\})\/$/, ['ManagerConfigPriv', 'VirtualPowerAndResetPriv']],
  [/\/Chassis\/\{ChassisId\}\/Thermal(Subsystem)?\/Actions\//, ['ManagerConfigPriv']],
  [/ \/redfish\/v1\/AccountService\//, ['UserConfigPriv']],
  [
    / \/redfish\/v1\/(Managers|EventService|TelemetryService|UpdateService|CertificateService|TaskService|SessionService)\//,
    ['ManagerConfigPriv'],
  ],
];

describe('each vendor privilege alone, over every write of the route table', () => {
  let svc: TestService;
  const accounts: { privilege: VendorPrivilege; user: string }[] = [];
  before(async () => {
    svc = await startTestService({ config: { maxSessions: 64 } });
    await addMemberToEveryCollection(svc);
    for (const privilege of VENDOR_PRIVILEGES) {
      const booleans = Object.fromEntries(VENDOR_PRIVILEGES.map((p) => [p, p === 'LoginPriv' || p === privilege])) as Record<
        VendorPrivilege,
        boolean
      >;
      const user = `alone-${privilege.toLowerCase()}`;
      const body = { UserName: user, Password: PASSWORD, RoleId: roleOf(booleans), Oem: { Vendor: { Privileges: booleans } } };
      const r = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', { body });
      assert.equal(r.status, 201, r.text);
      accounts.push({ privilege, user });
    }
  });
  after(() => svc.close());

  it('grants each write to exactly the vendor privileges documented for it, and nothing broader', async () => {
    const known = await crawlRoutes(svc);
    const writes: { name: string; uri: string; method: string; granted: readonly VendorPrivilege[] }[] = [];
    const unplaced: string[] = [];
    const place = (name: string, uri: string, method: string) => {
      const granted = WRITE_POLICY.find(([pattern]) => pattern.test(name))?.[1];
      if (granted) writes.push({ name, uri, method, granted });
      else unplaced.push(name);
    };
    for (const route of svc.running.services.routes.routes()) {
      if (route.outside) continue;
      // A route without parameters has one URI, crawled or not (HttpPushUri is a plain string); of
      // the others, one that allows writing (PK's Signatures take no POST, db's do).
      const writableMatch = known.get(route)?.find((m) => !route.readOnlyFor?.(m.params));
      const match = writableMatch ?? (paramNamesOf(route.path).length ? undefined : { uri: route.path });
      const writable = ['post', 'patch', 'put', 'delete'].some((m) => route[m as 'post']) || route.actions?.length;
      if (!writable) continue;
      assert.ok(match, `the crawl reaches ${route.path}`);
      for (const m of ['post', 'patch', 'put', 'delete'] as const) {
        if (route[m] && !route[m].open) place(`${m.toUpperCase()} ${route.path}`, match.uri, m.toUpperCase());
      }
      for (const a of route.actions ?? []) place(`POST ${actionPath(route, a.def)}`, actionPath({ path: match.uri }, a.def), 'POST');
    }
    assert.deepEqual(unplaced, [], 'every write route has a rule in WRITE_POLICY');
    assert.ok(writes.length > 60, `${writes.length} writes`);

    const wrong: string[] = [];
    for (const { privilege, user } of accounts) {
      const auth = { user, password: PASSWORD };
      for (const w of writes) {
        // Defused: a body that is not JSON, or an If-Match no ETag matches. Privileges are checked
        // before either, so a permitted write is refused for its body (400) or precondition (412).
        const type = w.uri.endsWith('/upload/') ? 'multipart/form-data; boundary=x' : 'application/json';
        const o: RequestOptions =
          w.method === 'DELETE' ? { headers: { 'if-match': 'W/"none"' } } : { rawBody: '{', headers: { 'content-type': type } };
        const r = await svc.req(w.method, w.uri, { auth, ...o });
        const refused = r.status === 403 && messageIds(r.body).includes('Base.1.12.InsufficientPrivilege');
        const expected = w.granted.includes(privilege);
        if (refused === expected || (!refused && r.status < 400))
          wrong.push(`${privilege} alone: ${w.name} -> ${r.status} ${messageIds(r.body)}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('lets VirtualMediaPriv or HostNICConfigPriv alone change neither the power limit nor the AssetTag nor the UID light', async () => {
    const chassis = '/redfish/v1/Chassis/1/';
    const before = (await svc.get(chassis)).body;
    const limit = (await svc.get(`${chassis}Power/`)).body.PowerControl[0].PowerLimit.LimitInWatts;
    for (const privilege of ['VirtualMediaPriv', 'HostNICConfigPriv'] as const) {
      const auth = { user: `alone-${privilege.toLowerCase()}`, password: PASSWORD };
      const writes = [
        svc.req('PATCH', `${chassis}Power/`, { auth, body: { PowerControl: [{ PowerLimit: { LimitInWatts: 300 } }] } }),
        svc.req('PATCH', chassis, { auth, body: { AssetTag: 'stolen' } }),
        svc.req('PATCH', chassis, { auth, body: { LocationIndicatorActive: !before.LocationIndicatorActive } }),
      ];
      for (const r of await Promise.all(writes)) assert.equal(r.status, 403, `${privilege}: ${r.text}`);
    }
    const after = (await svc.get(chassis)).body;
    assert.equal(after.AssetTag, before.AssetTag);
    assert.equal(after.LocationIndicatorActive, before.LocationIndicatorActive);
    assert.equal((await svc.get(`${chassis}Power/`)).body.PowerControl[0].PowerLimit.LimitInWatts, limit);
  });
});

describe('route table', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('declares a privilege rule for every method and action, and a body description for every write', () => {
    const problems: string[] = [];
    const known = new Set<string>([...STANDARD_PRIVILEGES, ...VENDOR_PRIVILEGES]);
    const checkRule = (where: string, rule: unknown, open: boolean) => {
      if (!Array.isArray(rule) || rule.length === 0) return problems.push(`${where}: no privilege rule`);
      for (const alt of rule) {
        if (!Array.isArray(alt)) return problems.push(`${where}: malformed rule`);
        if (alt.length === 0 && !open) problems.push(`${where}: empty privilege alternative on a non-open method`);
        for (const p of alt) if (!known.has(p as string)) problems.push(`${where}: unknown privilege ${String(p)}`);
      }
      return undefined;
    };
    const routes = svc.running.services.routes.routes();
    assert.ok(routes.length > 20);
    for (const r of routes) {
      const open = r.open === true;
      for (const m of ['get', 'post', 'patch', 'put', 'delete'] as const) {
        const spec = r[m];
        if (!spec) continue;
        checkRule(`${m.toUpperCase()} ${r.path}`, spec.privilege, open || spec.open === true);
        if (m === 'post' || m === 'patch' || m === 'put') {
          const w = r[m];
          const described = w?.stream || w?.body || (m === 'post' ? r.type?.memberType : r.type);
          if (!described) problems.push(`${m.toUpperCase()} ${r.path}: no body description`);
        }
      }
      for (const a of r.actions ?? []) {
        checkRule(`POST ${actionPath(r, a.def)}`, a.privilege, false);
        if (typeof a.def.parameters !== 'object') problems.push(`${a.def.name}: no parameters description`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it('answers 403 InsufficientPrivilege, not 401, to an authenticated caller lacking the privilege', async () => {
    await svc.req('POST', '/redfish/v1/AccountService/Accounts/', { body: { UserName: 'weak', Password: PASSWORD, RoleId: 'ReadOnly' } });
    const r = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: 'weak2', Password: PASSWORD, RoleId: 'Administrator' },
      auth: { user: 'weak', password: PASSWORD },
    });
    assert.equal(r.status, 403);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.InsufficientPrivilege']);
  });
});
