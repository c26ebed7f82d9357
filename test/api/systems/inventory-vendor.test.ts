// Issue 28, items 3 and 5: the vendor extensions ilorest serverinfo reads without a fallback:
// the memory collection's protection mode and per-processor boards, each fan's place and
// redundancy, each power supply's bay; from the hardware profile and the BIOS settings.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('inventory vendor extensions', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('sums the memory of each processor board and names the protection mode the BIOS runs with', async () => {
    const oem = (await svc.get(`${SYS}Memory/`)).body.Oem.Vendor;
    assert.equal(oem.AmpModeStatus, 'A3DC');
    // The default profile: 12 slots per processor, 6 filled with 32 GiB DDR4-2933.
    assert.deepEqual(oem.MemoryList, [
      {
        BoardCpuNumber: 1,
        BoardNumberOfSockets: 12,
        BoardOperationalFrequency: 2933,
        BoardOperationalVoltage: 1200,
        BoardTotalMemorySize: 196608,
      },
      {
        BoardCpuNumber: 2,
        BoardNumberOfSockets: 12,
        BoardOperationalFrequency: 2933,
        BoardOperationalVoltage: 1200,
        BoardTotalMemorySize: 196608,
      },
    ]);
    const r = await svc.req('PATCH', `${SYS}Bios/Settings/`, { body: { Attributes: { AdvancedMemProtection: 'AdvancedEcc' } } });
    assert.equal(r.status, 200);
    assert.equal((await svc.get(`${SYS}Memory/`)).body.Oem.Vendor.AmpModeStatus, 'A3DC', 'not before the reset');
    await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: 'On' } });
    await svc.clock.advance(7000);
    assert.equal((await svc.get(`${SYS}Memory/`)).body.Oem.Vendor.AmpModeStatus, 'AdvancedECC');
  });

  it('gives each fan its place and redundancy and each power supply its bay', async () => {
    const fans = (await svc.get('/redfish/v1/Chassis/1/Thermal/')).body.Fans;
    assert.deepEqual(
      fans.map((f: any) => [f.Oem.Vendor.Location, f.Oem.Vendor.Redundant, f.Oem.Vendor.HotPluggable]),
      fans.map(() => ['System', true, true]),
    );
    const psus = (await svc.get('/redfish/v1/Chassis/1/Power/')).body.PowerSupplies;
    assert.deepEqual(
      psus.map((p: any) => p.Oem.Vendor.BayNumber),
      [1, 2],
    );
  });

  it('rolls component health up per kind and shows the power settings and ROM the server runs with', async () => {
    let oem = (await svc.get(SYS)).body.Oem.Vendor;
    assert.equal(oem.AggregateHealthStatus.Processors.Status.Health, 'OK');
    assert.equal(oem.PowerAutoOn, 'Restore');
    assert.equal(oem.PowerOnDelay, 'Minimum');
    assert.match(oem.Bios.Current.VersionString, /^U30 v/);
    assert.equal(oem.Bios.Current.Family, 'U30');
    svc.running.services.health.set(componentKey.cpu(1), { Health: 'Critical' });
    try {
      oem = (await svc.get(SYS)).body.Oem.Vendor;
      assert.equal(oem.AggregateHealthStatus.Processors.Status.Health, 'Critical');
      assert.equal(oem.AggregateHealthStatus.BiosOrHardwareHealth.Status.Health, 'Critical');
      assert.equal(oem.AggregateHealthStatus.Memory.Status.Health, 'OK');
    } finally {
      svc.running.services.health.clear(componentKey.cpu(1));
    }
    // Fans, temperature sensors and the supplies' redundancy follow their components too.
    assert.deepEqual(
      [
        oem.AggregateHealthStatus.Fans.Status.Health,
        oem.AggregateHealthStatus.Temperatures.Status.Health,
        oem.AggregateHealthStatus.PowerSupplyRedundancy,
      ],
      ['OK', 'OK', 'Redundant'],
    );
    svc.running.services.health.set(componentKey.fan(1), { Health: 'Warning' });
    svc.running.services.health.set(componentKey.psu(2), { Health: 'Critical' });
    try {
      oem = (await svc.get(SYS)).body.Oem.Vendor;
      assert.equal(oem.AggregateHealthStatus.Fans.Status.Health, 'Warning');
      assert.equal(oem.AggregateHealthStatus.PowerSupplyRedundancy, 'FailedRedundant');
    } finally {
      svc.running.services.health.clear(componentKey.fan(1));
      svc.running.services.health.clear(componentKey.psu(2));
    }
    const r = await svc.req('PATCH', `${SYS}Bios/Settings/`, {
      body: { Attributes: { PowerOnDelay: 'Delay30Sec', AutoPowerOn: 'AlwaysPowerOn' } },
    });
    assert.equal(r.status, 200);
    const reset = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: 'ForceRestart' } });
    assert.equal(reset.status, 200, reset.text);
    await svc.clock.advance(60_000);
    oem = (await svc.get(SYS)).body.Oem.Vendor;
    assert.deepEqual([oem.PowerOnDelay, oem.PowerAutoOn, oem.PowerRegulatorMode], ['30', 'AlwaysPowerOn', 'Dynamic']);
  });

  it('identifies each processor by its CPUID signature, as the profile gives it', async () => {
    const id = (await svc.get(`${SYS}Processors/1/`)).body.ProcessorId;
    // Xeon Gold 6248R (Cascade Lake): family 6, model 0x55, stepping 7.
    assert.deepEqual(id, {
      VendorId: 'Intel(R) Corporation',
      IdentificationRegisters: '0x00050657',
      EffectiveFamily: '0x6',
      EffectiveModel: '0x55',
      Step: '0x7',
      MicrocodeInfo: null,
    });
  });
});
