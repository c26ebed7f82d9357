// The vendor namespace (`--oem-name`): the one place that spells it. Areas write the canonical
// token through OEM, oemType() and controllerType(); a service's Naming turns it into the
// configured wire name where types, keys and registries are rendered (descriptions given to the
// route table, bodies on the way out, registries), parsed (request bodies) and routed (action
// targets). The default name is the canonical one, so the default service renames nothing.
import type { RegistryDef } from '../messages/registry-types.js';
import type { ActionDef, Prop, Props, ResourceType } from './description.js';
import { CONTROLLER, CONTROLLER_FIRMWARE, isOemName, OEM, oemType } from '../lib/oem-token.js';

export { controllerType, OEM, oemType } from '../lib/oem-token.js';

/** The management controller as its vendor names it: the manager's Model, the root's ManagerType and Moniker. */
export interface ControllerProduct {
  model: string;
  type: string;
  /** Its firmware's name in the firmware inventory and in messages (iLO's "iLO 5"). */
  firmwareName: string;
  /** Its release (iLO 5: 5): what it offers follows it (iLO 6's factory identity certificates). */
  release: number;
  moniker: Readonly<Record<string, string>>;
}

interface Vendor {
  /** What the vendor calls itself where a person reads it (Manufacturer, the root's Vendor). */
  label: string;
  /** Its controller, by the generation of the server it sits in ("VS380 Gen10": 10). */
  product?: (generation: number | undefined) => ControllerProduct;
  /** What its controller's own types add to the prefix (`HpeiLO…`). */
  controller: string;
  /** Its own names for vendor types where they differ from prefix + base (collections follow their member). */
  types?: Readonly<Record<string, string>>;
  /** Its own names for vendor properties (and the privileges they name, in roles' OemPrivileges). */
  properties?: Readonly<Record<string, string>>;
  /** Values its actions take beyond the product's, by canonical action and parameter. */
  actionValues?: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  /** Settings objects spelled in lower case in what lists them (iLO's `…/bios/settings`). */
  lowerCaseSettings?: boolean;
  /**
   * No `@Redfish.WriteableProperties` (iLO names none): ilorest's `pending` diffs a settings object
   * with its current resource and fails on a member only one of them has.
   */
  unannotatedWrites?: boolean;
}

/** iLO 5 sits in Gen10 (and Gen10 Plus) servers, iLO 6 in Gen11, iLO 7 in Gen12. */
function iloProduct(generation: number | undefined): ControllerProduct {
  const n = generation && generation >= 10 ? generation - 5 : 5;
  const type = `iLO ${n}`;
  return {
    model: type,
    type,
    firmwareName: type,
    release: n,
    // The root's Oem/Hpe/Moniker, as iLO 5 and 6 show it.
    moniker: {
      ADVLIC: 'iLO Advanced',
      BMC: 'iLO',
      BSYS: 'BladeSystem',
      CLASS: 'Baseboard Management Controller',
      FEDGRP: 'DEFAULT',
      IPROV: 'Intelligent Provisioning',
      PRODABR: 'iLO',
      PRODFAM: 'Integrated Lights-Out',
      PRODGEN: type,
      PRODNAM: `Integrated Lights-Out ${n}`,
      PRODTAG: `HPE ${type}`,
      STDLIC: 'iLO Standard',
      SUMABR: 'SUM',
      SUMGR: 'Smart Update Manager',
      SYSFAM: 'ProLiant',
      SYSMGMT: 'Enhanced',
      VENDABR: 'HPE',
      VENDNAM: 'Hewlett-Packard Enterprise',
      VNIC: 'Virtual NIC',
      WWW: 'www.hpe.com',
      WWWAHSV: 'www.hpe.com/servers/ahsv',
      WWWBMC: 'www.hpe.com/servers/ilo',
      WWWDOC: 'www.hpe.com/support/ilo-docs',
      WWWERS: 'www.hpe.com/services/getconnected',
      WWWGLIS: 'www.hpe.com/glis',
      // InfoSight's link is iLO 5's alone (iLO 6's reference no longer lists it).
      ...(n === 5 ? { WWWINFOSIGHT: 'infosight.hpe.com' } : {}),
      WWWIOL: 'www.hpe.com/info/insightonline',
      WWWLIC: 'www.hpe.com/info/ilo',
      WWWLML: 'www.hpe.com/support',
      WWWPASS: 'www.hpe.com/support/hpesc',
      WWWPRV: 'www.hpe.com/info/privacy',
      WWWQSPEC: 'www.hpe.com/info/qs',
      WWWRESTDOC: 'www.hpe.com/us/en/servers/restful-api.html',
      WWWSUP: `www.hpe.com/support/ilo${n}`,
      WWWSWLIC: 'www.hpe.com/software/SWLicensing',
    },
  };
}

const VENDORS: Readonly<Record<string, Vendor>> = {
  [OEM]: { label: 'Vendor', controller: CONTROLLER },
  // iLO 5/6 (HPE's iLO REST API reference and captured controllers).
  Hpe: {
    label: 'HPE',
    controller: 'iLO',
    product: iloProduct,
    types: {
      [oemType('License')]: 'HpeiLOLicense',
      [oemType('VirtualMedia')]: 'HpeiLOVirtualMedia',
      [oemType('ManagerAccount')]: 'HpeiLOAccount',
      [oemType('AccountService')]: 'HpeiLOAccountService',
      [oemType('Session')]: 'HpeiLOSession',
      [oemType('SoftwareInventory')]: 'HpeiLOSoftwareInventory',
      [oemType('CertificateMapping')]: 'HpeiLOAccountCertificateMap',
      [oemType('UpdateTask')]: 'HpeComponentUpdateTask',
      [oemType('UpdateTaskQueue')]: 'HpeComponentUpdateTaskQueue',
      [oemType('IscsiSoftwareInitiator')]: 'HpeiSCSISoftwareInitiator',
      [oemType('ThermalFan')]: 'HpeServerFan',
    },
    properties: { ManagerConfigPriv: 'iLOConfigPriv' },
    // iLO's SystemReset also cold-boots the server (main power removed and restored).
    actionValues: { [`${oemType('ComputerSystemExt')}.SystemReset`]: { ResetType: ['ColdBoot'] } },
    lowerCaseSettings: true,
    unannotatedWrites: true,
  },
};

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A name that starts with the canonical token as a word: "Vendor", "VendorX", "Vendor.1.0", not "Vendors". */
const CANONICAL_NAME = new RegExp(`^${OEM}(?=$|[A-Z0-9._])`);

const namings = new Map<string, Naming>();

/** The generation of a server model ("VS380 Gen10": 10). */
function generationOf(systemModel: string | undefined): number | undefined {
  const generation = systemModel && /\bGen(\d+)\b/.exec(systemModel)?.[1];
  return generation ? Number(generation) : undefined;
}

/** Where bodies carry product names and text a person reads (manufacturers, inventory names, messages). */
const PROSE_KEYS: ReadonlySet<string> = new Set(['Manufacturer', 'Name', 'MessageArgs', 'Message']);
/** The token as the first word of a name in prose ("Vendor Smart Array"), not "VendorX.Y" or "Oem/Vendor/". */
const PROSE_TOKEN = new RegExp(`(?<![A-Za-z0-9#/.])${OEM}(?= )`);
const PROSE_TOKEN_ALL = new RegExp(PROSE_TOKEN.source, 'g');

export class Naming {
  /**
   * The naming of a name for a server model (its generation picks the vendor's controller), shared:
   * every controller of a fleet serves the same descriptions and registries.
   */
  static of(name: string, systemModel?: string): Naming {
    const key = `${name} ${generationOf(systemModel) ?? ''}`;
    let n = namings.get(key);
    if (!n) namings.set(key, (n = new Naming(name, systemModel)));
    return n;
  }

  /** The wire name: the `Oem` key and the prefix of vendor types and registries. */
  readonly key: string;
  /** What the vendor is called where a person reads it ("Vendor", "HPE"). */
  readonly label: string;
  /** True for the canonical name: nothing is renamed. */
  readonly identity: boolean;
  private readonly controllerPrefix: string;
  private readonly own: ReadonlyMap<string, string>;
  private readonly product?: Vendor['product'];
  private readonly keys: ReadonlyMap<string, string>;
  private readonly actionValues: NonNullable<Vendor['actionValues']>;
  private readonly lowerCaseSettings: boolean;
  private readonly unannotatedWrites: boolean;
  private readonly canonicalKeys: ReadonlyMap<string, string>;
  private readonly ownCanonical: ReadonlyMap<string, string>;
  private readonly renamed = new WeakMap<object, object>();

  /** The controller's firmware name, for the prose that names it (CONTROLLER_FIRMWARE). */
  private readonly controllerFirmware: string;

  constructor(name: string = OEM, systemModel?: string) {
    if (!isOemName(name)) throw new Error(`an OEM name is a letter followed by letters and digits, got '${name}'`);
    this.key = name;
    this.identity = name === OEM;
    const known = VENDORS[name];
    this.label = known?.label ?? name;
    this.controllerPrefix = name + (known?.controller ?? CONTROLLER);
    this.product = known?.product;
    this.own = new Map(Object.entries(known?.types ?? {}));
    this.ownCanonical = new Map([...this.own].map(([c, w]) => [w, c]));
    this.keys = new Map(Object.entries(known?.properties ?? {}));
    this.actionValues = known?.actionValues ?? {};
    this.lowerCaseSettings = known?.lowerCaseSettings ?? false;
    this.unannotatedWrites = known?.unannotatedWrites ?? false;
    this.canonicalKeys = new Map([...this.keys].map(([c, w]) => [w, c]));
    this.controllerFirmware = this.controller(systemModel ?? '').firmwareName;
  }

  /** The controller of a server model ("VS380 Gen10") as the vendor names it; the product's "MC 6" for any other vendor. */
  controller(systemModel: string): ControllerProduct {
    if (this.product) return this.product(generationOf(systemModel));
    const release = 6;
    const type = `${CONTROLLER} ${release}`;
    return {
      model: `${this.label} ${type}`,
      type,
      release,
      firmwareName: CONTROLLER_FIRMWARE.replace(OEM, this.label),
      moniker: {
        BMC: CONTROLLER,
        CLASS: 'Baseboard Management Controller',
        PRODABR: CONTROLLER,
        PRODGEN: type,
        VENDABR: this.label,
        VENDNAM: this.label,
      },
    };
  }

  /** A type, action or registry name as served: "VendorMCLicense" becomes "HpeiLOLicense", "VendorX.Y" "HpeX.Y". */
  name(canonical: string): string {
    if (this.identity || !CANONICAL_NAME.test(canonical)) return canonical;
    const own = this.ownName(canonical, this.own);
    if (own) return own;
    const rest = canonical.slice(OEM.length);
    return rest.startsWith(CONTROLLER) && /^(?:$|[A-Z._])/.test(rest.slice(CONTROLLER.length))
      ? this.controllerPrefix + rest.slice(CONTROLLER.length)
      : this.key + rest;
  }

  /** A name the vendor's table renames: the type itself, its collection, or one of its actions. */
  private ownName(name: string, table: ReadonlyMap<string, string>): string | undefined {
    if (!table.size) return undefined;
    const [type = '', ...action] = name.split('.');
    const base = type.endsWith('Collection') && !table.has(type) ? type.slice(0, -'Collection'.length) : type;
    const renamed = table.get(base);
    return renamed && [renamed + type.slice(base.length), ...action].join('.');
  }

  // -- descriptions: the route table holds them as served ---------------------------------------

  /** A resource type with its vendor names and Oem keys as served (the same object under the canonical name). */
  type<T extends ResourceType | undefined>(type: T): T {
    if (this.identity || !type) return type;
    return this.once(type, () => {
      const out: { -readonly [K in keyof ResourceType]: ResourceType[K] } = { ...type, name: this.name(type.name) };
      this.renamed.set(type, out);
      out.properties = this.props(type.properties);
      if (type.memberType) out.memberType = this.type(type.memberType);
      if (type.actions) out.actions = type.actions.map((a) => this.action(a));
      return out;
    }) as T;
  }

  /** An action as served: its name, and its parameters' Oem keys. */
  action<D extends ActionDef>(def: D): D {
    if (this.identity) return def;
    return this.once<D>(def, () => ({ ...def, name: this.name(def.name), parameters: this.withValues(def, this.props(def.parameters)) }));
  }

  /** An action's parameters with the values the vendor's own action takes besides. */
  private withValues(def: ActionDef, parameters: Props): Props {
    const more = this.actionValues[def.name];
    if (!more) return parameters;
    const out: Record<string, Prop> = { ...parameters };
    for (const [name, values] of Object.entries(more)) {
      const p = out[name];
      if (p?.type === 'string' && p.enum) out[name] = { ...p, enum: [...p.enum, ...values] };
    }
    return out;
  }

  /**
   * A settings object's URI as the vendor spells it wherever it shows (its route, its @odata.id, the
   * SettingsObject link, the ResourceDirectory): iLO's `…/settings/`. A client that meets two
   * spellings holds two copies and PATCHes both, the second with a stale ETag. Typed as given: a
   * route template keeps its parameters.
   */
  listedUri<U extends string>(uri: U): U {
    return (this.lowerCaseSettings ? uri.replace(/\/Settings\/$/, '/settings/') : uri) as U;
  }

  /** Whether resources name their writable properties (`@Redfish.WriteableProperties`). */
  get annotatesWritable(): boolean {
    return !this.unannotatedWrites;
  }

  /** Properties as served: the canonical key under each `Oem` object becomes the wire name. */
  props<P extends Props | undefined>(props: P, underOem = false): P {
    if (this.identity || !props) return props;
    return this.once(props, () => {
      const out: Record<string, Prop> = {};
      this.renamed.set(props, out);
      for (const [k, p] of Object.entries(props))
        out[underOem && k === OEM ? this.key : (this.keys.get(k) ?? k)] = this.prop(p, k === 'Oem');
      return out;
    }) as P;
  }

  private prop(p: Prop, isOem = false): Prop {
    if (p.type === 'array') return this.once(p, () => ({ ...p, items: this.prop(p.items) }));
    if (p.type !== 'object') return p;
    return this.once(p, () => {
      const out = { ...p, properties: this.props(p.properties, isOem || p.typeName === 'Oem') };
      if (p.typeName) out.typeName = this.name(p.typeName);
      if (p.vendorType) out.vendorType = this.type(p.vendorType);
      if (isObject(p.additionalProperties)) out.additionalProperties = this.prop(p.additionalProperties as Prop);
      return out;
    });
  }

  private once<T extends object>(from: T, make: () => T): T {
    const known = this.renamed.get(from);
    if (known) return known as T;
    const made = make();
    this.renamed.set(from, made);
    return made;
  }

  /** A message registry as served: its prefix (and with it its MessageIds and file names). */
  registry(reg: RegistryDef): RegistryDef {
    if (this.identity || !CANONICAL_NAME.test(reg.prefix)) return reg;
    const prefix = this.name(reg.prefix);
    return this.once(reg, () => ({ ...reg, prefix, name: reg.name.replace(reg.prefix, prefix), owningEntity: this.label }));
  }

  /** A served name as the service's code writes it: "HpeiLOLicense" is "VendorMCLicense", "Hpe.1.0.X" "Vendor.1.0.X". */
  canonical(served: string): string {
    if (this.identity) return served;
    const own = this.ownName(served, this.ownCanonical);
    if (own) return own;
    const word = (prefix: string) => served.startsWith(prefix) && /^(?:$|[A-Z0-9._])/.test(served.slice(prefix.length));
    if (word(this.controllerPrefix)) return OEM + CONTROLLER + served.slice(this.controllerPrefix.length);
    return word(this.key) ? OEM + served.slice(this.key.length) : served;
  }

  // -- bodies: areas write canonical names, clients see and send the wire name ------------------

  /** A body as served: Oem keys, vendor types, action names, vendor URIs and MessageIds renamed (copied where changed). */
  outward<T>(value: T): T {
    return this.identity ? value : (this.out(value, '') as T);
  }

  /** Serialized JSON as served (events, which the hub keeps serialized). */
  outwardJson(json: string): string {
    return this.identity || !json.includes(OEM) ? json : JSON.stringify(this.out(JSON.parse(json), ''));
  }

  /** A request body as areas read it: the wire name's Oem keys become the canonical token. */
  inward<T>(value: T): T {
    return this.identity ? value : (this.in(value, '') as T);
  }

  private out(v: unknown, key: string): unknown {
    if (typeof v === 'string') return this.value(v, key);
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      v.forEach((x, i) => {
        const y = this.out(x, key);
        if (y !== x) (copy ??= [...v])[i] = y;
      });
      return copy ?? v;
    }
    if (!isObject(v)) return v;
    let changed = false;
    const entries = Object.entries(v).map(([k, x]): [string, unknown] => {
      const k2 = key === 'Oem' && k === OEM ? this.key : k.startsWith(`#${OEM}`) ? `#${this.dotted(k.slice(1))}` : (this.keys.get(k) ?? k);
      const x2 = this.out(x, k);
      if (k2 !== k || x2 !== x) changed = true;
      return [k2, x2];
    });
    return changed ? Object.fromEntries(entries) : v;
  }

  private in(v: unknown, key: string): unknown {
    if (Array.isArray(v)) return v.map((x) => this.in(x, key));
    // Event filters and test events name registries and messages as the client reads them.
    if (typeof v === 'string' && (key === 'RegistryPrefixes' || key === 'MessageIds' || key === 'MessageId'))
      return v.replace(/[^.]+/, (p) => this.canonical(p));
    if (!isObject(v)) return v;
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [key === 'Oem' && k === this.key ? OEM : (this.canonicalKeys.get(k) ?? k), this.in(x, k)]),
    );
  }

  /** A string by what it is: a MessageId, a message argument or text, a record format, a type or a URI. */
  private value(s: string, key: string): string {
    if (key === 'OemPrivileges') return this.keys.get(s) ?? s;
    if (!s.includes(OEM)) return s;
    if (key === 'Manufacturer' && s === OEM) return this.label;
    if (PROSE_KEYS.has(key) && PROSE_TOKEN.test(s)) s = this.prose(s);
    switch (key) {
      case 'MessageId':
      case 'code':
      case 'RegistryPrefix':
      case 'RegistryPrefixes':
      case 'MessageIds':
        return this.dotted(s);
      case 'MessageArgs':
        return /^[A-Za-z0-9._]+$/.test(s) ? this.dotted(s) : this.string(s);
      case 'Message':
        // Its arguments, as the registry's text placed them.
        return s.replace(new RegExp(`(?<![A-Za-z])${OEM}[A-Za-z0-9]*(?:\\.[A-Za-z]+)?|Oem/${OEM}(?=/)`, 'g'), (m) =>
          m.startsWith('Oem/') ? this.path(m) : this.dotted(m),
        );
      case 'OemRecordFormat':
        return s.startsWith(`${OEM}-`) ? this.key + s.slice(OEM.length) : s;
      default:
        return this.string(s);
    }
  }

  /** Text a person reads: the controller's firmware by its name, the vendor by its label ("HPE Smart Array …"). */
  private prose(s: string): string {
    return s.replaceAll(CONTROLLER_FIRMWARE, this.controllerFirmware).replace(PROSE_TOKEN_ALL, this.label);
  }

  /** "#VendorX.v1_0_0.VendorX", "/redfish/v1/…/Oem/Vendor/VendorX.Y/", "#/Oem/Vendor/Z", "Oem/Vendor/Z". */
  private string(s: string): string {
    if (!s.includes(OEM)) return s;
    if (s.startsWith(`#${OEM}`)) return `#${this.dotted(s.slice(1))}`;
    if (s.startsWith('/') || s.startsWith('#/') || s.startsWith('Oem/')) return this.path(s);
    return s;
  }

  /** Each segment of a path: the key after `Oem`, and vendor names with a dot ("VendorX.Y", "VendorX.v1_0_0.json", "Vendor.1.0"). */
  private path(s: string): string {
    const segments = s.split('/');
    return segments
      .map((seg, i) => {
        if (seg === OEM && segments[i - 1] === 'Oem') return this.key;
        return /[.#]/.test(seg) ? seg.replace(/[^.#]+/g, (part) => this.name(part)) : seg;
      })
      .join('/');
  }

  /** Every dot-separated part of a name: "VendorX.v1_0_0.VendorX", "Vendor.1.0.Key". */
  private dotted(s: string): string {
    return s.includes(OEM) ? s.replace(/[^.]+/g, (part) => this.name(part)) : s;
  }
}

/** The service's naming under the canonical name (tests, tools). */
export const CANONICAL_NAMING = Naming.of(OEM);
