// The response contract: every answer the service gives is valid under the JSON
// Schema the service itself publishes for its @odata.type (its JsonSchemaFile's
// document in the schema store, every $ref read from the service too). A crawl
// reaches every GET route of both dialects, with a member in every collection and
// the control API on; every create, every PATCH (each answering the resource with
// a message for a property it refused) and the setup's actions that answer a
// resource are checked the same way, and a second crawl after those writes reads every memoized
// representation again (the self-checks rebuild each one: lib/self-check.ts).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../src/platform/x509.js';
import type { Props } from '../../src/protocol/description.js';
import type { AnyRoute } from '../../src/protocol/routes.js';
import { isoImage } from '../support/media.js';
import { addMemberToEveryCollection } from '../support/members.js';
import { servedLinks, unreachedGetRoutes, walk, WALK_STARTS } from '../support/route-walk.js';
import { PublishedSchemas } from '../support/schemas.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type Response, type TestService } from '../support/service.js';

/** Creates that answer something else than the member: a volume is made by a task (202). */
const CREATED_LATER = ['/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/'];
/** The setup's actions that answer a resource (a Task, the CA certificate made), with their status. */
const ACTIONS_ANSWERING_RESOURCES = [
  'UpdateService.SimpleUpdate 202',
  'VendorCertAuth.ImportCACertificate 201',
  'VendorEventService.ImportCACertificate 201',
];

/** Mismatches between answers and their published schemas, one line each. */
class ContractCheck {
  readonly mismatches: string[] = [];
  checked = 0;
  /** Checks run one at a time: ajv must not load the same document twice at once. */
  private queue = Promise.resolve();

  constructor(private readonly schemas: PublishedSchemas) {}

  /** Checks a JSON answer that names its type; true when it does. */
  check(what: string, r: Response): boolean {
    const type = r.body?.['@odata.type'];
    if (r.status >= 300 || typeof type !== 'string') return false;
    this.queue = this.queue
      .then(() => this.validate(what, type, r.body))
      .catch((e: Error) => void this.mismatches.push(`${what}: ${e.message}`));
    return true;
  }

  /** Every check asked so far, done. */
  done(): Promise<void> {
    return this.queue;
  }

  private async validate(what: string, type: string, body: unknown): Promise<void> {
    const validate = await this.schemas.validator(type);
    this.checked++;
    if (!validate) this.mismatches.push(`${what}: no schema published for ${type}`);
    else if (!validate(body))
      for (const e of validate.errors ?? [])
        this.mismatches.push(`${what} (${type}): ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

/**
 * PATCH bodies that write one property as it is (changing nothing): each scalar the resource lists in
 * @Redfish.WriteableProperties, or inside an object or array element it lists (every scalar of an
 * object that lists nothing, as BIOS Attributes), an array's other elements kept with {}.
 */
function* unchangedWrites(v: Record<string, unknown>, inner = false): Generator<Record<string, unknown>> {
  const writable = (v['@Redfish.WriteableProperties'] as string[] | undefined) ?? (inner ? Object.keys(v) : []);
  for (const name of writable) {
    const x = v[name];
    if (name.includes('@')) continue;
    if (['string', 'number', 'boolean'].includes(typeof x)) yield { [name]: x };
    else if (Array.isArray(x) && isObject(x[0]))
      for (const w of unchangedWrites(x[0], true)) yield { [name]: [w, ...x.slice(1).map(() => ({}))] };
    else if (isObject(x)) for (const w of unchangedWrites(x, true)) yield { [name]: w };
  }
}

/**
 * The same writes taken from the route's description, where the service names no writable
 * properties (iLO's naming shows no @Redfish.WriteableProperties).
 */
function* describedWrites(v: Record<string, unknown>, props: Props): Generator<Record<string, unknown>> {
  for (const [name, prop] of Object.entries(props)) {
    const x = v[name];
    if (x === undefined || prop.readOnly || prop.createOnly) continue;
    if (['string', 'number', 'boolean'].includes(typeof x)) yield { [name]: x };
    else if (prop.type === 'object' && isObject(x))
      for (const w of prop.additionalProperties ? unchangedWrites(x, true) : describedWrites(x, prop.properties)) yield { [name]: w };
    else if (prop.type === 'array' && Array.isArray(x))
      if (prop.items.type === 'object' && isObject(x[0]))
        for (const w of describedWrites(x[0], prop.items.properties)) yield { [name]: [w, ...x.slice(1).map(() => ({}))] };
      else if (!isObject(x[0])) yield { [name]: x };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a PATCH cannot write as it is: a property not shown until written, or written only to another value. */
function writes(image: string): Readonly<Record<string, { body?: Record<string, unknown>; none?: string }>> {
  // Without media every write of a virtual drive conflicts: one is inserted.
  const insert = { body: { Image: image, TransferProtocolType: 'HTTP' } };
  return {
    '/redfish/v1/Systems/{SystemId}/Storage/{StorageId}/Volumes/{VolumeId}/': { body: { DisplayName: 'contract' } },
    '/redfish/v1/Systems/{SystemId}/VirtualMedia/{VirtualMediaId}/': insert,
    '/redfish/v1/Managers/{ManagerId}/VirtualMedia/{VirtualMediaId}/': insert,
    '/redfish/v1/UpdateService/UpdateTaskQueue/{TaskId}/': { none: 'State is written only to cancel a task that waits' },
  };
}

describe('response contract', () => {
  /** Where the spec dialect's crawl read each route: routes the DMTF dialect no longer links are read there. */
  const readAt = new Map<string, string>();

  // The vendor namespace renamed too (--oem-name Hpe, what iLO's clients read).
  for (const { dialect, oemName } of [{ dialect: 'spec' }, { dialect: 'dmtf' }, { dialect: 'spec', oemName: 'Hpe' }] as const) {
    describe(`--dialect ${dialect}${oemName ? ` --oem-name ${oemName}` : ''}`, () => {
      let svc: TestService;
      let contract: ContractCheck;
      let images: Server;
      let image = '';
      /** Routes whose create answered a member that was checked. */
      const created = new Set<AnyRoute>();
      /** Actions of the setup that answered a resource, checked. */
      const actions = new Set<string>();

      before(async () => {
        images = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(isoImage(64 * 1024)));
        await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
        image = `http://127.0.0.1:${(images.address() as AddressInfo).port}/contract.iso`;
        svc = await startTestService({ config: { dialect, enableControl: true, ...(oemName ? { oemName } : {}) } });
        contract = new ContractCheck(await PublishedSchemas.of(svc));
        const routes = svc.running.services.routes;
        // Every write of the setup is checked: creates, and actions that answer a resource.
        const req = svc.req;
        svc.req = async (method, path, o) => {
          const r = await req(method, path, o);
          if (method === 'GET' || method === 'HEAD') return r;
          const m = routes.match(path.split('?')[0] as string);
          if (!contract.check(`${method} ${path}`, r) || !m) return r;
          if (m.action) actions.add(`${m.action.def.name} ${r.status}`);
          else if (method === 'POST' && r.status === 201) created.add(m.route);
          return r;
        };
        await addMemberToEveryCollection(svc);
        // The creates the setup does not make.
        const pem = (await issueCertificate({ subject: 'CN=Contract db', notBefore: new Date(svc.clock.now() - 86_400_000) })).certPem;
        const dbs = '/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/db/';
        for (const [uri, body] of [
          ['/redfish/v1/SessionService/Sessions/', { UserName: ADMIN_USER, Password: ADMIN_PASSWORD }],
          ['/redfish/v1/AccountService/Accounts/', { UserName: 'contract', Password: 'contract-pass-1', RoleId: 'ReadOnly' }],
          ['/redfish/v1/Managers/1/FederationGroups/', { Name: 'contract', Key: 'contract-key' }],
          ['/redfish/v1/Systems/1/LogServices/IML/Entries/', { EntryCode: 'Maintenance', Message: 'contract note' }],
          [`${dbs}Certificates/`, { CertificateString: pem, CertificateType: 'PEM' }],
          [
            `${dbs}Signatures/`,
            { SignatureString: randomBytes(32).toString('hex'), SignatureTypeRegistry: 'UEFI', SignatureType: 'EFI_CERT_SHA256_GUID' },
          ],
        ] as const) {
          const r = await svc.req('POST', uri, { body });
          assert.equal(r.status, 201, `${uri}: ${r.text}`);
        }
      });
      after(async () => {
        await svc.close();
        images.closeAllConnections();
        images.close();
      });

      /** GETs every URI the walk finds from `starts`, checks each answer; returns the routes reached and their URIs. */
      const crawl = async (starts: string[], seen: Set<string> = new Set()) => {
        const routes = svc.running.services.routes;
        const reached = new Map<AnyRoute, string[]>();
        const failures: string[] = [];
        await walk(
          svc,
          starts,
          (uri, r) => {
            // A task monitor answers its operation's own final status (the setup's task failed).
            if (r.status !== 200 && !uri.includes('/TaskMonitors/')) {
              failures.push(`GET ${uri} -> ${r.status} ${r.text.slice(0, 300)}`);
              return [];
            }
            const match = routes.match(uri.split('?')[0] as string);
            if (match) reached.set(match.route, [...(reached.get(match.route) ?? []), uri]);
            // Every Redfish resource names its type; files ($metadata, schemas, /redfish, odata) are checked elsewhere.
            if (!contract.check(`GET ${uri}`, r) && match?.route.type && r.headers['content-type']?.includes('json'))
              failures.push(`GET ${uri}: no @odata.type`);
            return servedLinks(r);
          },
          seen,
        );
        return { reached, failures };
      };

      it('answers every GET route, every create and every PATCH with what its published schema describes', async () => {
        const started = Date.now();
        const routes = svc.running.services.routes;
        const seen = new Set<string>();
        const first = await crawl(WALK_STARTS, seen);
        const reached = new Set<object>(first.reached.keys());
        // Routes no answer links (what the DMTF dialect leaves out as deprecated), read where the spec dialect's crawl read them.
        if (dialect === 'spec' && !oemName) for (const [route, uris] of first.reached) readAt.set(route.path, uris[0] as string);
        const hidden = unreachedGetRoutes(svc, reached).flatMap((path) => readAt.get(path) ?? []);
        const more = await crawl(hidden, seen);
        for (const route of more.reached.keys()) reached.add(route);
        // The SSE stream, which a GET would open: HEAD answers its headers without starting it.
        const sse = (await svc.get('/redfish/v1/EventService/')).body.ServerSentEventUri as string;
        if ((await svc.req('HEAD', sse)).status === 200) reached.add(routes.match(sse)?.route as object);

        // PATCH every writable resource with one property as it is and one unknown: applied in part, answered with the resource.
        const unpatched: string[] = [];
        let messages = 0;
        for (const [route, uris] of [...first.reached, ...more.reached]) {
          if (!route.patch || route.outside || writes(image)[route.path]?.none) continue;
          const uri = uris[0] as string;
          const now = await svc.get(uri);
          const fixed = writes(image)[route.path]?.body;
          const tried: string[] = [];
          const described = (route.patch.body as Props | undefined) ?? (route.type as { properties?: Props } | undefined)?.properties ?? {};
          const candidates = fixed ? [fixed] : oemName ? describedWrites(now.body, described) : unchangedWrites(now.body);
          for (const write of candidates) {
            const r = await svc.req('PATCH', uri, {
              body: { ...write, NotAProperty: 1 },
              headers: { 'If-Match': now.headers.etag ?? '*' },
            });
            tried.push(`${JSON.stringify(write)} -> ${r.status} ${r.status === 200 ? '' : r.text.slice(0, 200)}`);
            if (r.status !== 200) {
              if (tried.length < 5) continue;
            } else if (!contract.check(`PATCH ${uri}`, r)) messages++;
            break;
          }
          if (!tried.at(-1)?.includes(' -> 200 ')) unpatched.push(`PATCH ${uri}: ${tried.join('; ') || 'nothing writable shown'}`);
        }

        // Everything again after the writes, on a later clock: each memoized representation is read with changed inputs.
        await svc.clock.advance(61_000);
        const again = await crawl(WALK_STARTS);
        await contract.done();

        const creates = routes.routes().filter((r) => r.post && !r.post.stream && r.type?.memberType && !r.outside);
        process.stdout.write(
          `# ${dialect}${oemName ? ` ${oemName}` : ''}: checked ${contract.checked} answers (${messages} PATCHes answered a message) in ${Date.now() - started} ms\n`,
        );
        assert.deepEqual(
          {
            unreached: unreachedGetRoutes(svc, reached),
            failures: [...first.failures, ...more.failures, ...again.failures],
            unpatched,
            uncreated: creates.filter((r) => !created.has(r)).map((r) => r.path),
            actions: [...actions].sort(),
            mismatches: contract.mismatches,
          },
          {
            unreached: [],
            failures: [],
            unpatched: [],
            uncreated: CREATED_LATER,
            actions: ACTIONS_ANSWERING_RESOURCES.map((a) => svc.running.services.naming.name(a)).sort(),
            mismatches: [],
          },
        );
      });
    });
  }
});
