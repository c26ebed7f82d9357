// Dialects: how the service spells what it serves. `spec` is the product's (iLO's)
// conventions; `dmtf` follows DMTF's strictly, as OpenBMC does. Areas write one
// canonical form (URIs with a trailing slash); the pipeline turns it into the
// dialect's on the way out, so no area knows which dialect it serves.
import { unslashJson, unslashUri } from '../lib/uri-style.js';

export const DIALECTS = ['spec', 'dmtf'] as const;
export type DialectName = (typeof DIALECTS)[number];

export interface Dialect {
  readonly name: DialectName;
  /** A GET without the trailing slash is redirected to it (spec), or served as is (dmtf). */
  readonly redirectsToSlash: boolean;
  /** Deprecated properties (described with `deprecated`) are left out of what is served. */
  readonly hidesDeprecated: boolean;
  /** Vendor actions sit under Oem/Vendor/Actions (iLO's place) or under Actions/Oem (DMTF's). */
  readonly vendorActions: 'oem-vendor' | 'actions-oem';
  /** The JsonSchemaFile collection. */
  readonly jsonSchemasUri: string;
  /** Drives are shown under their Storage (iLO's place) or under the Chassis (DMTF's current one). */
  readonly drivesUnder: 'storage' | 'chassis';
  /**
   * A reset type that does not fit the power state is refused, as iLO does, or done as an
   * OpenBMC-style controller does: a restart of an Off system powers it on, ForceOff of an Off
   * one and On of an On one succeed doing nothing. The composition root hands it to the simulator.
   */
  readonly lenientResets: boolean;
  /** A serialized JSON body as the dialect spells it. */
  json(text: string): string;
  /** A URI (a Location header) as the dialect spells it. */
  uri(uri: string): string;
}

const same = (s: string) => s;

const DIALECT: Record<DialectName, Dialect> = {
  spec: {
    name: 'spec',
    redirectsToSlash: true,
    hidesDeprecated: false,
    vendorActions: 'oem-vendor',
    jsonSchemasUri: '/redfish/v1/schemas/',
    drivesUnder: 'storage',
    lenientResets: false,
    json: same,
    uri: same,
  },
  dmtf: {
    name: 'dmtf',
    redirectsToSlash: false,
    hidesDeprecated: true,
    vendorActions: 'actions-oem',
    jsonSchemasUri: '/redfish/v1/JsonSchemas/',
    drivesUnder: 'chassis',
    lenientResets: true,
    json: unslashJson,
    uri: unslashUri,
  },
};

// One object per variant, so whatever keys on the dialect sees the same one each time.
const SHOWING_DEPRECATED = new Map<DialectName, Dialect>();

/**
 * A dialect by name. `showDeprecated` serves the deprecated properties a dialect leaves out
 * (dmtf): profiles that still require them (OCP Server 1.1.0: Chassis Thermal and Power) pass,
 * and DMTF's Service Validator warns about each, as it must.
 */
export function dialect(name: string, options: { showDeprecated?: boolean } = {}): Dialect {
  const d = DIALECT[name as DialectName];
  if (!d) throw new Error(`unknown dialect ${name}`);
  if (!options.showDeprecated || !d.hidesDeprecated) return d;
  let shown = SHOWING_DEPRECATED.get(d.name);
  if (!shown) SHOWING_DEPRECATED.set(d.name, (shown = { ...d, hidesDeprecated: false }));
  return shown;
}
