// LicenseService: the collection of installed licenses of the manager (one
// at most, as on the vendor's controller). POST {LicenseKey} verifies and
// installs a key, replacing the installed one; DELETE removes it. The key is
// never served: only its masked form.
import { LICENSE_ID, type LicenseRecord } from '../../domain/licensing/installed-license.js';
import { ISSUABLE_TIERS, maskLicenseKey } from '../../domain/licensing/license-keys.js';
import { FEATURE_TIER, tierAtLeast, type LicensedFeature } from '../../domain/licensing/tiers.js';
import { Priv } from '../../lib/privileges.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { collection, created } from '../../protocol/reply.js';
import { missing, present, type Context, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type LicenseServiceDeps = Pick<Services, 'installedLicense' | 'uris'>;

type LicenseServicePath = '/redfish/v1/Managers/{ManagerId}/LicenseService/';
type LicensePath = '/redfish/v1/Managers/{ManagerId}/LicenseService/{LicenseId}/';

/** iLO's LicenseFeatures names of the licensed features the controller has (ilorest's fwintegritycheck reads FWScan). */
const ILO_FEATURE_NAMES: Record<LicensedFeature, string> = { FirmwareIntegrityScan: 'FWScan', CertificateLogin: 'SmartCard' };

export const VendorLicenseType = defineType({
  name: oemType('License'),
  version: '1.0.0',
  owner: OEM,
  description: 'An installed license of the management controller.',
  properties: {
    Id: ro(t.string()),
    Name: ro(t.string()),
    License: ro(t.string()),
    LicenseTier: ro(t.enum(ISSUABLE_TIERS)),
    LicenseKey: t.string({
      required: true,
      createOnly: true,
      secret: true,
      description: 'On installation the full key; read back masked (only its last five characters).',
    }),
    LicenseType: ro(t.enum(['Perpetual', 'Subscription'])),
    Licensee: ro(t.string()),
    SerialNumber: ro(t.string()),
    IssueDate: ro(t.dateTime()),
    ExpirationDate: ro(t.dateTime({ nullable: true })),
    InstallDate: ro(t.dateTime()),
    Expired: ro(t.boolean({ volatile: true })),
    Features: ro(t.array(t.string(), { description: 'Licensed features this license grants while it is valid.' })),
    LicenseFeatures: ro(
      t.object(Object.fromEntries(Object.values(ILO_FEATURE_NAMES).map((n) => [n, ro(t.boolean())])), {
        typeName: 'LicenseFeatures',
        description: 'Whether each licensed feature is granted now, by its iLO name.',
      }),
    ),
    Status: { ...statusProp, volatile: true },
  },
});

export const VendorLicenseCollectionType = defineType({
  ...collectionOf(VendorLicenseType, 'The licenses installed on the management controller.'),
});

function licenseBody(d: LicenseServiceDeps, l: LicenseRecord) {
  const expired = d.installedLicense.expired(l);
  const p = l.payload;
  return {
    Id: l.Id,
    Name: 'Installed License',
    License: `Vendor ${p.tier}`,
    LicenseTier: p.tier,
    LicenseKey: maskLicenseKey(l.key),
    LicenseType: p.expires ? 'Subscription' : 'Perpetual',
    Licensee: p.licensee,
    SerialNumber: p.serial,
    IssueDate: toIso(Date.parse(p.issued)),
    ExpirationDate: p.expires ? toIso(Date.parse(p.expires)) : null,
    InstallDate: toIso(l.installedAt),
    Expired: expired,
    Features: Object.entries(FEATURE_TIER)
      .filter(([, need]) => tierAtLeast(p.tier, need))
      .map(([feature]) => feature),
    LicenseFeatures: Object.fromEntries(
      (Object.keys(ILO_FEATURE_NAMES) as LicensedFeature[]).map((f) => [
        ILO_FEATURE_NAMES[f],
        !expired && tierAtLeast(p.tier, FEATURE_TIER[f]),
      ]),
    ),
    Status: expired ? { State: 'Disabled', Health: 'Warning' } : { State: 'Enabled', Health: 'OK' },
  };
}

function handlers(d: LicenseServiceDeps) {
  function getLicenses() {
    const l = d.installedLicense.installed();
    return collection('License Service', l ? [d.uris.manager('LicenseService', l.Id)] : [], { Description: 'Installed licenses' });
  }

  function postLicense(ctx: PostContext<LicenseServicePath, typeof VendorLicenseType.properties>) {
    const l = d.installedLicense.install(ctx.body.LicenseKey);
    return created(d.uris.manager('LicenseService', l.Id), licenseBody(d, l));
  }

  function getLicense(ctx: Context<LicensePath>) {
    return licenseBody(d, present(d.installedLicense.installed(), ctx));
  }

  function deleteLicense(ctx: Context<LicensePath>): void {
    if (!d.installedLicense.remove()) throw missing(ctx);
  }

  /** The one license id, while a license is installed. */
  const isInstalled = (id: string) => id === LICENSE_ID && d.installedLicense.installed() !== undefined;

  return { getLicenses, postLicense, getLicense, deleteLicense, isInstalled };
}

export function registerLicenseServiceRoutes(routes: RouteTable, d: LicenseServiceDeps): void {
  const h = handlers(d);
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LicenseService/',
    type: VendorLicenseCollectionType,
    get: { privilege: Priv.login, handler: h.getLicenses },
    post: { privilege: Priv.managerConfig, handler: h.postLicense },
  });
  routes.add({
    path: '/redfish/v1/Managers/{ManagerId}/LicenseService/{LicenseId}/',
    type: VendorLicenseType,
    params: { LicenseId: h.isInstalled },
    get: { privilege: Priv.login, handler: h.getLicense },
    delete: { privilege: Priv.managerConfig, handler: h.deleteLicense },
  });
}
