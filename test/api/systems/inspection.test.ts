// An Ironic-style hardware inspection over HTTPS, resource by resource as sushy
// walks them, for each shipped profile: CPU count and architecture, memory
// size, NIC MACs (with PXE-capable ports) and disk sizes, checked against the
// profile file and the identities the service's seed derives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveHardware } from '../../../src/platform/hardware/identity.js';
import { loadHardwareProfile, shippedProfileNames } from '../../../src/platform/hardware/profile.js';
import { startTestService, type TestService } from '../../support/service.js';

const ARCH: Record<string, string> = { x86: 'x86_64', ARM: 'aarch64' };

async function get(svc: TestService, uri: string): Promise<any> {
  const r = await svc.get(uri);
  assert.equal(r.status, 200, uri);
  return r.body;
}

async function each(svc: TestService, uri: string): Promise<any[]> {
  const c = await get(svc, uri);
  return Promise.all(c.Members.map((m: any) => get(svc, m['@odata.id'])));
}

/** What ironic's redfish inspect interface derives from sushy's view of the system. */
async function inspect(svc: TestService) {
  const root = await get(svc, '/redfish/v1/');
  const systems = await get(svc, root.Systems['@odata.id']);
  assert.equal(systems.Members.length, 1);
  const sys = await get(svc, systems.Members[0]['@odata.id']);
  const cpus = (await each(svc, sys.Processors['@odata.id'])).filter((p) => p.Status.State === 'Enabled');
  const nics = await each(svc, sys.EthernetInterfaces['@odata.id']);
  const simple = await each(svc, sys.SimpleStorage['@odata.id']);
  const disks = simple.flatMap((s) => s.Devices.filter((d: any) => d.Status.State === 'Enabled').map((d: any) => d.CapacityBytes));
  const drives: number[] = [];
  for (const st of await each(svc, sys.Storage['@odata.id'])) {
    for (const d of st.Drives) drives.push((await get(svc, d['@odata.id'])).CapacityBytes);
  }
  return {
    cpus: sys.ProcessorSummary.Count,
    cpuArch: ARCH[cpus[0].ProcessorArchitecture] ?? cpus[0].ProcessorArchitecture,
    threads: cpus.reduce((a, p) => a + p.TotalThreads, 0),
    memoryMb: sys.MemorySummary.TotalSystemMemoryGiB * 1024,
    macs: nics.filter((n) => n.Status.State === 'Enabled').map((n) => n.MACAddress),
    pxeMacs: nics.filter((n) => n.LinkStatus === 'LinkUp').map((n) => n.MACAddress),
    disks: disks.sort((a, b) => a - b),
    drives: drives.sort((a, b) => a - b),
    // local_gb: the largest disk, less a GiB for partitioning, in GiB.
    localGb: Math.floor(Math.max(...disks) / 2 ** 30) - 1,
  };
}

describe('Ironic-style inspection of every shipped profile', () => {
  for (const name of shippedProfileNames()) {
    it(`${name}: the inspected properties are the profile's`, async () => {
      const svc = await startTestService({ config: { hardware: name } });
      try {
        const profile = loadHardwareProfile(name);
        const hw = resolveHardware(profile, svc.running.services.serviceUuid);
        const got = await inspect(svc);
        const present = profile.processors.filter((p) => p.present);
        assert.equal(got.cpus, present.length);
        assert.equal(got.cpuArch, 'x86_64');
        assert.equal(
          got.threads,
          present.reduce((a, p) => a + p.threads, 0),
        );
        assert.equal(
          got.memoryMb,
          profile.memory.filter((d) => d.present).reduce((a, d) => a + d.sizeMiB, 0),
        );
        assert.deepEqual(
          got.macs,
          hw.nics.flatMap((n) => n.ports.map((p) => p.mac)),
        );
        assert.deepEqual(
          got.pxeMacs,
          hw.nics.flatMap((n) => n.ports.filter((p) => p.linkUp).map((p) => p.mac)),
        );
        const sizes = profile.storage.flatMap((c) => c.drives.map((d) => d.capacityBytes)).sort((a, b) => a - b);
        assert.deepEqual(got.drives, sizes);
        assert.deepEqual(got.disks, sizes);
        assert.ok(got.localGb > 0);
      } finally {
        await svc.close();
      }
    });
  }
});

describe('Ansible redfish_info-style inventories', () => {
  it('GetCpuInventory, GetMemoryInventory and GetNicInventory find their fields on every member', async () => {
    const svc = await startTestService();
    try {
      for (const p of await each(svc, '/redfish/v1/Systems/1/Processors/')) {
        for (const k of [
          'Id',
          'Name',
          'Manufacturer',
          'Model',
          'MaxSpeedMHz',
          'ProcessorArchitecture',
          'TotalCores',
          'TotalThreads',
          'Status',
        ])
          assert.ok(k in p, `Processor ${p.Id}: ${k}`);
      }
      const dimms = await each(svc, '/redfish/v1/Systems/1/Memory/');
      for (const m of dimms.filter((x) => x.Status.State === 'Enabled')) {
        for (const k of [
          'Id',
          'SerialNumber',
          'MemoryDeviceType',
          'PartNumber',
          'MemoryLocation',
          'RankCount',
          'CapacityMiB',
          'OperatingSpeedMhz',
        ])
          assert.ok(k in m, `Memory ${m.Id}: ${k}`);
      }
      for (const n of await each(svc, '/redfish/v1/Systems/1/EthernetInterfaces/')) {
        for (const k of ['Id', 'Name', 'MACAddress', 'PermanentMACAddress', 'SpeedMbps', 'LinkStatus', 'InterfaceEnabled', 'Status'])
          assert.ok(k in n, `EthernetInterface ${n.Id}: ${k}`);
      }
    } finally {
      await svc.close();
    }
  });
});
