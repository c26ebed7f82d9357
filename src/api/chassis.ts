// Chassis. The simulated-server area fills this collection.
import { Priv } from '../domain/privileges.js';
import { collectionOf, defineType, ro, t } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const CHASSIS_URI = '/redfish/v1/Chassis/';

export const ChassisType = defineType({
  name: 'Chassis',
  version: '1.23.0',
  owner: 'DMTF',
  description: 'The physical enclosure of the server.',
  properties: { Id: ro(t.string()), Name: ro(t.string()) },
});

export function registerChassisRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Chassis = CHASSIS_URI;
  routes.add({
    path: CHASSIS_URI,
    type: collectionOf(ChassisType),
    get: { privilege: Priv.login, handler: () => collection('Chassis Collection', []) },
  });
}
