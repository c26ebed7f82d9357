// The protocol layer over real HTTPS: headers, methods, conditional requests,
// query options, redirects, validation and error bodies (issue: service core).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Priv } from '../../src/lib/privileges.js';
import { messageIds, startTestService, type TestService } from '../support/service.js';

describe('protocol layer', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('answers GET /redfish with the version document', async () => {
    const r = await svc.get('/redfish', { auth: 'none' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { v1: '/redfish/v1/' });
  });

  it('sends OData-Version 4.0 on every kind of response, whatever the request sent', async () => {
    const responses = await Promise.all([
      svc.get('/redfish/v1/', { auth: 'none', headers: { 'odata-version': '4.0' } }),
      svc.get('/redfish/v1/Systems/', { auth: 'none' }),
      svc.get('/redfish/v1/Nope/'),
      svc.req('POST', '/redfish/v1/', { auth: 'none', body: {} }),
      svc.get('/redfish/v1/SessionService'),
    ]);
    assert.deepEqual(
      responses.map((r) => r.status),
      [200, 401, 404, 405, 308],
    );
    for (const r of responses) assert.equal(r.headers['odata-version'], '4.0');
  });

  it('refuses OData-Version 4.1 with 412', async () => {
    const r = await svc.get('/redfish/v1/', { auth: 'none', headers: { 'odata-version': '4.1' } });
    assert.equal(r.status, 412);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.ODataVersionNotSupported']);
  });

  it('decorates resources and collections with the OData annotations', async () => {
    const r = await svc.get('/redfish/v1/SessionService/Sessions/');
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.id'], '/redfish/v1/SessionService/Sessions/');
    assert.equal(r.body['@odata.type'], '#SessionCollection.SessionCollection');
    assert.equal(r.body['@odata.context'], '/redfish/v1/$metadata#SessionCollection.SessionCollection');
    assert.equal(r.body['Members@odata.count'], r.body.Members.length);
    assert.match(r.headers['content-type'] ?? '', /^application\/json; charset=utf-8$/);
    assert.equal(r.headers['cache-control'], 'no-cache');
    assert.equal(r.headers.etag, r.body['@odata.etag']);
    const s = await svc.get('/redfish/v1/SessionService/');
    assert.match(s.body['@odata.type'], /^#SessionService\.v\d+_\d+_\d+\.SessionService$/);
  });

  it('sends Allow and a Link to the schema matching @odata.type', async () => {
    const r = await svc.get('/redfish/v1/SessionService/');
    assert.equal(r.headers.allow, 'GET, HEAD, PATCH');
    const version = r.body['@odata.type'].split('.')[1];
    assert.equal(r.headers.link, `</redfish/v1/SchemaStore/en/SessionService.${version}.json>; rel=describedby`);
    assert.equal((await svc.get('/redfish/v1/SessionService/Sessions/')).headers.allow, 'GET, HEAD, POST');
  });

  it('answers methods the resource does not accept with 405, Allow and an error body', async () => {
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) {
      const r = await svc.req(method, '/redfish/v1/', { auth: 'none', body: {} });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.allow, 'GET, HEAD');
      assert.ok(r.body.error['@Message.ExtendedInfo'].length > 0);
    }
    const put = await svc.req('PUT', '/redfish/v1/SessionService/', { body: {} });
    assert.equal(put.status, 405);
    assert.equal(put.headers.allow, 'GET, HEAD, PATCH');
  });

  it('answers an unknown HTTP method 501', async () => {
    const r = await svc.req('FAKEMETHODFORTEST', '/redfish/v1/', { auth: 'none' }).catch(() => undefined);
    // undici may refuse to send an unknown method token; a raw socket shows the server's answer.
    const { connect } = await import('node:tls');
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect({ port: svc.port, host: '127.0.0.1', rejectUnauthorized: false }, () => {
        socket.write('FAKEMETHODFORTEST /redfish/v1/ HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      let data = '';
      socket.on('data', (d) => (data += d));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 501 /);
    assert.match(raw, /OData-Version: 4.0/);
    assert.match(raw, /"@Message.ExtendedInfo"/);
    if (r) assert.ok([405, 501].includes(r.status));
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await svc.get('/redfish/v1/SessionService/');
    const head = await svc.req('HEAD', '/redfish/v1/SessionService/');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    for (const h of ['allow', 'link', 'etag', 'cache-control', 'odata-version', 'content-type'])
      assert.equal(head.headers[h], get.headers[h], h);
  });

  it('answers If-None-Match with 304 and checks If-Match before writing', async () => {
    const r = await svc.get('/redfish/v1/SessionService/');
    const etag = r.headers.etag as string;
    assert.equal((await svc.get('/redfish/v1/SessionService/', { headers: { 'if-none-match': etag } })).status, 304);
    assert.equal((await svc.get('/redfish/v1/SessionService/', { headers: { 'if-none-match': 'W/"other"' } })).status, 200);
    const stale = await svc.req('PATCH', '/redfish/v1/SessionService/', {
      body: { SessionTimeout: 900 },
      headers: { 'if-match': 'W/"stale"' },
    });
    assert.equal(stale.status, 412);
    assert.deepEqual(messageIds(stale.body), ['Base.1.12.PreconditionFailed']);
    assert.equal((await svc.get('/redfish/v1/SessionService/')).body.SessionTimeout, 1800);
    const good = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 900 }, headers: { 'if-match': etag } });
    assert.equal(good.status, 200);
    const after = await svc.get('/redfish/v1/SessionService/');
    assert.equal(after.body.SessionTimeout, 900);
    assert.notEqual(after.headers.etag, etag);
    await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1800 } });
  });

  it('checks authentication before conditional headers', async () => {
    const etag = (await svc.get('/redfish/v1/SessionService/')).headers.etag as string;
    const r = await svc.get('/redfish/v1/SessionService/', { auth: 'none', headers: { 'if-none-match': etag } });
    assert.equal(r.status, 401);
  });

  it('applies $select with nested paths and keeps the annotations', async () => {
    const r = await svc.get('/redfish/v1/?$select=ProtocolFeaturesSupported/ExpandQuery/MaxLevels,Links/Sessions,Vendor', { auth: 'none' });
    assert.deepEqual(Object.keys(r.body).sort(), [
      '@odata.context',
      '@odata.etag',
      '@odata.id',
      '@odata.type',
      'Links',
      'ProtocolFeaturesSupported',
      'Vendor',
    ]);
    assert.deepEqual(r.body.ProtocolFeaturesSupported, { ExpandQuery: { MaxLevels: 6 } });
  });

  it('expands subordinate links with $expand=. and follows $levels', async () => {
    const one = await svc.get('/redfish/v1/AccountService/?$expand=.');
    assert.equal(one.body.Accounts['@odata.id'], '/redfish/v1/AccountService/Accounts/');
    assert.ok(Array.isArray(one.body.Accounts.Members));
    assert.deepEqual(Object.keys(one.body.Accounts.Members[0]), ['@odata.id']);
    const two = await svc.get('/redfish/v1/AccountService/?$expand=.($levels=2)');
    assert.equal(two.body.Accounts.Members[0].UserName, 'Administrator');
  });

  it('expands only Links with $expand=~ and everything with $expand=*', async () => {
    const links = await svc.get('/redfish/v1/AccountService/Accounts/1/?$expand=~');
    assert.equal(links.body.Links.Role.RoleId, 'Administrator');
    const sub = await svc.get('/redfish/v1/AccountService/Accounts/1/?$expand=.');
    assert.deepEqual(Object.keys(sub.body.Links.Role), ['@odata.id']);
    const all = await svc.get('/redfish/v1/?$expand=*', { auth: 'session' });
    assert.equal(all.body.SessionService.Id, 'SessionService');
    assert.equal(all.body.Links.Sessions['@odata.id'], '/redfish/v1/SessionService/Sessions/');
    assert.ok('Members' in all.body.Links.Sessions);
  });

  it('returns the single member of a collection for ?only, and refuses it elsewhere', async () => {
    const r = await svc.get('/redfish/v1/AccountService/Accounts/?only');
    assert.equal(r.body['@odata.type'], '#ManagerAccount.v1_14_1.ManagerAccount');
    assert.equal(r.body.UserName, 'Administrator');
    const roles = await svc.get('/redfish/v1/AccountService/Roles/?only');
    assert.equal(roles.body['Members@odata.count'], 3);
    const bad = await svc.get('/redfish/v1/AccountService/?only');
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.QueryNotSupportedOnResource']);
  });

  it('pages collections with $top and $skip and keeps the total count', async () => {
    const r = await svc.get('/redfish/v1/AccountService/Roles/?$top=1&$skip=1');
    assert.equal(r.body['Members@odata.count'], 3);
    assert.deepEqual(r.body.Members, [{ '@odata.id': '/redfish/v1/AccountService/Roles/Operator/' }]);
    assert.equal(r.body['Members@odata.nextLink'], '/redfish/v1/AccountService/Roles/?$skip=2&$top=1');
    const next = await svc.get(r.body['Members@odata.nextLink']);
    assert.deepEqual(next.body.Members, [{ '@odata.id': '/redfish/v1/AccountService/Roles/ReadOnly/' }]);
    assert.equal(next.body['Members@odata.nextLink'], undefined);
  });

  it('refuses bad query options with 400 and unknown $ options with 501', async () => {
    const cases: [string, number, string][] = [
      ['/redfish/v1/?only=foo', 400, 'Base.1.12.QueryParameterValueFormatError'],
      ['/redfish/v1/?$expand=x', 400, 'Base.1.12.QueryParameterValueFormatError'],
      ['/redfish/v1/?$top=-1', 400, 'Base.1.12.QueryParameterValueTypeError'],
      ['/redfish/v1/?$rpvunknown', 501, 'Base.1.12.QueryNotSupported'],
    ];
    for (const [path, status, id] of cases) {
      const r = await svc.get(path, { auth: 'none' });
      assert.equal(r.status, status, path);
      assert.deepEqual(messageIds(r.body), [id], path);
    }
    assert.equal((await svc.get('/redfish/v1/?foo=bar', { auth: 'none' })).status, 200);
  });

  it('matches paths case-insensitively and answers with the canonical @odata.id', async () => {
    const r = await svc.get('/REDFISH/v1/sessionservice/');
    assert.equal(r.status, 200);
    assert.equal(r.body['@odata.id'], '/redfish/v1/SessionService/');
  });

  it('redirects the legacy /rest tree and GETs without a trailing slash with 308', async () => {
    const legacy = await svc.get('/rest/v1/SessionService?x=1');
    assert.equal(legacy.status, 308);
    assert.equal(legacy.headers.location, '/redfish/v1/SessionService/?x=1');
    const legacyPatch = await svc.req('PATCH', '/rest/v1/SessionService/', { body: { SessionTimeout: 1800 } });
    assert.equal(legacyPatch.status, 308);
    const slash = await svc.get('/redfish/v1/AccountService/Accounts');
    assert.equal(slash.status, 308);
    assert.equal(slash.headers.location, '/redfish/v1/AccountService/Accounts/');
    const patch = await svc.req('PATCH', '/redfish/v1/SessionService', { body: { SessionTimeout: 1800 } });
    assert.equal(patch.status, 200);
  });

  it('validates PATCH bodies from the description, applying the good properties', async () => {
    const cases: [unknown, string[]][] = [
      [{ Nope: 1 }, ['Base.1.12.PropertyUnknown']],
      [{ SessionTimeout: 'long' }, ['Base.1.12.PropertyValueTypeError']],
      [{ ServiceEnabled: false }, ['Base.1.12.PropertyNotWritable']],
      [{ SessionTimeout: 5 }, ['Base.1.12.PropertyValueOutOfRange']],
      [{ '@odata.id': '/x' }, ['Base.1.12.NoOperation']],
    ];
    for (const [body, ids] of cases) {
      const r = await svc.req('PATCH', '/redfish/v1/SessionService/', { body });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.deepEqual(messageIds(r.body), ids, JSON.stringify(body));
    }
    const typeError = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 'long' } });
    assert.deepEqual(typeError.body.error['@Message.ExtendedInfo'][0].MessageArgs, ['long', 'SessionTimeout']);

    const mixed = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1200, Bogus: true } });
    assert.equal(mixed.status, 200);
    // The representation as it now is, plus a message per refused property (DSP0266, as the Protocol Validator checks).
    assert.equal(mixed.body['@odata.id'], '/redfish/v1/SessionService/');
    assert.equal(mixed.body.SessionTimeout, 1200);
    assert.deepEqual(messageIds(mixed.body), ['Base.1.12.PropertyUnknown']);
    assert.deepEqual(mixed.body['@Message.ExtendedInfo'][0].MessageArgs, ['Bogus']);
    assert.equal((await svc.get('/redfish/v1/SessionService/')).body.SessionTimeout, 1200);
    await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1800 } });
  });

  it('applies the DSP0266 array forms in a PATCH: null removes, {} keeps, a shorter array truncates', async () => {
    const uri = '/redfish/v1/Managers/1/NetworkProtocol/';
    const set = await svc.req('PATCH', uri, { body: { NTP: { NTPServers: ['a.example', 'b.example'] } } });
    assert.equal(set.status, 200);
    assert.equal((await svc.req('PATCH', uri, { body: { NTP: { NTPServers: [{}, 'd.example'] } } })).status, 200);
    assert.deepEqual((await svc.get(uri)).body.NTP.NTPServers, ['a.example', 'd.example']);
    assert.equal((await svc.req('PATCH', uri, { body: { NTP: { NTPServers: [null, {}] } } })).status, 200);
    assert.deepEqual((await svc.get(uri)).body.NTP.NTPServers, ['d.example']);
    assert.equal((await svc.req('PATCH', uri, { body: { NTP: { NTPServers: [] } } })).status, 200);
    assert.deepEqual((await svc.get(uri)).body.NTP.NTPServers, []);
  });

  it('answers a successful PATCH with 200 and a Success message', async () => {
    const r = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1800 } });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.Success']);
  });

  it('refuses malformed JSON, missing required properties, other media types and oversize bodies', async () => {
    const bad = await svc.req('PATCH', '/redfish/v1/SessionService/', {
      rawBody: '{"SessionTimeout": ',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(messageIds(bad.body), ['Base.1.12.MalformedJSON']);
    const missing = await svc.req('POST', '/redfish/v1/SessionService/Sessions/', { auth: 'none', body: { UserName: 'Administrator' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(messageIds(missing.body), ['Base.1.12.PropertyMissing']);
    const xml = await svc.req('PATCH', '/redfish/v1/SessionService/', { rawBody: '<a/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.status, 415);
    assert.deepEqual(messageIds(xml.body), ['Vendor.1.0.UnsupportedMediaType']);
    const big = await svc.req('PATCH', '/redfish/v1/SessionService/', { body: { SessionTimeout: 1800, Pad: 'x'.repeat(2 * 1024 * 1024) } });
    assert.equal(big.status, 413);
    assert.deepEqual(messageIds(big.body), ['Vendor.1.0.RequestBodyTooLarge']);
  });

  it('accepts the Accept values clients send and ignores a GET body', async () => {
    for (const accept of ['application/json', 'application/*', '*/*', 'application/json;charset=utf-8']) {
      const r = await svc.get('/redfish/v1/SessionService/', { headers: { accept } });
      assert.equal(r.status, 200, accept);
      assert.match(r.headers['content-type'] ?? '', /^application\/json/);
    }
  });

  it('answers unknown URIs 404 ResourceMissingAtURI', async () => {
    const r = await svc.get('/redfish/v1/NoSuchThing/');
    assert.equal(r.status, 404);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ResourceMissingAtURI']);
    assert.deepEqual(r.body.error['@Message.ExtendedInfo'][0].MessageArgs, ['/redfish/v1/NoSuchThing/']);
  });

  it('answers an unexpected exception 500 InternalError without leaking a stack', async () => {
    svc.running.services.routes.add({
      path: '/redfish/v1/TestBroken/',
      get: {
        privilege: Priv.login,
        handler: () => {
          throw new Error('secret internal detail');
        },
      },
    });
    const r = await svc.get('/redfish/v1/TestBroken/');
    assert.equal(r.status, 500);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.InternalError']);
    assert.doesNotMatch(r.text, /secret internal detail|at .*\.ts/);
  });

  it('answers 401 with WWW-Authenticate and an error body', async () => {
    const r = await svc.get('/redfish/v1/SessionService/', { auth: 'none' });
    assert.equal(r.status, 401);
    assert.match(r.headers['www-authenticate'] ?? '', /^Basic /);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.NoValidSession']);
  });

  it('takes the Action member iLO clients send in action bodies, when it names the action', async () => {
    const resetBios = '/redfish/v1/Systems/1/Bios/Actions/Bios.ResetBios/';
    // ilorest sends the full name in every action body; others send it '#'-prefixed or short.
    for (const Action of ['Bios.ResetBios', '#Bios.ResetBios', 'ResetBios']) {
      const r = await svc.req('POST', resetBios, { body: { Action } });
      assert.equal(r.status, 200, `${Action}: ${r.text}`);
    }
    for (const Action of ['Bios.ChangePassword', 'resetbios', 7]) {
      const wrong = await svc.req('POST', resetBios, { body: { Action } });
      assert.equal(wrong.status, 400, String(Action));
      assert.deepEqual(messageIds(wrong.body), ['Base.1.12.ActionParameterValueError']);
      assert.deepEqual(wrong.body.error['@Message.ExtendedInfo'][0].MessageArgs, ['Action', 'Bios.ResetBios']);
    }
    // A vendor action by its short name, and a standard action with parameters by its full name.
    const csr = await svc.req('POST', '/redfish/v1/Managers/1/SecurityService/HttpsCert/Actions/VendorHttpsCert.GenerateCSR/', {
      body: { Action: 'GenerateCSR', CommonName: 'bmc.example.com' },
    });
    assert.equal(csr.status, 200, csr.text);
    const reset = await svc.req('POST', '/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/', {
      body: { Action: 'ComputerSystem.Reset', ResetType: 'Nmi' },
    });
    assert.ok(!messageIds(reset.body).some((id: string) => /ActionParameter(Unknown|ValueError)/.test(id)), reset.text);
  });
});
