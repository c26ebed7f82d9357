// Every vendor action a resource shows under Oem/Vendor/Actions resolves from $metadata, as
// DMTF's Service Validator resolves it: "#Namespace.Name" is an Action Name="Name" IsBound="true"
// in a Schema of that namespace (unversioned or versioned), in a document $metadata references
// with an edmx:Include of that namespace; the action declares its binding parameter and parameters.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const RESOURCES = [
  '/redfish/v1/Systems/1/',
  '/redfish/v1/Managers/1/',
  '/redfish/v1/Chassis/1/Thermal/',
  '/redfish/v1/UpdateService/',
  '/redfish/v1/UpdateService/UpdateTaskQueue/',
];

const EXPECTED = [
  'VendorComputerSystemExt.PowerButton',
  'VendorComputerSystemExt.SystemReset',
  'VendorMC.ClearRestApiState',
  'VendorThermalExt.SetUserTempThreshold',
  'VendorMCUpdateServiceExt.AddFromUri',
  'VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck',
  'VendorUpdateTaskQueue.SetRuntimeAgent',
];

/** The parameters each action takes (besides the binding one), as the service accepts them. */
const PARAMETERS: Record<string, [string, 'required' | 'optional'][]> = {
  'VendorComputerSystemExt.PowerButton': [['PushType', 'required']],
  'VendorComputerSystemExt.SystemReset': [['ResetType', 'optional']],
  'VendorMC.ClearRestApiState': [],
  'VendorThermalExt.SetUserTempThreshold': [
    ['SensorNumber', 'required'],
    ['AlertType', 'required'],
    ['ThresholdCelsius', 'required'],
  ],
  'VendorMCUpdateServiceExt.AddFromUri': [
    ['ImageURI', 'required'],
    ['CompSigURI', 'optional'],
    ['Targets', 'optional'],
    ['UpdateTarget', 'optional'],
    ['UpdateRepository', 'optional'],
  ],
  'VendorMCUpdateServiceExt.StartFirmwareIntegrityCheck': [],
  'VendorUpdateTaskQueue.SetRuntimeAgent': [['Installed', 'required']],
};

/** $metadata's references: the namespaces each document's Includes name. */
function references(xml: string): Map<string, string[]> {
  const refs = new Map<string, string[]>();
  for (const m of xml.matchAll(/<edmx:Reference\s+Uri="([^"]+)"\s*>([\s\S]*?)<\/edmx:Reference>/g)) {
    const namespaces = [...(m[2] ?? '').matchAll(/<edmx:Include\s+Namespace="([^"]+)"/g)].map((i) => i[1] ?? '');
    refs.set((m[1] ?? '').replace(/&amp;/g, '&'), namespaces);
  }
  return refs;
}

/** A CSDL document's schemas: their bodies by namespace. */
function schemas(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of xml.matchAll(/<Schema\s[^>]*Namespace="([^"]+)"[^>]*>([\s\S]*?)<\/Schema>/g)) out.set(m[1] ?? '', m[2] ?? '');
  return out;
}

interface CsdlAction {
  parameters: { name: string; type: string; nullable: boolean }[];
}

/** The bound actions a schema declares, by name, with their parameters in order. */
function boundActions(schema: string): Map<string, CsdlAction> {
  const out = new Map<string, CsdlAction>();
  for (const m of schema.matchAll(/<Action\s+Name="([^"]+)"\s+IsBound="true"\s*>([\s\S]*?)<\/Action>/g)) {
    const parameters = [...(m[2] ?? '').matchAll(/<Parameter\s+Name="([^"]+)"\s+Type="([^"]+)"([^>]*)\/>/g)].map((p) => ({
      name: p[1] ?? '',
      type: p[2] ?? '',
      nullable: !/Nullable="false"/.test(p[3] ?? ''),
    }));
    out.set(m[1] ?? '', { parameters });
  }
  return out;
}

/** Names of the complex types a schema declares. */
function complexTypes(schema: string): Set<string> {
  return new Set([...schema.matchAll(/<ComplexType\s+Name="([^"]+)"/g)].map((m) => m[1] ?? ''));
}

describe('vendor actions resolve from $metadata', () => {
  let svc: TestService;
  let refs: Map<string, string[]>;
  const docs = new Map<string, Map<string, string>>();
  /** "#Namespace.Name" → the resource showing it and its target. */
  const shown = new Map<string, { resource: string; target: string }>();

  before(async () => {
    svc = await startTestService();
    const meta = await svc.get('/redfish/v1/$metadata', { auth: 'none' });
    assert.equal(meta.status, 200);
    refs = references(meta.text);
    assert.ok(refs.size > 0, 'references in $metadata');
    for (const uri of refs.keys()) {
      if (!uri.startsWith('/redfish/v1/')) continue;
      const r = await svc.get(uri, { auth: 'none' });
      assert.equal(r.status, 200, uri);
      assert.match(r.headers['content-type'] ?? '', /application\/xml/, uri);
      docs.set(uri, schemas(r.text));
    }
    for (const resource of RESOURCES) {
      const r = await svc.get(resource);
      assert.equal(r.status, 200, resource);
      const actions = r.body?.Oem?.Vendor?.Actions ?? {};
      for (const [key, v] of Object.entries(actions)) {
        if (!key.startsWith('#')) continue;
        shown.set(key, { resource, target: (v as { target?: string }).target ?? '' });
      }
    }
  });
  after(() => svc.close());

  it('the crawled resources show the seven vendor actions', () => {
    for (const name of EXPECTED) assert.ok(shown.has(`#${name}`), `#${name} under Oem/Vendor/Actions`);
  });

  it('every action shown is declared, bound, in an included namespace of a served document', () => {
    assert.ok(shown.size >= EXPECTED.length);
    for (const [key, { resource, target }] of shown) {
      const full = key.slice(1);
      const ns = full.slice(0, full.lastIndexOf('.'));
      const name = full.slice(full.lastIndexOf('.') + 1);
      const accepted = (n: string) => n === ns || (/^v\d+_\d+_\d+$/.test(n.slice(ns.length + 1)) && n.startsWith(`${ns}.`));
      const found: { uri: string; namespace: string; action: CsdlAction; schema: string }[] = [];
      for (const [uri, namespaces] of refs) {
        const doc = docs.get(uri);
        for (const n of namespaces.filter(accepted)) {
          const schema = doc?.get(n);
          const action = schema && boundActions(schema).get(name);
          if (action && schema) found.push({ uri, namespace: n, action, schema });
        }
      }
      assert.equal(found.length, 1, `${key} (${resource}): declared once in a served, included namespace`);
      const { uri, action } = found[0] ?? assert.fail(key);
      // The binding parameter: the Actions complex type of the Oem object type, where the action sits.
      assert.ok(action.parameters.length >= 1, `${key}: binding parameter`);
      const binding = action.parameters[0]?.type ?? '';
      const dot = binding.lastIndexOf('.');
      const bindingNs = binding.slice(0, dot);
      assert.ok(accepted(bindingNs), `${key}: binding type ${binding} in namespace ${ns}`);
      assert.ok(complexTypes(docs.get(uri)?.get(bindingNs) ?? '').has(binding.slice(dot + 1)), `${key}: ${binding} declared in ${uri}`);
      assert.ok(target, `${key}: target`);
    }
  });

  it('each declares the parameters the action takes, required ones not nullable', () => {
    for (const [full, expected] of Object.entries(PARAMETERS)) {
      const ns = full.slice(0, full.lastIndexOf('.'));
      const name = full.slice(full.lastIndexOf('.') + 1);
      const uri = [...refs].find(([, n]) => n.includes(ns))?.[0] ?? '';
      const action = boundActions(docs.get(uri)?.get(ns) ?? '').get(name);
      assert.ok(action, full);
      assert.deepEqual(
        action.parameters.slice(1).map((p) => [p.name, p.nullable ? 'optional' : 'required']),
        expected,
        full,
      );
    }
  });
});
