// The report of the last one-button secure erase (Systems/{SystemId}/SecureEraseReportService/):
// who asked for it, the server it ran on and, one entry per device, what was sanitized, how and
// when. The erase writes it (../../domain/manager/secure-erase.ts); DeleteSecureEraseReport
// empties it. Before the first erase, and once deleted, there is nothing to report.
import { ERASED_DEVICE_TYPES, ERASE_STATUSES, type EraseReportEntry } from '../../domain/manager/secure-erase.js';
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { serverIdentity } from '../../platform/identity.js';
import { addCollection, type MemberStore } from '../../protocol/collections.js';
import { commonProps, defineAction, defineType, ro, t } from '../../protocol/description.js';
import { OEM, oemType } from '../../protocol/naming.js';
import { success } from '../../protocol/reply.js';
import { action, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export type SecureEraseReportDeps = Pick<Services, 'uris' | 'managerFeatures' | 'serviceUuid' | 'hardware'>;

const DeleteReportAction = defineAction({
  name: `${oemType('SecureEraseReportService')}.DeleteSecureEraseReport`,
  description: 'Delete the report of the last secure erase.',
  parameters: {},
});

const SecureEraseReportServiceType = defineType({
  name: oemType('SecureEraseReportService'),
  version: '1.0.0',
  owner: OEM,
  description: 'The report of the last one-button secure erase: who asked for it, on which server, and what each device went through.',
  properties: {
    ...commonProps,
    EraseInitiatedBy: ro(t.string({ nullable: true })),
    ServerSerialNumber: ro(t.string({ nullable: true })),
    Links: ro(t.object({ SecureEraseReportEntries: t.link({ readOnly: true }) }, { typeName: 'Links' })),
  },
  actions: [DeleteReportAction],
});

const SecureEraseReportType = defineType({
  name: oemType('SecureEraseReport'),
  version: '1.1.0',
  owner: OEM,
  description: 'One device the last secure erase sanitized: its kind, the NIST SP 800-88 technique, the outcome and when.',
  properties: {
    ...commonProps,
    DeviceType: ro(t.enum(ERASED_DEVICE_TYPES)),
    DeviceIdentifier: ro(t.string()),
    EraseType: ro(t.enum(['Clear', 'Purge'])),
    EraseStatus: ro(t.enum(ERASE_STATUSES)),
    EraseStartTime: ro(t.string({ format: 'date-time' })),
    EraseEndTime: ro(t.string({ format: 'date-time' })),
  },
});

type Numbered = EraseReportEntry & { id: string };

function handlers(d: SecureEraseReportDeps) {
  const erase = d.managerFeatures.secureErase;
  const serial = serverIdentity(d.serviceUuid, d.hardware.system).SerialNumber;
  const entries = (): Numbered[] => erase.report().entries.map((e, i) => ({ ...e, id: String(i + 1) }));
  const store: MemberStore<Numbered, object> = {
    list: entries,
    get: (id) => entries().find((e) => e.id === id),
    id: (e) => e.id,
  };
  const serviceBody = () => {
    const report = erase.report();
    return {
      Id: 'SecureEraseReportService',
      Name: 'Secure Erase Report Service',
      Description: 'The report of the last one-button secure erase',
      EraseInitiatedBy: report.initiatedBy,
      ServerSerialNumber: report.entries.length ? serial : null,
      Links: { SecureEraseReportEntries: { '@odata.id': d.uris.system('SecureEraseReportService', 'SecureEraseReportEntries') } },
    };
  };
  const entryBody = (e: Numbered) => ({
    Id: e.id,
    Name: `Secure erase of the ${e.deviceIdentifier}`,
    DeviceType: e.deviceType,
    DeviceIdentifier: e.deviceIdentifier,
    EraseType: e.eraseType,
    EraseStatus: e.status,
    EraseStartTime: toIso(e.startedAt),
    EraseEndTime: toIso(e.endedAt),
  });
  const deleteReport = () => {
    erase.deleteReport();
    return success();
  };
  return { store, serviceBody, entryBody, deleteReport };
}

export function registerSecureEraseReportRoutes(routes: RouteTable, d: SecureEraseReportDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/SecureEraseReportService/',
    type: SecureEraseReportServiceType,
    get: { privilege: Priv.login, handler: h.serviceBody },
    actions: [action(DeleteReportAction, Priv.managerConfig, h.deleteReport)],
  });
  addCollection(routes, {
    collection: '/redfish/v1/Systems/{SystemId}/SecureEraseReportService/SecureEraseReportEntries/',
    member: '/redfish/v1/Systems/{SystemId}/SecureEraseReportService/SecureEraseReportEntries/{EraseReportId}/',
    type: SecureEraseReportType,
    name: 'Secure Erase Report Collection',
    extra: () => ({ Description: 'The devices the last secure erase sanitized' }),
    store: h.store,
    show: h.entryBody,
    privileges: { read: Priv.login },
  });
}

/** The system's vendor link to the report. */
export function secureEraseReportLink(uris: Services['uris']) {
  return { SecureEraseReportService: { '@odata.id': uris.system('SecureEraseReportService') } };
}
