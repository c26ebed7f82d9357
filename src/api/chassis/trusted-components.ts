// TrustedComponents: the TPM as a resource of its own, DMTF's replacement for the
// system's deprecated TrustedModules. It exists while the TPM is installed, and
// shows the same firmware and state as TrustedModules.
import { Priv } from '../../lib/privileges.js';
import { addCollection } from '../../protocol/collections.js';
import { defineType, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import type { RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

/** Firmware of the simulated TPM 2.0, as TrustedModules shows it too. */
export const TPM_FIRMWARE_VERSION = '73.20.17568.5511';

export const TrustedComponentType = defineType({
  name: 'TrustedComponent',
  version: '1.4.0',
  owner: 'DMTF',
  description: 'A trusted component: the TPM of the system.',
  properties: {
    ...commonProps,
    TrustedComponentType: ro(t.enum(['Discrete', 'Integrated'])),
    Manufacturer: ro(t.string()),
    Model: ro(t.string()),
    FirmwareVersion: ro(t.string()),
    Status: statusProp,
    TPM: ro(t.object({ HardwareInterfaceVendorID: ro(t.string()), CapabilitiesVendorID: ro(t.string()) }, { typeName: 'TPM' })),
    Links: ro(t.object({ ComponentsProtected: t.links({ readOnly: true }) }, { typeName: 'Links' })),
  },
});

export type TrustedComponentDeps = Pick<Services, 'uris' | 'host'>;

/** The trusted components of the one system: the TPM while one is installed. */
export function trustedComponentUris(d: TrustedComponentDeps): string[] {
  return d.host.tpm().installed ? [d.uris.chassis('TrustedComponents', 'TPM')] : [];
}

function handlers(d: TrustedComponentDeps) {
  const list = () => (d.host.tpm().installed ? ['TPM'] : []);
  const components = { list, get: (id: string) => list().find((x) => x === id), id: (x: string) => x };
  return { components, tpmBody };

  function tpmBody() {
    return {
      Id: 'TPM',
      Name: 'Trusted Platform Module',
      TrustedComponentType: 'Discrete',
      Manufacturer: 'Infineon',
      Model: 'SLB9670 TPM 2.0',
      FirmwareVersion: TPM_FIRMWARE_VERSION,
      Status: { State: 'Enabled', Health: 'OK' },
      TPM: { HardwareInterfaceVendorID: '0x15D1', CapabilitiesVendorID: 'IFX' },
      Links: { ComponentsProtected: [{ '@odata.id': d.uris.system() }] },
    };
  }
}

export function registerTrustedComponentRoutes(routes: RouteTable, d: TrustedComponentDeps): void {
  const h = handlers(d);
  addCollection(routes, {
    collection: '/redfish/v1/Chassis/{ChassisId}/TrustedComponents/',
    member: '/redfish/v1/Chassis/{ChassisId}/TrustedComponents/{TrustedComponentId}/',
    type: TrustedComponentType,
    name: 'Trusted Components',
    store: h.components,
    show: h.tpmBody,
    privileges: { read: Priv.login },
  });
}
