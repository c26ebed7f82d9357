// The pipeline's phases run in one order (src/protocol/pipeline.ts): a request that
// would be refused by two phases gets the earlier one's answer. Over real HTTPS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type RequestOptions, type TestService } from '../support/service.js';

const SYSTEM = '/redfish/v1/Systems/1/';
const READER = { user: 'reader', password: 'Reader-Pass-123' };

interface Case {
  /** The earlier phase, then the later one whose refusal it hides. */
  name: string;
  method: string;
  path: string;
  opts: RequestOptions;
  status: number;
  message: RegExp;
}

const cases: Case[] = [
  {
    name: 'parse (OData-Version) before authenticate and resolve ids',
    method: 'GET',
    path: '/redfish/v1/Systems/9/',
    opts: { auth: 'none', headers: { 'odata-version': '4.1' } },
    status: 412,
    message: /ODataVersionNotSupported$/,
  },
  {
    name: 'route (a path that is off) before authenticate',
    method: 'GET',
    path: '/control/clock/',
    opts: { auth: 'none' },
    status: 404,
    message: /ResourceMissingAtURI$/,
  },
  {
    name: 'authenticate before resolve ids',
    method: 'GET',
    path: '/redfish/v1/Systems/9/',
    opts: { auth: 'none' },
    status: 401,
    message: /NoValidSession$/,
  },
  {
    name: 'resolve ids before authorize (405)',
    method: 'DELETE',
    path: '/redfish/v1/Systems/9/',
    opts: { auth: 'basic' },
    status: 404,
    message: /ResourceMissingAtURI$/,
  },
  {
    name: 'authorize: the method (405) before the privilege',
    method: 'PUT',
    path: SYSTEM,
    opts: { auth: READER, body: {} },
    status: 405,
    message: /MethodNotAllowed$/,
  },
  {
    name: 'authorize (the privilege) before the query options',
    method: 'PATCH',
    path: `${SYSTEM}?$top=x`,
    opts: { auth: READER, body: { AssetTag: 'a' } },
    status: 403,
    message: /InsufficientPrivilege$/,
  },
  {
    name: 'the query options before read body (415)',
    method: 'PATCH',
    path: `${SYSTEM}?$top=x`,
    opts: { auth: 'basic', rawBody: 'x', headers: { 'content-type': 'text/plain' } },
    status: 400,
    message: /QueryParameterValueTypeError$/,
  },
  {
    name: 'read body (415) before validate (If-Match)',
    method: 'PATCH',
    path: SYSTEM,
    opts: { auth: 'basic', rawBody: 'x', headers: { 'content-type': 'text/plain', 'if-match': '"stale"' } },
    status: 415,
    message: /UnsupportedMediaType$/,
  },
  {
    name: 'read body (MalformedJSON) before validate (If-Match)',
    method: 'PATCH',
    path: SYSTEM,
    opts: { auth: 'basic', rawBody: '{x', headers: { 'content-type': 'application/json', 'if-match': '"stale"' } },
    status: 400,
    message: /MalformedJSON$/,
  },
  {
    name: 'read body: an upload that cannot carry its credentials in the form is 401, not 415',
    method: 'POST',
    path: '/redfish/v1/UpdateService/upload/',
    opts: { auth: 'none', body: {} },
    status: 401,
    message: /NoValidSession$/,
  },
  {
    name: 'validate: If-Match before the body against the description',
    method: 'PATCH',
    path: SYSTEM,
    opts: { auth: 'basic', body: { Bogus: 1 }, headers: { 'if-match': '"stale"' } },
    status: 412,
    message: /PreconditionFailed$/,
  },
];

describe('request pipeline', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
    const made = await svc.req('POST', '/redfish/v1/AccountService/Accounts/', {
      body: { UserName: READER.user, Password: READER.password, RoleId: 'ReadOnly' },
    });
    assert.equal(made.status, 201, made.text);
  });
  after(() => svc.close());

  for (const c of cases) {
    it(`answers ${c.status} from the earlier phase: ${c.name}`, async () => {
      const r = await svc.req(c.method, c.path, c.opts);
      assert.equal(r.status, c.status, r.text);
      assert.match(messageIds(r.body)[0] ?? '', c.message, r.text);
    });
  }

  it('runs the handler and decorates its answer once every phase let the request through', async () => {
    const r = await svc.req('PATCH', SYSTEM, { auth: 'basic', body: { AssetTag: 'pipeline' } });
    assert.equal(r.status, 200, r.text);
    const g = await svc.get(SYSTEM, { auth: 'basic' });
    assert.equal(g.body.AssetTag, 'pipeline');
    assert.equal(g.headers.etag, g.body['@odata.etag']);
  });
});
