import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { componentKey } from '../../../src/platform/hardware/health.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const ADAPTERS = '/redfish/v1/Chassis/1/NetworkAdapters/';
const BOOT_TIME = 2000 + 5000;

describe('chassis network adapters: ports and network device functions (--oem-name Hpe)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());

  const body = async (uri: string) => {
    const r = await svc.get(uri);
    assert.equal(r.status, 200, uri);
    return r.body;
  };

  it("a port shows its link, speed and MAC as the system's EthernetInterface does, and links it", async () => {
    for (const [adapter, port, iface] of [
      ['DA000000', '1', '1'],
      ['DA000000', '2', '2'],
      ['DC080000', '2', '6'],
    ]) {
      const p = await body(`${ADAPTERS}${adapter}/Ports/${port}/`);
      const e = await body(`${SYS}EthernetInterfaces/${iface}/`);
      assert.deepEqual(p.Links.EthernetInterfaces, [{ '@odata.id': `${SYS}EthernetInterfaces/${iface}/` }]);
      assert.deepEqual(p.Ethernet.AssociatedMACAddresses, [e.MACAddress]);
      assert.equal(p.LinkStatus, e.LinkStatus);
      assert.equal(p.SignalDetected, e.LinkStatus === 'LinkUp');
      assert.equal(p.ActiveWidth, e.LinkStatus === 'LinkUp' ? 1 : 0);
      assert.equal(p.CurrentSpeedGbps, e.SpeedMbps === null ? null : e.SpeedMbps / 1000);
      assert.equal(p.InterfaceEnabled, e.InterfaceEnabled);
      assert.equal(p.LinkNetworkTechnology, 'Ethernet');
      // The connector, by the adapter's place and the port's number.
      const place = adapter === 'DA000000' ? 'Embedded' : 'PCI-E Slot 1';
      assert.deepEqual(p.Location.PartLocation, {
        ServiceLabel: `${place} Port ${port}`,
        LocationType: 'Connector',
        LocationOrdinalValue: Number(port),
      });
      assert.deepEqual(p.LinkConfiguration, [
        {
          AutoSpeedNegotiationCapable: true,
          AutoSpeedNegotiationEnabled: e.AutoNeg,
          CapableLinkSpeedGbps: [p.MaxSpeedGbps],
          ConfiguredNetworkLinks: [{ ConfiguredLinkSpeedGbps: p.MaxSpeedGbps, ConfiguredWidth: 1 }],
        },
      ]);
    }
  });

  it('a disabled port shows itself and its function disabled', async () => {
    const key = componentKey.port('DC080000', 0);
    svc.running.services.health.set(key, { State: 'Disabled' });
    try {
      const p = await body(`${ADAPTERS}DC080000/Ports/1/`);
      assert.deepEqual([p.InterfaceEnabled, p.LinkState], [false, 'Disabled']);
      assert.equal((await body(`${ADAPTERS}DC080000/NetworkDeviceFunctions/1/`)).DeviceEnabled, false);
    } finally {
      svc.running.services.health.clear(key);
    }
    assert.equal((await body(`${ADAPTERS}DC080000/Ports/1/`)).InterfaceEnabled, true);
  });

  it('the adapter links one Ethernet function per port; each shows its port, MAC, interface and PCIe function', async () => {
    const a = await body(`${ADAPTERS}DC080000/`);
    assert.equal(a.NetworkDeviceFunctions['@odata.id'], `${ADAPTERS}DC080000/NetworkDeviceFunctions/`);
    assert.equal(a.Controllers[0].ControllerCapabilities.NetworkDeviceFunctionCount, 2);
    assert.deepEqual(a.Controllers[0].Links.Ports, [
      { '@odata.id': `${ADAPTERS}DC080000/Ports/1/` },
      { '@odata.id': `${ADAPTERS}DC080000/Ports/2/` },
    ]);
    const c = await body(a.NetworkDeviceFunctions['@odata.id']);
    assert.deepEqual(c.Members, a.Controllers[0].Links.NetworkDeviceFunctions);
    const f = await body(`${ADAPTERS}DC080000/NetworkDeviceFunctions/2/`);
    const e = await body(`${SYS}EthernetInterfaces/6/`);
    assert.equal(f['@odata.type'], '#NetworkDeviceFunction.v1_11_1.NetworkDeviceFunction');
    assert.deepEqual([f.NetDevFuncType, f.NetDevFuncCapabilities, f.DeviceEnabled], ['Ethernet', ['Ethernet'], true]);
    assert.deepEqual(f.Ethernet, { MACAddress: e.MACAddress, PermanentMACAddress: e.PermanentMACAddress, MTUSize: e.MTUSize });
    assert.deepEqual(f.AssignablePhysicalNetworkPorts, [{ '@odata.id': `${ADAPTERS}DC080000/Ports/2/` }]);
    assert.deepEqual(f.Links.PhysicalNetworkPortAssignment, { '@odata.id': `${ADAPTERS}DC080000/Ports/2/` });
    assert.deepEqual(f.Links.EthernetInterfaces, [{ '@odata.id': `${SYS}EthernetInterfaces/6/` }]);
    assert.equal((await svc.get(f.Links.PCIeFunction['@odata.id'])).status, 200);
    assert.equal((await svc.get(`${ADAPTERS}DC080000/NetworkDeviceFunctions/3/`)).status, 404);
    assert.equal((await svc.get(`${ADAPTERS}NOPE/NetworkDeviceFunctions/`)).status, 404);
  });

  it("a function's BootMode is its port's BIOS network boot setting, as POST applied it", async () => {
    const bootMode = async (adapter: string, fn: string) => (await body(`${ADAPTERS}${adapter}/NetworkDeviceFunctions/${fn}/`)).BootMode;
    assert.deepEqual([await bootMode('DA000000', '1'), await bootMode('DC080000', '2')], ['PXE', 'Disabled']);
    const r = await svc.req('PATCH', `${SYS}Bios/Settings/`, {
      body: { Attributes: { EmbNicPort1Boot: 'Disabled', Slot1NicPort2Boot: 'NetworkBoot' } },
    });
    assert.ok(r.status < 300, JSON.stringify(r.body));
    // Pending until the ROM takes it in at the next POST.
    assert.equal(await bootMode('DA000000', '1'), 'PXE');
    const on = (await body(SYS)).PowerState === 'On';
    const reset = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: on ? 'ForceRestart' : 'On' } });
    assert.equal(reset.status, 200);
    await svc.clock.advance(BOOT_TIME);
    assert.deepEqual([await bootMode('DA000000', '1'), await bootMode('DC080000', '2')], ['Disabled', 'PXE']);
  });
});
