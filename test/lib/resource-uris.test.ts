// The one builder of the system's, chassis' and manager's URIs: every segment
// encoded the same way, whoever builds the link.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redfishUri, resourceUris } from '../../src/lib/resource-uris.js';

describe('resource URIs', () => {
  const uris = resourceUris({ systemId: 'sys-1', chassisId: 'rack 1', managerId: 'mc/1' });

  it('builds the resources and what is under them, with a trailing slash', () => {
    assert.equal(uris.system(), '/redfish/v1/Systems/sys-1/');
    assert.equal(uris.system('Bios', 'Settings'), '/redfish/v1/Systems/sys-1/Bios/Settings/');
    assert.equal(
      uris.chassis('PCIeDevices', 'NIC.Slot.1', 'PCIeFunctions', '0'),
      '/redfish/v1/Chassis/rack%201/PCIeDevices/NIC.Slot.1/PCIeFunctions/0/',
    );
    assert.equal(uris.manager('LicenseService', '1'), '/redfish/v1/Managers/mc%2F1/LicenseService/1/');
    assert.equal(redfishUri('Systems'), '/redfish/v1/Systems/');
  });

  it('encodes every segment as the route table spells a matched URI (encodeURIComponent)', () => {
    for (const id of ['rack 1', 'a/b', 'q?x', 'h#1', 'é', '100%', "it's", 'a~b-c_d.e']) {
      assert.equal(
        resourceUris({ systemId: id, chassisId: id, managerId: id }).chassis(),
        `/redfish/v1/Chassis/${encodeURIComponent(id)}/`,
      );
    }
  });
});
