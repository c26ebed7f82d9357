// Fleet mode: many independent controllers in one process, each on its own
// address or port, with its own state and identity, certificates from one
// fleet CA, and the factory state a manifest gives each group.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Agent, request } from 'undici';
import { parseConfig } from '../../src/config.js';
import { fleetUuid, planFleet, startFleet, type RunningFleet } from '../../src/fleet/fleet.js';
import { FleetManifestError, parseFleetManifest } from '../../src/fleet/manifest.js';
import { ManualClock } from '../../src/platform/clock.js';
import { fleetConfig } from '../support/fleet.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic } from '../support/service.js';
import { waitUntil } from '../support/wait.js';

const silent = pino({ level: 'silent' });

interface Client {
  req(i: number, method: string, path: string, body?: unknown, auth?: string): Promise<{ status: number; body: any }>;
}

/** A client that trusts only the fleet's CA, and checks each controller's name against its certificate. */
function client(fleet: RunningFleet): Client {
  const agent = new Agent({ connect: { ca: fleet.caPem }, keepAliveTimeout: 500 });
  return {
    async req(i, method, path, body, auth = basic(ADMIN_USER, ADMIN_PASSWORD)) {
      const res = await request(fleet.url(i) + path, {
        method: method as 'GET',
        headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        dispatcher: agent,
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
    },
  };
}

/** N consecutive free TCP ports on 127.0.0.1 (checked free, then released). */
async function freePorts(n: number): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 40_000);
    const servers = [];
    let ok = true;
    for (let i = 0; i < n && ok; i++) {
      const s = createServer();
      ok = await new Promise<boolean>((res) => {
        s.once('error', () => res(false));
        s.listen(base + i, '127.0.0.1', () => res(true));
      });
      servers.push(s);
    }
    await Promise.all(servers.map((s) => new Promise((r) => (s.listening ? s.close(r) : r(undefined)))));
    if (ok) return base;
  }
  throw new Error('no free port range');
}

describe('a fleet of controllers in one process', () => {
  let dir: string;
  let fleet: RunningFleet;
  let c: Client;
  const clocks = new Map<number, ManualClock>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-'));
    // Address mode: 127.0.1.x, each on a port of its own choosing (0) so parallel test runs never collide.
    fleet = await startFleet(fleetConfig(dir, { fleet: 3, fleetAddresses: '127.0.1.1', port: 0, enableControl: true }), {
      logger: silent,
      clock: (index) => {
        const clock = new ManualClock(Date.parse('2026-06-01T00:00:00Z'));
        clocks.set(index, clock);
        return clock;
      },
    });
    c = client(fleet);
  });
  after(async () => {
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives each controller its own address, under the fleet CA, with the same administrator', async () => {
    assert.deepEqual(
      fleet.members.map((m) => m.host),
      ['127.0.1.1', '127.0.1.2', '127.0.1.3'],
    );
    for (let i = 0; i < 3; i++) {
      assert.ok(fleet.url(i).startsWith(`https://127.0.1.${i + 1}:`), fleet.url(i));
      // The agent trusts only the fleet CA and checks the address against the certificate.
      const root = await c.req(i, 'GET', '/redfish/v1/');
      assert.equal(root.status, 200);
    }
    assert.equal((await c.req(1, 'GET', '/redfish/v1/Systems/1/', undefined, basic(ADMIN_USER, 'wrong-password'))).status, 401);
  });

  it('derives UUIDs, serial numbers and MACs from the index: different per controller', async () => {
    const seen = { uuid: new Set(), serial: new Set(), mac: new Set() };
    for (let i = 0; i < 3; i++) {
      const root = (await c.req(i, 'GET', '/redfish/v1/')).body;
      assert.equal(root.UUID, fleetUuid(i));
      const sys = (await c.req(i, 'GET', '/redfish/v1/Systems/1/')).body;
      const nic = (await c.req(i, 'GET', '/redfish/v1/Systems/1/EthernetInterfaces/1/')).body;
      seen.uuid.add(sys.UUID);
      seen.serial.add(sys.SerialNumber);
      seen.mac.add(nic.MACAddress);
    }
    assert.equal(seen.uuid.size, 3);
    assert.equal(seen.serial.size, 3);
    assert.equal(seen.mac.size, 3);
  });

  it('keeps state apart: a BIOS change, an account and a boot override stay on their controller', async () => {
    const patch = await c.req(0, 'PATCH', '/redfish/v1/Systems/1/', {
      Boot: { BootSourceOverrideTarget: 'Pxe', BootSourceOverrideEnabled: 'Once' },
    });
    assert.ok(patch.status < 300, JSON.stringify(patch.body));
    const made = await c.req(2, 'POST', '/redfish/v1/AccountService/Accounts/', {
      UserName: 'only-on-2',
      Password: 'Only-On-2-pass',
      RoleId: 'Operator',
    });
    assert.equal(made.status, 201);
    const bios = await c.req(1, 'PATCH', '/redfish/v1/Systems/1/Bios/Settings/', { Attributes: { UsbBoot: 'Disabled' } });
    assert.ok(bios.status < 300, JSON.stringify(bios.body));

    assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/')).body.Boot.BootSourceOverrideTarget, 'Pxe');
    assert.notEqual((await c.req(1, 'GET', '/redfish/v1/Systems/1/')).body.Boot.BootSourceOverrideTarget, 'Pxe');
    const names = async (i: number) => {
      const members = (await c.req(i, 'GET', '/redfish/v1/AccountService/Accounts/?$expand=.')).body.Members;
      return members.map((m: any) => m.UserName);
    };
    assert.ok((await names(2)).includes('only-on-2'));
    assert.ok(!(await names(0)).includes('only-on-2'));
    assert.equal((await c.req(1, 'GET', '/redfish/v1/Systems/1/Bios/Settings/')).body.Attributes.UsbBoot, 'Disabled');
    assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/Bios/Settings/')).body.Attributes.UsbBoot, 'Enabled');
  });

  it("answers a collection's members and a setting's default from each controller's own store (the code under them is shared)", async () => {
    const groups = '/redfish/v1/Managers/1/FederationGroups/';
    const made = await c.req(1, 'POST', groups, { Name: 'only-on-1', Key: 'only-on-1-key' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const uri = `${groups}only-on-1/`;
    const status = async (i: number) => (await c.req(i, 'GET', uri)).status;
    const names = async (i: number) => {
      const members = (await c.req(i, 'GET', `${groups}?$expand=.`)).body.Members;
      return members.map((m: any) => m.Name);
    };
    // Its member resolver, GET, PATCH and DELETE ask the controller's own store.
    assert.deepEqual([await status(0), await status(1), await status(2)], [404, 200, 404]);
    assert.equal((await c.req(2, 'DELETE', uri)).status, 404);
    assert.equal((await c.req(0, 'PATCH', uri, { Key: 'other' })).status, 404);
    assert.ok((await c.req(1, 'PATCH', uri, { Key: 'changed-key' })).status < 300);
    assert.deepEqual([(await names(0)).includes('only-on-1'), (await names(1)).includes('only-on-1')], [false, true]);
    assert.equal((await c.req(1, 'DELETE', uri)).status < 300, true);
    assert.equal(await status(1), 404);
    // A setting never written is its default on each, and one controller's write is its own.
    const tag = (i: number) => c.req(i, 'GET', '/redfish/v1/Systems/1/').then((r) => r.body.AssetTag);
    assert.ok((await c.req(2, 'PATCH', '/redfish/v1/Systems/1/', { AssetTag: 'rack-2' })).status < 300);
    assert.deepEqual([await tag(0), await tag(1), await tag(2)], ['', '', 'rack-2']);
  });

  it('resets one controller alone: Manager.Reset ends its sessions, not the others', async () => {
    const login = async (i: number) => {
      const agent = new Agent({ connect: { ca: fleet.caPem } });
      const res = await request(`${fleet.url(i)}/redfish/v1/SessionService/Sessions/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ UserName: ADMIN_USER, Password: ADMIN_PASSWORD }),
        dispatcher: agent,
      });
      await res.body.text();
      assert.equal(res.statusCode, 201);
      return res.headers['x-auth-token'] as string;
    };
    const t0 = await login(0);
    const t1 = await login(1);
    const reset = await c.req(1, 'POST', '/redfish/v1/Managers/1/Actions/Manager.Reset/', { ResetType: 'GracefulRestart' });
    assert.ok(reset.status < 300, JSON.stringify(reset.body));
    const agent = new Agent({ connect: { ca: fleet.caPem } });
    const probe = async (i: number, token: string) => {
      const res = await request(`${fleet.url(i)}/redfish/v1/SessionService/Sessions/`, {
        headers: { 'x-auth-token': token },
        dispatcher: agent,
      });
      await res.body.text();
      return res.statusCode;
    };
    await waitUntil(async () => (await probe(1, t1)) === 401, 'controller 1 to end its sessions');
    assert.equal(await probe(0, t0), 200);
  });

  it('a fault rule targets the controllers it names, each keeping its own copy', async () => {
    const SYS = '/redfish/v1/Systems/1/';
    const made = await c.req(1, 'POST', '/control/faults/rules/', { Match: { Uri: SYS }, Action: { Status: 503 }, Controllers: [0, 2] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(await Promise.all([0, 1, 2].map(async (i) => (await c.req(i, 'GET', SYS)).status)), [503, 200, 503]);
    assert.equal((await c.req(0, 'GET', `/control/faults/rules/${made.body.Id}/`)).body.Fired, 1);
    for (const i of [0, 2]) assert.equal((await c.req(i, 'DELETE', `/control/faults/rules/${made.body.Id}/`)).status, 200);
    const unknown = await c.req(0, 'POST', '/control/faults/rules/', { Match: { Uri: SYS }, Action: { Status: 503 }, Controllers: [7] });
    assert.equal(unknown.status, 400);
  });

  it('a controller reset takes that controller away alone', async () => {
    const r = await c.req(2, 'POST', '/control/controller/reset', { OfflineSeconds: 5, BootingSeconds: 5 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await assert.rejects(c.req(2, 'GET', '/redfish/v1/'), /ECONNREFUSED|other side closed|socket/i);
    assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/')).status, 200);
    await clocks.get(2)!.advance(5_000);
    assert.equal((await c.req(2, 'GET', '/redfish/v1/Systems/1/')).status, 503);
    await clocks.get(2)!.advance(5_000);
    assert.equal((await c.req(2, 'GET', '/redfish/v1/Systems/1/')).status, 200);
  });

  it('lists the fleet on GET /control/fleet/ from any controller: address, power and health', async () => {
    await c.req(2, 'POST', '/control/faults/', { Fault: 'FanFailure' });
    const list = await c.req(1, 'GET', '/control/fleet/');
    assert.equal(list.status, 200);
    assert.equal(list.body.Controllers, 3);
    assert.deepEqual(
      list.body.Members.map((m: any) => [m.Index, m.Address, m.PowerState]),
      [
        [0, '127.0.1.1', 'Off'],
        [1, '127.0.1.2', 'Off'],
        [2, '127.0.1.3', 'Off'],
      ],
    );
    assert.equal(list.body.Members[0].Health, 'OK');
    // The failed fan is Critical itself, and the system's rollup shows it.
    assert.equal(list.body.Members[2].Health, 'Critical');
    assert.equal(list.body.Members[1].Health, 'OK');
    assert.equal(list.body.Members[1].ServiceRoot, `${fleet.url(1)}/redfish/v1/`);
    // Administrators only, like the rest of /control/.
    await c.req(0, 'POST', '/redfish/v1/AccountService/Accounts/', { UserName: 'ro', Password: 'Read-Only-pass1', RoleId: 'ReadOnly' });
    assert.equal((await c.req(0, 'GET', '/control/fleet/', undefined, basic('ro', 'Read-Only-pass1'))).status, 403);
  });
});

describe('discovery of a fleet', () => {
  it('answers one SSDP search with one answer per controller, each with its own UUID and service root', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-ssdp-'));
    const udpPort = await new Promise<number>((resolve) => {
      const s = createSocket('udp4');
      s.bind(0, '127.0.0.1', () => {
        const { port } = s.address();
        s.close(() => resolve(port));
      });
    });
    const fleet = await startFleet(fleetConfig(dir, { fleet: 3, fleetAddresses: '127.0.2.1', port: 0, ssdpPort: udpPort }), {
      logger: silent,
    });
    const searcher = createSocket('udp4');
    try {
      const answers: string[] = [];
      searcher.on('message', (m) => answers.push(m.toString()));
      await new Promise<void>((r) => searcher.bind(0, '127.0.0.1', () => r()));
      const msg = `M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:${udpPort}\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: ssdp:all\r\n\r\n`;
      searcher.send(msg, udpPort, '127.0.0.1');
      await waitUntil(() => answers.length >= 3, 'three SSDP answers');
      const usn = answers.map((a) => /USN: uuid:([0-9a-f-]+)::/.exec(a)?.[1]).sort();
      assert.deepEqual(usn, [0, 1, 2].map((i) => fleetUuid(i)).sort());
      const locations = answers.map((a) => /AL: (\S+)/.exec(a)?.[1]).sort();
      assert.deepEqual(locations, [0, 1, 2].map((i) => `${fleet.url(i)}/redfish/v1/`).sort());
    } finally {
      searcher.close();
      await fleet.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fleet manifests, shards and restarts', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-m-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('builds each group as the manifest says, and a shard takes its own indexes of it', async () => {
    const manifest = join(dir, 'fleet.yaml');
    writeFileSync(
      manifest,
      [
        'groups:',
        '  - count: 2',
        '    hardware: vs360-gen10',
        '    firmware: { BMC: "1.10", SystemROM: "U30 v1.90" }',
        '  - count: 2',
        '    hardware: vs380-gen10-nvme',
        '    power: On',
        '    license: Advanced',
        '',
      ].join('\n'),
    );
    const data = join(dir, 'shard');
    // This shard serves indexes 1..2: the last old server and the first new one.
    const base = await freePorts(4);
    const config = fleetConfig(data, { fleetManifest: manifest, fleet: 2, fleetIndexOffset: 1, port: base });
    let fleet = await startFleet(config, { logger: silent });
    try {
      assert.deepEqual(
        fleet.members.map((m) => [m.index, m.port, m.group]),
        [
          [1, base + 1, 0],
          [2, base + 2, 1],
        ],
      );
      const c = client(fleet);
      const old = (await c.req(0, 'GET', '/redfish/v1/Managers/1/')).body;
      assert.equal(old.FirmwareVersion, '1.10');
      assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/')).body.Model, 'VS360 Gen10');
      assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/')).body.BiosVersion, 'U30 v1.90');
      assert.equal((await c.req(0, 'GET', '/redfish/v1/')).body.UUID, fleetUuid(1));
      const fresh = (await c.req(1, 'GET', '/redfish/v1/Managers/1/')).body;
      assert.notEqual(fresh.FirmwareVersion, '1.10');
      assert.equal((await c.req(1, 'GET', '/redfish/v1/Systems/1/')).body.Model, 'VS380 Gen10 Plus');
      // Powered on at the factory: it boots through POST like any power-on.
      await waitUntil(
        async () => (await c.req(1, 'GET', '/redfish/v1/Systems/1/')).body.PowerState === 'On',
        'the new server to be on',
        30_000,
        50,
      );
      assert.equal((await c.req(0, 'GET', '/redfish/v1/Systems/1/')).body.PowerState, 'Off');
      const lic = await c.req(1, 'GET', '/redfish/v1/Managers/1/LicenseService/1/');
      assert.equal(lic.status, 200);
      assert.match(JSON.stringify(lic.body), /Advanced/);

      // A change made later survives a restart; the manifest's factory state is not applied again.
      const patched = await c.req(0, 'PATCH', '/redfish/v1/Systems/1/', { AssetTag: 'rack-7' });
      assert.ok(patched.status < 300);
      await fleet.close();
      fleet = await startFleet(config, { logger: silent });
      const again = client(fleet);
      assert.equal((await again.req(0, 'GET', '/redfish/v1/Systems/1/')).body.AssetTag, 'rack-7');
      assert.equal((await again.req(0, 'GET', '/redfish/v1/')).body.UUID, fleetUuid(1));
      assert.equal((await again.req(0, 'GET', '/redfish/v1/Managers/1/')).body.FirmwareVersion, '1.10');
    } finally {
      await fleet.close();
    }
  });

  it('plans ports and addresses from the global index, and refuses indexes the manifest does not have', () => {
    const manifest = join(dir, 'three.yaml');
    writeFileSync(manifest, 'groups:\n  - count: 3\n');
    const plan = planFleet(parseConfig(['--fleet-manifest', manifest, '--fleet-index-offset', '1', '--port', '9000'], {}));
    assert.deepEqual(
      plan.map((m) => [m.index, m.port]),
      [
        [1, 9001],
        [2, 9002],
      ],
    );
    const byAddress = planFleet(parseConfig(['--fleet', '2', '--fleet-index-offset', '254', '--fleet-addresses', '10.0.0.1'], {}));
    assert.deepEqual(
      byAddress.map((m) => m.host),
      ['10.0.0.255', '10.0.1.0'],
    );
    assert.throws(
      () => planFleet(parseConfig(['--fleet-manifest', manifest, '--fleet', '3', '--fleet-index-offset', '1'], {})),
      FleetManifestError,
    );
    assert.throws(() => parseConfig(['--fleet', '0'], {}), /at least 1/);
    assert.throws(() => parseConfig(['--fleet', '10', '--port', '65530'], {}), /past port 65535/);
    assert.throws(() => parseConfig(['--fleet-index-offset', '3'], {}), /need --fleet/);
    assert.throws(() => parseConfig(['--fleet', '2', '--fleet-addresses', '300.1.1.1'], {}), /IPv4/);
  });

  it('names the group and field of a bad manifest', () => {
    const bad = (text: string) => () => parseFleetManifest(text, false, 'default', dir);
    assert.throws(bad('groups: []'), /non-empty list/);
    assert.throws(bad('groups:\n  - count: 0'), /groups\[0\]\.count/);
    assert.throws(bad('groups:\n  - count: 1\n  - count: 2\n    power: Maybe'), /groups\[1\]\.power: expected On or Off/);
    assert.throws(bad('groups:\n  - count: 1\n    firmware: { Toaster: "1" }'), /groups\[0\]\.firmware\.Toaster: not a device class/);
    assert.throws(bad('groups:\n  - count: 1\n    license: Gold'), /groups\[0\]\.license/);
    assert.throws(bad('groups:\n  - count: 1\n    colour: red'), /groups\[0\]\.colour: not a group field/);
    assert.throws(bad('servers: 3'), /one key, groups/);
    assert.throws(bad('groups: [ {count: 1'), /not valid YAML/);
  });
});
