// Hardware inventory over HTTPS: processors, memory, the system's Ethernet
// interfaces, the chassis' network adapters and PCIe devices, from the
// hardware profile; summaries, identities and the fields inspection reads.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bootHost, powerOff } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const CH = '/redfish/v1/Chassis/1/';

/** Every member of a collection, read one by one. */
async function members(svc: TestService, uri: string): Promise<any[]> {
  const c = await svc.get(uri);
  assert.equal(c.status, 200, uri);
  assert.equal(c.body['Members@odata.count'], c.body.Members.length);
  const out = [];
  for (const m of c.body.Members as { '@odata.id': string }[]) {
    const r = await svc.get(m['@odata.id']);
    assert.equal(r.status, 200, m['@odata.id']);
    assert.equal(r.body['@odata.id'], m['@odata.id']);
    out.push(r.body);
  }
  return out;
}

/** What Ironic's inspection (through sushy) reads: CPU count and architecture, memory size, NIC MACs. */
async function inspect(svc: TestService) {
  const sys = (await svc.get(SYS)).body;
  const cpus = await members(svc, sys.Processors['@odata.id']);
  const nics = await members(svc, sys.EthernetInterfaces['@odata.id']);
  return {
    cpuCount: sys.ProcessorSummary.Count,
    threads: cpus.filter((c) => c.Status.State === 'Enabled').reduce((a, c) => a + c.TotalThreads, 0),
    arch: cpus.find((c) => c.Status.State === 'Enabled')?.ProcessorArchitecture,
    memoryMiB: sys.MemorySummary.TotalSystemMemoryGiB * 1024,
    macs: nics.filter((n) => n.Status.State === 'Enabled').map((n) => n.MACAddress as string),
  };
}

describe('hardware inventory (default profile)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('keeps the system the service showed before profiles: model, 2 x 24 cores, 384 GiB', async () => {
    const b = (await svc.get(SYS)).body;
    assert.equal(b.Model, 'VS380 Gen10');
    assert.equal(b.SKU, 'P19720-B21');
    assert.equal(b.Manufacturer, 'Vendor');
    assert.deepEqual(
      [b.ProcessorSummary.Count, b.ProcessorSummary.CoreCount, b.ProcessorSummary.LogicalProcessorCount, b.ProcessorSummary.Model],
      [2, 48, 96, 'Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz'],
    );
    assert.equal(b.MemorySummary.TotalSystemMemoryGiB, 384);
    const ch = (await svc.get(CH)).body;
    assert.deepEqual([ch.Manufacturer, ch.Model, ch.HeightMm], ['Vendor', 'VS380 Gen10', 88.9]);
    // Network boot on port 1 of each NIC, as the boot options offer PXE there.
    const attrs = (await svc.get(`${SYS}Bios/`)).body.Attributes;
    assert.deepEqual(
      [attrs.EmbNicPort1Boot, attrs.EmbNicPort2Boot, attrs.Slot1NicPort1Boot, attrs.Slot1NicPort2Boot, attrs.EmbeddedSata],
      ['NetworkBoot', 'Disabled', 'NetworkBoot', 'Disabled', 'SataAhci'],
    );
  });

  it('links every inventory collection from the system and the chassis', async () => {
    const sys = (await svc.get(SYS)).body;
    assert.equal(sys.Processors['@odata.id'], `${SYS}Processors/`);
    assert.equal(sys.Memory['@odata.id'], `${SYS}Memory/`);
    assert.equal(sys.EthernetInterfaces['@odata.id'], `${SYS}EthernetInterfaces/`);
    assert.equal(sys['PCIeDevices@odata.count'], 3);
    for (const l of sys.PCIeDevices) assert.equal((await svc.get(l['@odata.id'])).status, 200);
    const ch = (await svc.get(CH)).body;
    assert.equal(ch.NetworkAdapters['@odata.id'], `${CH}NetworkAdapters/`);
    assert.equal(ch.PCIeDevices['@odata.id'], `${CH}PCIeDevices/`);
    assert.deepEqual(
      (await svc.get(ch.PCIeDevices['@odata.id'])).body.Members,
      sys.PCIeDevices,
      'the system links exactly the chassis PCIe devices',
    );
  });

  it('serves processors as DMTF Processor with the summary their sum', async () => {
    const cpus = await members(svc, `${SYS}Processors/`);
    const sys = (await svc.get(SYS)).body;
    assert.equal(cpus.length, 2);
    const c = cpus[0];
    assert.equal(c['@odata.type'], '#Processor.v1_22_0.Processor');
    assert.deepEqual(
      [c.Id, c.Socket, c.ProcessorType, c.ProcessorArchitecture, c.InstructionSet, c.Manufacturer],
      ['1', 'Proc 1', 'CPU', 'x86', 'x86-64', 'Intel(R) Corporation'],
    );
    assert.deepEqual([c.TotalCores, c.TotalThreads, c.MaxSpeedMHz, c.OperatingSpeedMHz], [24, 48, 4000, 3000]);
    assert.deepEqual(c.Status, { State: 'Enabled', Health: 'OK' });
    assert.deepEqual(
      c.Oem.Vendor.Cache.map((x: any) => [x.Name, x.InstalledSizeKB, x.MaximumSizeKB, x.Socketed]),
      [
        ['L1-Cache', 1536, 1536, false],
        ['L2-Cache', 24576, 24576, false],
        ['L3-Cache', 36608, 36608, false],
      ],
    );
    const present = cpus.filter((x) => x.Status.State === 'Enabled');
    assert.equal(sys.ProcessorSummary.Count, present.length);
    assert.equal(
      sys.ProcessorSummary.CoreCount,
      present.reduce((a, x) => a + x.TotalCores, 0),
    );
    assert.equal(
      sys.ProcessorSummary.LogicalProcessorCount,
      present.reduce((a, x) => a + x.TotalThreads, 0),
    );
  });

  it('serves every DIMM slot as DMTF Memory, empty ones Absent, the summary their sum', async () => {
    const dimms = await members(svc, `${SYS}Memory/`);
    assert.equal(dimms.length, 24);
    const m = dimms.find((x) => x.Id === 'proc1dimm1');
    assert.equal(m['@odata.type'], '#Memory.v1_23_0.Memory');
    assert.deepEqual(
      [m.DeviceLocator, m.CapacityMiB, m.MemoryDeviceType, m.OperatingSpeedMhz, m.RankCount, m.ErrorCorrection, m.Manufacturer],
      ['PROC 1 DIMM 1', 32768, 'DDR4', 2933, 2, 'MultiBitECC', 'Samsung'],
    );
    assert.deepEqual(m.MemoryLocation, { Socket: 1, Slot: 1 });
    // Plain DRAM: all of it volatile.
    assert.deepEqual(
      [
        m.MemoryMedia,
        m.OperatingMemoryModes,
        m.VolatileSizeMiB,
        m.NonVolatileSizeMiB,
        m.VolatileRegionSizeLimitMiB,
        m.PersistentRegionSizeLimitMiB,
      ],
      [['DRAM'], ['Volatile'], 32768, 0, 32768, 0],
    );
    assert.match(m.SerialNumber, /^[0-9A-F]{8}$/);
    const empty = dimms.find((x) => x.Id === 'proc1dimm2');
    assert.deepEqual(empty.Status, { State: 'Absent' });
    // As iLO shows an empty slot: no module, so no capacity (0) and no maker.
    assert.deepEqual([empty.CapacityMiB, empty.Manufacturer], [0, undefined]);
    assert.equal(empty.Oem.Vendor.DIMMStatus, 'NotPresent');
    const total = dimms.filter((x) => x.Status.State !== 'Absent').reduce((a, x) => a + x.CapacityMiB, 0);
    assert.equal((await svc.get(SYS)).body.MemorySummary.TotalSystemMemoryGiB, total / 1024);
    assert.equal(new Set(dimms.filter((x) => x.SerialNumber).map((x) => x.SerialNumber)).size, 12);
  });

  it('serves one system EthernetInterface per NIC port, with the MAC its NetworkAdapter port shows', async () => {
    const ifaces = await members(svc, `${SYS}EthernetInterfaces/`);
    assert.equal(ifaces.length, 6);
    const e = ifaces[0];
    assert.equal(e['@odata.type'], '#EthernetInterface.v1_12_4.EthernetInterface');
    assert.match(e.MACAddress, /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/);
    assert.equal(e.PermanentMACAddress, e.MACAddress);
    assert.deepEqual([e.LinkStatus, e.SpeedMbps, e.InterfaceEnabled], ['LinkUp', 1000, true]);
    assert.deepEqual([ifaces[1].LinkStatus, ifaces[1].SpeedMbps], ['LinkDown', null]);
    assert.equal(ifaces[4].SpeedMbps, 25000);
    assert.equal(new Set(ifaces.map((x) => x.MACAddress)).size, 6);
    for (const i of ifaces) {
      const port = await svc.get(i.Links.Ports[0]['@odata.id']);
      assert.equal(port.status, 200);
      assert.deepEqual(port.body.Ethernet.AssociatedMACAddresses, [i.MACAddress]);
      assert.equal(port.body.LinkStatus, i.LinkStatus);
    }
  });

  it("shows the running OS's host name, FQDN, IPv4 address and DNS servers on each interface; nothing while it is down", async () => {
    let ifaces = await members(svc, `${SYS}EthernetInterfaces/`);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.ServerFQDN, undefined);
    for (const i of ifaces) {
      assert.deepEqual([i.HostName, i.FQDN, i.IPv4Addresses, i.NameServers], [null, null, [], []], i.Id);
    }
    await bootHost(svc);
    const host = (await svc.get(SYS)).body.HostName as string;
    assert.match(host, /^host-/);
    assert.equal((await svc.get(SYS)).body.Oem.Vendor.ServerFQDN, `${host}.lab.internal`);
    ifaces = await members(svc, `${SYS}EthernetInterfaces/`);
    const seen = new Set<string>();
    for (const i of ifaces) {
      assert.equal(i.HostName, host, i.Id);
      assert.equal(i.FQDN, `${host}.lab.internal`);
      if (i.LinkStatus !== 'LinkUp') {
        assert.deepEqual([i.IPv4Addresses, i.NameServers], [[], []], `${i.Id} has no link`);
        continue;
      }
      // DHCP-like: one /16 per interface, the host part from the MAC.
      const [a] = i.IPv4Addresses;
      const net = `10.${128 + Number(i.Id)}`;
      const [hi, lo] = (i.MACAddress as string)
        .split(':')
        .slice(4)
        .map((h) => parseInt(h, 16));
      assert.equal(a.Address, hi === 0 && lo! < 3 ? `${net}.1.${lo}` : `${net}.${hi}.${lo}`);
      assert.deepEqual([a.SubnetMask, a.AddressOrigin, a.Gateway], ['255.255.0.0', 'DHCP', `${net}.0.1`]);
      assert.deepEqual(i.NameServers, [`${net}.0.2`]);
      seen.add(a.Address);
    }
    assert.equal(seen.size, 3, 'the three ports with link have an address each');
    // The same addresses after a restart of the service (the lease is the MAC's).
    svc = await svc.restart();
    const again = await members(svc, `${SYS}EthernetInterfaces/`);
    assert.deepEqual(
      again.map((i) => i.IPv4Addresses),
      ifaces.map((i) => i.IPv4Addresses),
    );
    await powerOff(svc);
    for (const i of await members(svc, `${SYS}EthernetInterfaces/`)) assert.deepEqual([i.HostName, i.IPv4Addresses], [null, []]);
  });

  it('serves network adapters with their ports and controllers', async () => {
    const adapters = await members(svc, `${CH}NetworkAdapters/`);
    assert.deepEqual(
      adapters.map((a) => a.Id),
      ['DA000000', 'DC080000'],
    );
    const a = adapters[1];
    assert.equal(a['@odata.type'], '#NetworkAdapter.v1_14_0.NetworkAdapter');
    assert.deepEqual(
      [a.Manufacturer, a.PartNumber, a.Controllers[0].ControllerCapabilities.NetworkPortCount],
      ['Mellanox', '817753-B21', 2],
    );
    assert.match(a.SerialNumber, /^MXA[A-Z0-9]{7}$/);
    assert.deepEqual(a.Location.PartLocation, { ServiceLabel: 'PCI-E Slot 1', LocationType: 'Slot', LocationOrdinalValue: 1 });
    assert.deepEqual(a.Controllers[0].Links.PCIeDevices, [{ '@odata.id': `${CH}PCIeDevices/3/` }]);
    const ports = await members(svc, a.Ports['@odata.id']);
    assert.equal(ports[0]['@odata.type'], '#Port.v1_18_0.Port');
    assert.deepEqual(
      ports.map((p) => [p.Id, p.PortProtocol, p.LinkStatus, p.CurrentSpeedGbps, p.MaxSpeedGbps]),
      [
        ['1', 'Ethernet', 'LinkUp', 25, 25],
        ['2', 'Ethernet', 'LinkUp', 25, 25],
      ],
    );
    assert.equal((await svc.get(`${CH}NetworkAdapters/DA000000/Ports/5/`)).status, 404);
    assert.equal((await svc.get(`${CH}NetworkAdapters/NOPE/Ports/`)).status, 404);
  });

  it('serves PCIe devices and functions; a NIC function links its port interface', async () => {
    const devices = await members(svc, `${CH}PCIeDevices/`);
    const nic = devices.find((x) => x.Id === '2');
    assert.equal(nic['@odata.type'], '#PCIeDevice.v1_21_0.PCIeDevice');
    assert.deepEqual(
      [nic.DeviceType, nic.PCIeInterface.PCIeType, nic.PCIeInterface.LanesInUse, nic.Slot.Location.PartLocation.LocationType],
      ['MultiFunction', 'Gen2', 4, 'Embedded'],
    );
    const fns = await members(svc, nic.PCIeFunctions['@odata.id']);
    assert.equal(fns.length, 4);
    const f = fns[1];
    assert.equal(f['@odata.type'], '#PCIeFunction.v1_7_0.PCIeFunction');
    assert.deepEqual(
      [f.FunctionId, f.DeviceClass, f.VendorId, f.DeviceId, f.ClassCode],
      [1, 'NetworkController', '0x14e4', '0x1657', '0x020000'],
    );
    assert.deepEqual(f.Links.EthernetInterfaces, [{ '@odata.id': `${SYS}EthernetInterfaces/2/` }]);
    assert.equal(f.Links.PCIeDevice['@odata.id'], `${CH}PCIeDevices/2/`);
    const raid = devices.find((x) => x.Id === '1');
    assert.equal(raid.DeviceType, 'SingleFunction');
    assert.equal((await svc.get(`${CH}PCIeDevices/1/PCIeFunctions/0/`)).body.ClassCode, '0x010400');
  });

  it('Status follows the health registry: a fault shows on the member and rolls up to the summary', async () => {
    const health = svc.running.services.health;
    health.set('dimm:PROC 2 DIMM 3', { Health: 'Critical' });
    health.set('cpu:1', { Health: 'Warning' });
    try {
      const m = (await svc.get(`${SYS}Memory/proc2dimm3/`)).body;
      assert.deepEqual(m.Status, { State: 'Enabled', Health: 'Critical' });
      assert.equal(m.Oem.Vendor.DIMMStatus, 'Failed');
      const sys = (await svc.get(SYS)).body;
      assert.equal(sys.MemorySummary.Status.HealthRollup, 'Critical');
      assert.equal(sys.ProcessorSummary.Status.HealthRollup, 'Warning');
      assert.equal(sys.Status.HealthRollup, 'Critical');
      assert.deepEqual((await svc.get(`${SYS}Processors/2/`)).body.Status, { State: 'Enabled', Health: 'Warning' });
    } finally {
      health.clear('dimm:PROC 2 DIMM 3');
      health.clear('cpu:1');
    }
    assert.equal((await svc.get(SYS)).body.Status.HealthRollup, 'OK');
  });

  it('answers 404 for members that do not exist', async () => {
    for (const uri of [
      `${SYS}Processors/3/`,
      `${SYS}Memory/proc3dimm1/`,
      `${SYS}EthernetInterfaces/7/`,
      `${CH}PCIeDevices/9/`,
      `${CH}PCIeDevices/1/PCIeFunctions/1/`,
    ])
      assert.equal((await svc.get(uri)).status, 404, uri);
  });
});

describe('hardware inventory across profiles and restarts', () => {
  it('--hardware switches the inventory: the 1U profile has one CPU, an empty socket, 96 GiB, 4 ports', async () => {
    const svc = await startTestService({ config: { hardware: 'vs360-gen10' } });
    try {
      const sys = (await svc.get(SYS)).body;
      assert.equal(sys.Model, 'VS360 Gen10');
      assert.equal(sys.SKU, 'P03630-B21');
      assert.deepEqual(
        [sys.ProcessorSummary.Count, sys.ProcessorSummary.CoreCount, sys.ProcessorSummary.LogicalProcessorCount],
        [1, 12, 24],
      );
      assert.equal(sys.MemorySummary.TotalSystemMemoryGiB, 96);
      const ch = (await svc.get(CH)).body;
      assert.deepEqual([ch.Model, ch.PartNumber, ch.ChassisType, ch.HeightMm], ['VS360 Gen10', '867959-B21', 'RackMount', 44.5]);
      const cpus = await members(svc, `${SYS}Processors/`);
      assert.deepEqual(
        cpus.map((c) => c.Status.State),
        ['Enabled', 'Absent'],
      );
      assert.equal(cpus[1].TotalCores, undefined);
      assert.equal((await members(svc, `${SYS}EthernetInterfaces/`)).length, 4);
      assert.equal((await members(svc, `${SYS}Memory/`)).length, 12);
      // BIOS defaults that depend on the hardware: the S100i holds SATA logical drives in RAID mode.
      const attrs = (await svc.get(`${SYS}Bios/`)).body.Attributes;
      assert.deepEqual([attrs.EmbeddedSata, attrs.ProcHyperthreading, attrs.EmbNicPort1Boot], ['RaidMode', 'Enabled', 'NetworkBoot']);
    } finally {
      await svc.close();
    }
  });

  it('the NVMe profile: 2 x 32 cores, 1 TiB, a 100 Gb port', async () => {
    const svc = await startTestService({ config: { hardware: 'vs380-gen10-nvme' } });
    try {
      const i = await inspect(svc);
      assert.deepEqual([i.cpuCount, i.threads, i.arch, i.memoryMiB], [2, 128, 'x86', 1024 * 1024]);
      const ports = await members(svc, `${CH}NetworkAdapters/DC080000/Ports/`);
      assert.equal(ports[0].CurrentSpeedGbps, 100);
      assert.equal(ports[1].CurrentSpeedGbps, null);
    } finally {
      await svc.close();
    }
  });

  it('reads a profile file given by path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hw-'));
    const file = join(dir, 'tiny.json');
    writeFileSync(
      file,
      JSON.stringify({
        system: { manufacturer: 'Acme', model: 'Tiny 1', sku: 'T1' },
        chassis: { model: 'Tiny 1', partNumber: 'T1-C', heightU: 1 },
        processors: [
          {
            socket: 'CPU 0',
            model: 'Ampere Altra Q80-30',
            manufacturer: 'Ampere(R)',
            architecture: 'ARM',
            instructionSet: 'ARM-A64',
            cores: 80,
            threads: 80,
            maxSpeedMHz: 3000,
          },
        ],
        memory: [
          {
            location: 'DIMM A1',
            socket: 1,
            slot: 1,
            sizeMiB: 65536,
            speedMTs: 3200,
            type: 'DDR4',
            manufacturer: 'Micron',
            partNumber: 'X',
            rank: 2,
          },
        ],
        nics: [
          {
            id: 'NIC1',
            model: 'Dual 10G',
            manufacturer: 'Intel',
            partNumber: 'X710',
            slot: 2,
            ports: [
              {
                speedMbps: 10000,
                mac: '02:00:00:00:00:01',
                ipv4: { address: '192.0.2.10', subnetMask: '255.255.255.0', gateway: '192.0.2.1' },
              },
              { speedMbps: 10000 },
            ],
          },
        ],
        hostNetwork: { domainName: 'tiny.example.net', nameServers: ['192.0.2.53', '2001:db8::53'] },
        powerSupplies: [{ bay: 1, model: 'PSU', manufacturer: 'Acme', partNumber: 'P', capacityWatts: 300, efficiencyPercent: 90 }],
        power: { standbyWatts: 5, idleWatts: 60, maxWatts: 250 },
        fans: [{ maxRpm: 12000, lowerCritical: 500 }],
        temperatures: [{ id: 'CPU', name: 'CPU', context: 'CPU', offDelta: 2, onDelta: 20, swing: 10, tauSeconds: 30, upperCritical: 90 }],
      }),
    );
    const svc = await startTestService({ config: { hardware: file } });
    try {
      const i = await inspect(svc);
      assert.deepEqual([i.cpuCount, i.threads, i.arch, i.memoryMiB], [1, 80, 'ARM', 65536]);
      assert.equal(i.macs[0], '02:00:00:00:00:01');
      assert.equal(i.macs.length, 2);
      assert.equal((await svc.get(`${SYS}Processors/1/`)).body.InstructionSet, 'ARM-A64');
      // One thread per core: no Hyper-Threading to enable.
      assert.equal((await svc.get(`${SYS}Bios/`)).body.Attributes.ProcHyperthreading, 'Disabled');
      assert.deepEqual((await svc.get(`${CH}PCIeDevices/`)).body.Members, []);
      // The profile's static address, domain and DNS servers, while the OS runs.
      await bootHost(svc);
      const [first, second] = await members(svc, `${SYS}EthernetInterfaces/`);
      assert.deepEqual(first.IPv4Addresses, [
        { Address: '192.0.2.10', SubnetMask: '255.255.255.0', AddressOrigin: 'Static', Gateway: '192.0.2.1' },
      ]);
      assert.deepEqual(first.NameServers, ['192.0.2.53', '2001:db8::53']);
      assert.match(first.FQDN, /^host-[a-z0-9]+\.tiny\.example\.net$/);
      assert.equal(second.IPv4Addresses[0].AddressOrigin, 'DHCP');
      assert.deepEqual(second.NameServers, ['192.0.2.53', '2001:db8::53']);
    } finally {
      await svc.close();
    }
  });

  it('boot options follow the profile; a saved boot order is fitted to other hardware after a restart', async () => {
    const svc = await startTestService();
    let restarted: TestService | undefined;
    try {
      const sys = (await svc.get(SYS)).body;
      const order: string[] = sys.Boot.BootOrder;
      const reversed = [...order].reverse();
      assert.equal((await svc.req('PATCH', SYS, { body: { Boot: { BootOrder: reversed } } })).status, 200);
      const pxe = await svc.get(`${SYS}BootOptions/Boot0002/`);
      const mac = (await svc.get(`${SYS}EthernetInterfaces/1/`)).body.MACAddress.replace(/:/g, '').toUpperCase();
      assert.ok(pxe.body.UefiDevicePath.includes(`MAC(${mac},`), 'PXE on the first port, by its MAC');
      restarted = await svc.restart({ hardware: 'vs380-gen10-nvme' });
      const options = (await restarted.get(`${SYS}BootOptions/`)).body.Members.map((m: any) => m['@odata.id'].split('/').at(-2));
      assert.equal(options.length, 16, 'boot mirror, 8 NVMe drives, PXE/HTTP on the OCP NIC, PXE on the slot NIC, USB, CD, shell');
      const after: string[] = (await restarted.get(SYS)).body.Boot.BootOrder;
      assert.deepEqual([...after].sort(), [...options].sort(), 'a permutation of the options found now');
      assert.deepEqual(after.slice(0, reversed.length), reversed, 'the options still found keep their saved order');
      assert.equal((await restarted.req('PATCH', SYS, { body: { Boot: { BootOrder: options } } })).status, 200);
    } finally {
      await (restarted ?? svc).close();
    }
  });

  it('keeps MACs and serials across a restart; another controller (data dir) has others', async () => {
    const svc = await startTestService();
    const other = await startTestService();
    try {
      const before = await inspect(svc);
      const serials = async (s: TestService) => (await members(s, `${SYS}Memory/`)).map((m) => m.SerialNumber ?? null);
      const dimmSerials = await serials(svc);
      const restarted = await svc.restart();
      const afterRestart = await inspect(restarted);
      assert.deepEqual(afterRestart.macs, before.macs);
      assert.deepEqual(await serials(restarted), dimmSerials);
      const elsewhere = await inspect(other);
      assert.equal(elsewhere.macs.length, before.macs.length);
      assert.ok(
        elsewhere.macs.every((m) => !before.macs.includes(m)),
        'no MAC shared between two controllers',
      );
      assert.notDeepEqual(await serials(other), dimmSerials);
      await restarted.close();
    } finally {
      await other.close();
    }
  });
});
