// The JSON Schemas a service publishes, read from it over HTTPS: ajv set up for
// Redfish's schema documents, each document fetched from the service as a $ref
// names it, and the validator of each @odata.type its JsonSchemaFile names.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TestService } from './service.js';

/**
 * ajv for Redfish's documents: Redfish's own keywords (readonly, requiredOnCreate...) are
 * annotations, and DMTF's Redfish meta-schema (a dialect the service does not describe)
 * stands for draft-07, so every document is still checked as a schema.
 */
export function redfishAjv(loadSchema?: (uri: string) => Promise<object>): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, ...(loadSchema ? { loadSchema } : {}) });
  addFormats.default(ajv);
  ajv.addMetaSchema({ $id: 'http://redfish.dmtf.org/schemas/v1/redfish-schema-v1.json', $ref: 'http://json-schema.org/draft-07/schema#' });
  return ajv;
}

/** The validators of the types a service serves, by @odata.type, from the documents it publishes. */
export class PublishedSchemas {
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  private constructor(
    svc: TestService,
    /** Where each @odata.type's document is, as its JsonSchemaFile says. */
    private readonly files: ReadonlyMap<string, string>,
  ) {
    this.ajv = redfishAjv(async (uri) => {
      const r = await svc.get(uri, { auth: 'none' });
      if (r.status !== 200) throw new Error(`${uri}: ${r.status}`);
      return r.body as object;
    });
  }

  /** The JsonSchemaFile collection the service root links, read whole. */
  static async of(svc: TestService): Promise<PublishedSchemas> {
    const root = await svc.get('/redfish/v1/');
    const list = await svc.get(`${root.body.JsonSchemas['@odata.id']}?$expand=.`);
    if (list.status !== 200) throw new Error(`JsonSchemas: ${list.status} ${list.text}`);
    const files = new Map<string, string>();
    for (const f of list.body.Members as { Schema: string; Location: { Uri?: string }[] }[]) {
      const uri = f.Location.find((l) => l.Uri)?.Uri;
      if (uri) files.set(f.Schema, uri);
    }
    return new PublishedSchemas(svc, files);
  }

  /** The validator of an @odata.type, its document and every document it refers to read from the service. */
  async validator(odataType: string): Promise<ValidateFunction | undefined> {
    let v = this.validators.get(odataType);
    if (v) return v;
    const uri = this.files.get(odataType);
    if (!uri) return undefined;
    const known = this.ajv.getSchema(uri);
    v = known ?? (await this.ajv.compileAsync({ $ref: uri }));
    this.validators.set(odataType, v);
    return v;
  }
}
