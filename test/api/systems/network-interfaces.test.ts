// Issue 28 item 3: the system's NetworkInterfaces, one per NIC of the profile, linking the
// chassis' network adapter and its ports; the vendor's MemberContents says every adapter is listed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';

describe('system network interfaces', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const get = (path: string) => svc.req('GET', path, { auth: 'basic' });

  it("lists each NIC, linked to the chassis' adapter and its ports", async () => {
    const nics = svc.running.services.hardware.nics;
    const link = (await get(SYS)).body.NetworkInterfaces['@odata.id'];
    assert.equal(link, `${SYS}NetworkInterfaces/`);
    const list = await get(`${link}?$expand=.`);
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.Oem.Hpe.MemberContents, 'AllDevices');
    assert.equal(list.body.Oem.Hpe['@odata.type'], '#HpeNetworkInterfaceStatus.v1_0_0.HpeNetworkInterfaceStatus');
    assert.deepEqual(
      list.body.Members.map((m: any) => [m.Id, m.Name]),
      nics.map((n) => [n.id, n.model]),
    );
    for (const m of list.body.Members) {
      const adapter = await get(m.Links.NetworkAdapter['@odata.id']);
      assert.equal(adapter.status, 200);
      assert.equal(adapter.body.Id, m.Id);
      const ports = await get(m.Ports['@odata.id']);
      assert.equal(ports.body['Members@odata.count'], nics.find((n) => n.id === m.Id)?.ports.length);
    }
    assert.equal((await get(`${link}NoSuchNic/`)).status, 404);
  });

  it("lists each interface's ports in a collection of its own (iLO 6), as the adapter's ports where they live", async () => {
    const nics = svc.running.services.hardware.nics;
    for (const nic of nics) {
      const mine = `${SYS}NetworkInterfaces/${nic.id}/Ports/`;
      assert.equal((await get(`${SYS}NetworkInterfaces/${nic.id}/`)).body.Ports['@odata.id'], mine);
      const list = await get(mine);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body['@odata.type'], '#PortCollection.PortCollection');
      const chassis = await get(`/redfish/v1/Chassis/1/NetworkAdapters/${nic.id}/Ports/`);
      assert.equal(list.body['Members@odata.count'], nic.ports.length);
      assert.deepEqual(list.body.Members, chassis.body.Members);
    }
    assert.equal((await get(`${SYS}NetworkInterfaces/NoSuchNic/Ports/`)).status, 404);
  });
});
