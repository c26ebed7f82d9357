// Issue 28 item 3: iLO 5's BaseNetworkAdapters view of the profile's NICs: one adapter per NIC,
// its ports' links and MACs as the system's EthernetInterfaces show them, and the IPv4 address
// the host OS has on a port only while the OS runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bootHost } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const ADAPTERS = `${SYS}BaseNetworkAdapters/`;

describe('base network adapters', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const get = (path: string) => svc.req('GET', path, { auth: 'basic' });

  it("shows each NIC with its ports; a port's IPv4 address only while the host OS runs", async () => {
    const nics = svc.running.services.hardware.nics;
    assert.equal((await get(SYS)).body.Oem.Hpe.Links.NetworkAdapters['@odata.id'], ADAPTERS);
    const list = await get(`${ADAPTERS}?$expand=.`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body['@odata.type'], '#HpeBaseNetworkAdapterCollection.HpeBaseNetworkAdapterCollection');
    const adapters = list.body.Members;
    assert.deepEqual(
      adapters.map((a: any) => [a.Name, a.SerialNumber, a.Firmware.Current.VersionString, a.PhysicalPorts.length]),
      nics.map((n) => [n.model, n.serialNumber, n.firmwareVersion, n.ports.length]),
    );
    assert.equal(adapters[0]['@odata.type'], '#HpeBaseNetworkAdapter.v2_0_0.HpeBaseNetworkAdapter');
    assert.equal(adapters[0].StructuredName, 'NIC.LOM.1.1');
    const ifaces = (await get(`${SYS}EthernetInterfaces/?$expand=.`)).body.Members;
    const ports = adapters.flatMap((a: any) => a.PhysicalPorts);
    assert.deepEqual(
      ports.map((p: any) => [p.MacAddress, p.LinkStatus]),
      ifaces.map((i: any) => [i.MACAddress, i.LinkStatus]),
    );
    assert.ok(ports.every((p: any) => p.IPv4Addresses.length === 0));

    await bootHost(svc);
    const up = (await get(`${ADAPTERS}1/`)).body.PhysicalPorts;
    const upIfaces = (await get(`${SYS}EthernetInterfaces/?$expand=.`)).body.Members;
    assert.equal(up[0].LinkStatus, 'LinkUp');
    assert.deepEqual(up[0].IPv4Addresses, [{ Address: upIfaces[0].IPv4Addresses[0].Address }]);
    assert.equal((await get(`${ADAPTERS}${nics.length + 1}/`)).status, 404);
  });
});
