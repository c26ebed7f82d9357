// The canonical vendor token the service's code writes (protocol/naming.ts renames it to the
// configured --oem-name where the service renders, parses and routes). Below every layer: the
// domain names its vendor types and properties with it too.

/** The canonical OEM token: the `Oem` key, the prefix of vendor types and of the vendor registries. */
export const OEM = 'Vendor';
export type Oem = typeof OEM;

/** What the controller's own types add to the prefix (`VendorMC.ClearRestApiState`); iLO's is `iLO`. */
export const CONTROLLER = 'MC';

/**
 * The controller's own firmware as areas name it (its inventory entry, the messages about it); the
 * service shows the vendor's name for it (iLO's "iLO 5"). Other product names in prose start with
 * the token as a word ("Vendor Smart Array …") and show the vendor's label ("HPE Smart Array …").
 */
export const CONTROLLER_FIRMWARE = `${OEM} Management Controller`;

/** A vendor type's canonical name: oemType('ComputerSystemExt') is "VendorComputerSystemExt". */
export function oemType<const B extends string>(base: B): `${Oem}${B}` {
  return `${OEM}${base}`;
}

/** A controller type's canonical name: controllerType('UpdateServiceExt') is "VendorMCUpdateServiceExt". */
export function controllerType<const B extends string>(base: B): `${Oem}${typeof CONTROLLER}${B}` {
  return `${OEM}${CONTROLLER}${base}`;
}

/** An OEM name must be an identifier: a letter, then letters and digits. */
export function isOemName(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9]{0,31}$/.test(name);
}
