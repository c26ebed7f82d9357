// UpdateService. The update-service areas add inventories, uploads, the repository and the task queue.
import { Priv } from '../domain/privileges.js';
import { collectionOf, defineType, ro, statusProp, t } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const UPDATE_SERVICE_URI = '/redfish/v1/UpdateService/';

export const SoftwareInventoryType = defineType({
  name: 'SoftwareInventory',
  version: '1.10.0',
  owner: 'DMTF',
  description: 'A firmware or software item and its version.',
  properties: { Id: ro(t.string()), Name: ro(t.string()), Version: ro(t.string()) },
});

export const UpdateServiceType = defineType({
  name: 'UpdateService',
  version: '1.11.0',
  owner: 'DMTF',
  description: 'Firmware and software update.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    ServiceEnabled: ro(t.boolean()),
    Status: statusProp,
    FirmwareInventory: t.link({ readOnly: true }),
    SoftwareInventory: t.link({ readOnly: true }),
  },
});

export function registerUpdateServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.UpdateService = UPDATE_SERVICE_URI;
  routes.add({
    path: UPDATE_SERVICE_URI,
    type: UpdateServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'UpdateService',
        Name: 'Update Service',
        ServiceEnabled: true,
        Status: { State: 'Enabled', Health: 'OK' },
        FirmwareInventory: { '@odata.id': `${UPDATE_SERVICE_URI}FirmwareInventory/` },
        SoftwareInventory: { '@odata.id': `${UPDATE_SERVICE_URI}SoftwareInventory/` },
      }),
    },
  });
  for (const kind of ['FirmwareInventory', 'SoftwareInventory']) {
    routes.add({
      path: `${UPDATE_SERVICE_URI}${kind}/`,
      type: collectionOf(SoftwareInventoryType),
      get: { privilege: Priv.login, handler: () => collection(`${kind} Collection`, []) },
    });
  }
}
