// Computer systems. The simulated-server area fills this collection.
import { Priv } from '../domain/privileges.js';
import { collectionOf, defineType, ro, t } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const SYSTEMS_URI = '/redfish/v1/Systems/';

export const ComputerSystemType = defineType({
  name: 'ComputerSystem',
  version: '1.20.0',
  owner: 'DMTF',
  description: 'A computer system: the server the controller manages.',
  properties: { Id: ro(t.string()), Name: ro(t.string()) },
});

export function registerSystemRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Systems = SYSTEMS_URI;
  routes.add({
    path: SYSTEMS_URI,
    type: collectionOf(ComputerSystemType),
    get: { privilege: Priv.login, handler: () => collection('Computer System Collection', []) },
  });
}
