// Issue 28 item 3 (iLO 6): the computer system's vendor extension as iLO's clients read it under
// --oem-name Hpe: the overall health and the OS agent's, the system ROM and its backup by version,
// the provisioning tool's, how far device discovery got as the server powers on and boots, the
// UID light; and no persistent memory.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('computer system vendor extension (iLO 6)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const system = async () => (await svc.get(SYS)).body;

  it('rolls every component up into AggregateServerHealth', async () => {
    assert.equal((await system()).Oem.Hpe.AggregateHealthStatus.AggregateServerHealth, 'OK');
    svc.running.services.health.set(componentKey.fan(2), { Health: 'Warning' });
    try {
      assert.equal((await system()).Oem.Hpe.AggregateHealthStatus.AggregateServerHealth, 'Warning');
    } finally {
      svc.running.services.health.clear(componentKey.fan(2));
    }
  });

  it('shows the system ROM and the redundant ROM of the firmware inventory, split into family and version', async () => {
    const bios = (await system()).Oem.Hpe.Bios;
    const inventory = (await svc.get('/redfish/v1/UpdateService/FirmwareInventory/?$expand=.')).body.Members;
    const installed = (name: string) => inventory.find((m: { Name: string }) => m.Name === name).Version;
    const split = (version: string) => {
      const [, family, major, minor] = /^(\S+) v(\d+)\.(\d+)$/.exec(version)!;
      return { Family: family, VersionString: version, MajorVersion: Number(major), MinorVersion: Number(minor) };
    };
    assert.deepEqual(bios.Current, split((await system()).BiosVersion));
    assert.deepEqual(bios.Backup, split(installed('Redundant System ROM')));
    assert.notEqual(bios.Backup.VersionString, bios.Current.VersionString);
  });

  it('names the Intelligent Provisioning version of the software inventory, on the system board', async () => {
    const software = (await svc.get('/redfish/v1/UpdateService/SoftwareInventory/?$expand=.')).body.Members;
    const provisioning = software.find((m: { Name: string }) => m.Name === 'Intelligent Provisioning');
    const oem = (await system()).Oem.Hpe;
    assert.deepEqual([oem.IntelligentProvisioningVersion, oem.IntelligentProvisioningLocation], [provisioning.Version, 'System Board']);
  });

  it('reports device discovery as the server powers on, runs POST and boots its OS', async () => {
    const discovery = async () => (await system()).Oem.Hpe.DeviceDiscoveryComplete;
    assert.deepEqual(await discovery(), {
      DeviceDiscovery: 'vAuxDeviceDiscoveryComplete',
      SmartArrayDiscovery: 'Cached',
      AMSDeviceDiscovery: 'NoAMS',
    });
    assert.equal((await system()).Oem.Hpe.AggregateHealthStatus.AgentlessManagementService, 'Unavailable');
    const on = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: 'On' } });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual(await discovery(), { DeviceDiscovery: 'Busy', SmartArrayDiscovery: 'Busy', AMSDeviceDiscovery: 'NoAMS' });
    await svc.clock.advance(2000); // powered on: POST starts
    assert.equal((await system()).Oem.Hpe.PostState, 'InPost');
    assert.equal((await discovery()).DeviceDiscovery, 'Busy');
    await svc.clock.advance(5000); // POST done, the OS runs
    assert.equal((await system()).PowerState, 'On');
    assert.deepEqual(await discovery(), {
      DeviceDiscovery: 'vMainDeviceDiscoveryComplete',
      SmartArrayDiscovery: 'Complete',
      AMSDeviceDiscovery: 'Complete',
    });
    assert.equal((await system()).Oem.Hpe.AggregateHealthStatus.AgentlessManagementService, 'Ready');
  });

  it('shows the UID light in the extension as in IndicatorLED', async () => {
    assert.equal((await system()).Oem.Hpe.IndicatorLED, 'Off');
    const r = await svc.req('PATCH', SYS, { body: { IndicatorLED: 'Lit' } });
    assert.ok(r.status < 300, r.text);
    const b = await system();
    assert.deepEqual([b.IndicatorLED, b.Oem.Hpe.IndicatorLED], ['Lit', 'Lit']);
  });

  it('has no persistent memory: every DIMM of the profile is volatile', async () => {
    const summary = (await system()).MemorySummary;
    assert.equal(summary.TotalSystemPersistentMemoryGiB, 0);
    assert.ok(svc.running.services.hardware.memory.every((m) => !m.present || m.type === 'DDR4' || m.type === 'DDR5'));
  });
});
