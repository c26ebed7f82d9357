// GenerateCSR with text that has no UTF-8 form (issue 12, item 5c): a lone
// UTF-16 surrogate in a subject field is a 400 naming the parameter, on both
// certificate services, never a 500; no CSR is left pending.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const VENDOR = '/redfish/v1/Managers/1/SecurityService/HttpsCert/';
const VENDOR_CSR = `${VENDOR}Actions/VendorHttpsCert.GenerateCSR/`;
const STANDARD_CSR = '/redfish/v1/CertificateService/Actions/CertificateService.GenerateCSR/';
const HTTPS_CERTS = '/redfish/v1/Managers/1/NetworkProtocol/HTTPS/Certificates/';

/** JSON text with a lone surrogate escaped, as a client sends it (JSON.stringify escapes it the same way). */
function body(fields: Record<string, unknown>): string {
  return JSON.stringify(fields);
}

describe('GenerateCSR with lone surrogates', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const post = (uri: string, fields: Record<string, unknown>) =>
    svc.req('POST', uri, { rawBody: body(fields), headers: { 'content-type': 'application/json' } });

  it('VendorHttpsCert.GenerateCSR: 400 ActionParameterValueFormatError naming the parameter', async () => {
    for (const [param, value] of [
      ['CommonName', 'bmc\ud800.example.com'],
      ['OrgName', 'Org \udc00'],
      ['OrgUnit', '\ud83d'],
      ['City', 'x\udfffy'],
      ['State', '\ud800\ud800'],
    ] as const) {
      const r = await post(VENDOR_CSR, { CommonName: 'bmc.example.com', [param]: value });
      assert.equal(r.status, 400, `${param}: ${r.text}`);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError']);
      const info = r.body.error['@Message.ExtendedInfo'][0];
      assert.equal(info.MessageArgs[1], param);
      assert.equal(info.MessageArgs[2], 'VendorHttpsCert.GenerateCSR');
      assert.deepEqual(info.RelatedProperties, [`#/${param}`]);
      assert.doesNotMatch(JSON.stringify(info.MessageArgs), /\\ud[89a-f]/i, 'the message shows no lone surrogate back');
    }
    assert.equal((await svc.get(VENDOR)).body.CertificateSigningRequest, null, 'no CSR pending');
  });

  it('CertificateService.GenerateCSR: 400 ActionParameterValueFormatError naming the parameter', async () => {
    for (const [param, value] of [
      ['CommonName', '\ud800'],
      ['Organization', 'Org \udc00'],
      ['OrganizationalUnit', 'Unit \ud800'],
      ['City', 'x\udfff'],
      ['State', '\udbff'],
    ] as const) {
      const r = await post(STANDARD_CSR, {
        CertificateCollection: { '@odata.id': HTTPS_CERTS },
        CommonName: 'bmc.example.com',
        [param]: value,
      });
      assert.equal(r.status, 400, `${param}: ${r.text}`);
      assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueFormatError']);
      const info = r.body.error['@Message.ExtendedInfo'][0];
      assert.equal(info.MessageArgs[1], param);
      assert.equal(info.MessageArgs[2], 'CertificateService.GenerateCSR');
    }
  });

  it('still takes well-formed non-ASCII text, astral characters included', async () => {
    const r = await post(VENDOR_CSR, { CommonName: 'bmc.example.com', OrgName: 'Zürich Ünïcode 😀', City: '東京' });
    assert.equal(r.status, 200, r.text);
    assert.match(r.body.CSRString, /BEGIN CERTIFICATE REQUEST/);
  });
});
