// Managers (the controller itself). The simulated-server area fills this collection.
import { Priv } from '../domain/privileges.js';
import { collectionOf, defineType, ro, t } from '../protocol/description.js';
import { collection } from '../protocol/reply.js';
import type { RouteTable } from '../protocol/routes.js';
import type { Services } from './context.js';

export const MANAGERS_URI = '/redfish/v1/Managers/';

export const ManagerType = defineType({
  name: 'Manager',
  version: '1.18.0',
  owner: 'DMTF',
  description: 'The management controller.',
  properties: { Id: ro(t.string()), Name: ro(t.string()) },
});

export function registerManagerRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Managers = MANAGERS_URI;
  routes.add({
    path: MANAGERS_URI,
    type: collectionOf(ManagerType),
    get: { privilege: Priv.login, handler: () => collection('Manager Collection', []) },
  });
}
