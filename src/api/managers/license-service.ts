// LicenseService: the collection of installed licenses of the manager (one
// at most, as on the vendor's controller). POST {LicenseKey} verifies and
// installs a key, replacing the installed one; DELETE removes it. The key is
// never served: only its masked form.
import { maskLicenseKey, ISSUABLE_TIERS } from '../../domain/licensing/license-keys.js';
import { LICENSE_ID, type InstalledLicense, type Licenses } from '../../domain/licensing/installed-license.js';
import { FEATURE_TIER, tierAtLeast } from '../../domain/licensing/tiers.js';
import { Priv } from '../../lib/privileges.js';
import { baseError } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, ro, statusProp, t } from '../../protocol/description.js';
import { collection, created } from '../../protocol/reply.js';
import { missing, present, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const VendorLicenseType = defineType({
  name: 'VendorLicense',
  version: '1.0.0',
  owner: 'Vendor',
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
    Status: { ...statusProp, volatile: true },
  },
});

export const VendorLicenseCollectionType = defineType({
  ...collectionOf(VendorLicenseType, 'The licenses installed on the management controller.'),
});

function licenseBody(licenses: Licenses, l: InstalledLicense): Record<string, unknown> {
  const expired = licenses.expired(l);
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
    Status: expired ? { State: 'Disabled', Health: 'Warning' } : { State: 'Enabled', Health: 'OK' },
  };
}

export function registerLicenseServiceRoutes(routes: RouteTable, s: Services): void {
  const base = '/redfish/v1/Managers/{ManagerId}/LicenseService/';
  const serviceUri = (id: string) => `/redfish/v1/Managers/${encodeURIComponent(id)}/LicenseService/`;

  routes.add({
    path: base,
    type: VendorLicenseCollectionType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const l = s.licensing.installed();
        return collection('License Service', l ? [`${ctx.uri}${l.Id}/`] : [], { Description: 'Installed licenses' });
      },
    },
    post: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        const l = s.licensing.install(String(ctx.body.LicenseKey));
        return created(`${serviceUri(ctx.params.ManagerId ?? '')}${l.Id}/`, licenseBody(s.licensing, l));
      },
    },
  });

  routes.add({
    path: `${base}{LicenseId}/`,
    type: VendorLicenseType,
    params: { LicenseId: (id) => id === LICENSE_ID && s.licensing.installed() !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => licenseBody(s.licensing, present(s.licensing.installed(), ctx)),
    },
    delete: {
      privilege: Priv.managerConfig,
      handler: (ctx) => {
        if (!s.licensing.remove()) throw missing(ctx);
      },
    },
  });
}
