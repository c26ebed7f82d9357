// The vendor's SnmpService of the manager: the SNMP settings, the alert
// destinations (a collection; the service also shows them in its eight slots,
// as the vendor's controller does) and SNMP users (none are configurable in
// the simulation). SendSNMPTestAlert records, in the event log, the test alert
// for each destination (none are sent on the wire: docs/controller-settings.md).
import { ALERT_PROTOCOLS, MAX_ALERT_DESTINATIONS, READ_COMMUNITY_SLOTS, type AlertDestination } from '../../domain/manager/snmp.js';
import { Priv } from '../../lib/privileges.js';
import { serverIdentity } from '../../platform/identity.js';
import { vendorMessage } from '../../messages/errors.js';
import { addCollection } from '../../protocol/collections.js';
import { collectionOf, defineAction, defineType, oem, ro, statusProp, t } from '../../protocol/description.js';
import { collection, success } from '../../protocol/reply.js';
import { action, type ActionContext, type Context, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType, oemType } from '../../protocol/naming.js';

export type SnmpServiceDeps = Pick<Services, 'managerFeatures' | 'uris' | 'logs' | 'hardware' | 'serviceUuid'>;

type SnmpPath = '/redfish/v1/Managers/{ManagerId}/SnmpService/';

/** The slots the vendor's controller shows for SNMPv3 users, empty ones as it shows them. */
const USER_SLOTS = 8;

const SendTestAlertAction = defineAction({
  name: `${controllerType('SnmpService')}.SendSNMPTestAlert`,
  description: 'Generate a test alert for every alert destination; each is recorded in the event log.',
  parameters: {},
});

export const VendorMCSnmpServiceExtType = defineType({
  name: controllerType('SnmpServiceExt'),
  version: '2.0.0',
  owner: OEM,
  description: 'Vendor extension of the SNMP service.',
  properties: { SNMPColdStartTrapBroadcast: t.boolean() },
});

export const VendorMCSnmpServiceType = defineType({
  name: controllerType('SnmpService'),
  version: '2.3.0',
  owner: OEM,
  description: "The management controller's SNMP settings and alert destinations.",
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    Description: ro(t.string()),
    Status: statusProp,
    AlertsEnabled: t.boolean(),
    SNMPv1Enabled: t.boolean(),
    Contact: t.string({ maxLength: 49 }),
    Location: t.string({ maxLength: 49 }),
    Role: t.string({ maxLength: 64 }),
    RoleDetail: t.string({ maxLength: 512 }),
    ReadCommunities: t.array(t.string({ maxLength: 64 }), { maxItems: READ_COMMUNITY_SLOTS }),
    TrapCommunities: ro(t.array(t.string({ nullable: true }))),
    AlertDestinations: ro(t.array(t.string({ nullable: true }))),
    AlertDestinationAssociations: ro(
      t.array(
        t.object(
          { SNMPAlertProtocol: t.string({ nullable: true }), SecurityName: t.string({ nullable: true }) },
          { typeName: 'Association' },
        ),
      ),
    ),
    Users: ro(
      t.array(
        t.object(
          { AuthProtocol: t.string(), PrivacyProtocol: t.string(), SecurityName: t.string(), UserEngineID: t.string({ nullable: true }) },
          { typeName: 'SNMPUser' },
        ),
      ),
    ),
    SNMPv3EngineID: ro(t.string()),
    SNMPv3InformRetryAttempt: ro(t.integer()),
    SNMPv3InformRetryIntervalSeconds: ro(t.integer()),
    TrapSourceHostname: ro(t.string()),
    PeriodicHSATrapConfig: ro(t.string()),
    SNMPAlertDestinations: t.link({ readOnly: true }),
    SNMPUsers: t.link({ readOnly: true }),
    Oem: oem(VendorMCSnmpServiceExtType),
  },
  actions: [SendTestAlertAction],
});

export const VendorSNMPAlertDestinationType = defineType({
  name: oemType('SNMPAlertDestination'),
  version: '2.0.0',
  owner: OEM,
  description: 'Where the controller sends SNMP alerts.',
  properties: {
    Id: ro(t.string()),
    AlertDestination: t.string({ required: true, maxLength: 255 }),
    SNMPAlertProtocol: t.enum(ALERT_PROTOCOLS),
    TrapCommunity: t.string({ maxLength: 64 }),
    SecurityName: t.string({ nullable: true, maxLength: 32 }),
  },
});

export const VendorSNMPUserType = defineType({
  name: oemType('SNMPUser'),
  version: '2.1.0',
  owner: OEM,
  description: 'An SNMPv3 user of the controller.',
  properties: { Id: ro(t.string()), SecurityName: ro(t.string()) },
});

/** The v3 engine id the vendor's controller reports: its enterprise prefix, then the server serial number in hex. */
function engineId(serial: string): string {
  return `0x800000E804${Buffer.from(serial, 'latin1').toString('hex').toUpperCase()}`;
}

function destinationBody(dst: Readonly<AlertDestination>) {
  return { ...dst };
}

function handlers(d: SnmpServiceDeps) {
  const snmp = d.managerFeatures.snmp;

  function getSnmpService(ctx: Context<SnmpPath>) {
    const s = snmp.settings();
    const bySlot = new Map(snmp.destinations().map((x) => [Number(x.Id), x]));
    const slot = (i: number) => bySlot.get(i + 1);
    const range = Array.from({ length: MAX_ALERT_DESTINATIONS }, (_, i) => i);
    return {
      Id: 'SnmpService',
      Name: 'SNMP Service',
      Description: 'SNMP Service Status',
      Status: { State: 'Enabled' },
      AlertsEnabled: s.AlertsEnabled,
      SNMPv1Enabled: s.SNMPv1Enabled,
      Contact: s.Contact,
      Location: s.Location,
      Role: s.Role,
      RoleDetail: s.RoleDetail,
      ReadCommunities: [...s.ReadCommunities],
      TrapCommunities: range.map((i) => slot(i)?.TrapCommunity ?? null),
      AlertDestinations: range.map((i) => slot(i)?.AlertDestination ?? null),
      AlertDestinationAssociations: range.map((i) => {
        const x = slot(i);
        return {
          SNMPAlertProtocol: x && x.SNMPAlertProtocol !== 'SNMPv1Trap' ? x.SNMPAlertProtocol : null,
          SecurityName: x?.SecurityName ?? null,
        };
      }),
      Users: Array.from({ length: USER_SLOTS }, () => ({
        AuthProtocol: 'MD5',
        PrivacyProtocol: 'DES',
        SecurityName: '',
        UserEngineID: null,
      })),
      SNMPv3EngineID: engineId(serverIdentity(d.serviceUuid, d.hardware.system).SerialNumber),
      SNMPv3InformRetryAttempt: 2,
      SNMPv3InformRetryIntervalSeconds: 15,
      TrapSourceHostname: 'Manager',
      PeriodicHSATrapConfig: 'Disabled',
      SNMPAlertDestinations: { '@odata.id': `${ctx.uri}SNMPAlertDestinations/` },
      SNMPUsers: { '@odata.id': `${ctx.uri}SNMPUsers/` },
      Oem: { [OEM]: { SNMPColdStartTrapBroadcast: s.SNMPColdStartTrapBroadcast } },
    };
  }

  function patchSnmpService(ctx: PatchContext<SnmpPath, typeof VendorMCSnmpServiceType.properties>): void {
    const { Oem, ...rest } = ctx.body;
    snmp.change({
      ...rest,
      ...(Oem?.[OEM]?.SNMPColdStartTrapBroadcast !== undefined ? { SNMPColdStartTrapBroadcast: Oem[OEM].SNMPColdStartTrapBroadcast } : {}),
    });
  }

  function postSendTestAlert(ctx: ActionContext<SnmpPath, typeof SendTestAlertAction>) {
    const destinations = snmp.settings().AlertsEnabled ? snmp.destinations() : [];
    for (const dst of destinations)
      d.logs.write(
        'IEL',
        vendorMessage('SnmpTestAlertSent', dst.AlertDestination, dst.SNMPAlertProtocol, ctx.principal.userName),
        d.uris.manager('SnmpService'),
      );
    return success(vendorMessage('SnmpTestAlertGenerated', destinations.length));
  }

  return { getSnmpService, patchSnmpService, postSendTestAlert };
}

export function registerSnmpServiceRoutes(routes: RouteTable, d: SnmpServiceDeps): void {
  const h = handlers(d);
  const snmp = d.managerFeatures.snmp;
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SnmpService/',
    type: VendorMCSnmpServiceType,
    get: { privilege: Priv.login, handler: h.getSnmpService },
    patch: { privilege: Priv.managerConfig, handler: h.patchSnmpService },
    actions: [action(SendTestAlertAction, Priv.managerConfig, h.postSendTestAlert)],
  });
  addCollection(routes, {
    collection: '/redfish/v1/Managers/{ManagerId}/SnmpService/SNMPAlertDestinations/',
    member: '/redfish/v1/Managers/{ManagerId}/SnmpService/SNMPAlertDestinations/{DestinationId}/',
    type: VendorSNMPAlertDestinationType,
    name: 'SNMP Alert Destinations',
    extra: () => ({ Description: 'Where the controller sends SNMP alerts' }),
    store: { list: () => snmp.destinations(), get: (id: string) => snmp.destination(id), id: (x: Readonly<AlertDestination>) => x.Id },
    show: destinationBody,
    privileges: { read: Priv.login, write: Priv.managerConfig },
    create: { handler: (ctx) => snmp.addDestination(ctx.body) },
    update: {
      handler: (x, ctx) => {
        snmp.changeDestination(x.Id, ctx.body);
      },
    },
    remove: (x) => {
      snmp.deleteDestination(x.Id);
    },
  });
  // SNMPv3 users cannot be configured in the simulation: the collection stays empty.
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/SnmpService/SNMPUsers/',
    type: collectionOf(VendorSNMPUserType),
    get: { privilege: Priv.login, handler: () => collection('SNMP Users', [], { Description: 'The SNMPv3 users of the controller' }) },
  });
}
