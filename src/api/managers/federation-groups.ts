// FederationGroups of the manager: the controller's federation groups (a name,
// a key never read back, the privileges the group's peers get). POST adds a
// group, PATCH changes its key or privileges, DELETE removes it. FederationPeers
// lists, per group, the peers the controller has found: none, since no peer
// shares the simulated network.
import type { FederationGroup } from '../../domain/manager/federation.js';
import { Priv } from '../../lib/privileges.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf, defineType, ro, t } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import { VendorAccountPrivilegesProps } from '../accounts/account-types.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type FederationDeps = Pick<Services, 'managerFeatures'>;

export const VendorMCFederationGroupType = defineType({
  name: controllerType('FederationGroup'),
  version: '2.0.0',
  owner: OEM,
  description: 'A federation group of the management controller: the key its members share and what their peers may do.',
  properties: {
    Id: ro(t.string()),
    Name: t.string({ required: true, createOnly: true, minLength: 1, maxLength: 31 }),
    Key: t.string({ required: true, secret: true, minLength: 3, maxLength: 31, description: 'The group key; never read back.' }),
    Privileges: t.object(VendorAccountPrivilegesProps, { typeName: 'Privileges' }),
  },
});

export const VendorMCFederationPeersType = defineType({
  name: controllerType('FederationPeers'),
  version: '2.0.0',
  owner: OEM,
  description: 'The peers the controller found in one of its federation groups.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Peers: ro(t.array(t.object({ ManagerIPAddress: t.string(), Time: t.string(), Status: t.string() }, { typeName: 'Peer' }))),
  },
});

function groupBody(g: Readonly<FederationGroup>) {
  return { Id: g.Name, Name: g.Name, Privileges: { ...g.Privileges } };
}

function handlers(d: FederationDeps) {
  const groups = d.managerFeatures.federation;
  return {
    groups,
    store: {
      list: () => groups.list(),
      get: (id: string) => groups.get(id),
      id: (g: Readonly<FederationGroup>) => g.Name,
    },
  };
}

export function registerFederationRoutes(routes: RouteTable, d: FederationDeps): void {
  const { groups, store } = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/FederationGroups/',
    member: '/redfish/v1/Managers/{ManagerId}/FederationGroups/{GroupId}/',
    type: VendorMCFederationGroupType,
    collectionType: collectionOf(VendorMCFederationGroupType),
    name: 'Federation Groups',
    extra: () => ({ Description: 'Federation groups of the management controller' }),
    store,
    show: groupBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    create: { handler: (ctx) => groups.create(ctx.body) },
    update: {
      handler: (g, ctx) => {
        groups.change(g.Name, ctx.body);
      },
    },
    remove: (g) => {
      groups.delete(g.Name);
    },
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/FederationPeers/',
    member: '/redfish/v1/Managers/{ManagerId}/FederationPeers/{GroupId}/',
    type: VendorMCFederationPeersType,
    name: 'Federation Peers',
    extra: () => ({ Description: 'The peers of each federation group the controller is a member of' }),
    store,
    show: (g) => ({ Id: g.Name, Name: g.Name, Peers: [] }),
    privileges: { read: Priv.login },
  });
}
