// Issue 28 item 3: the secure erase report (iLO's SecureEraseReportService) follows the
// one-button secure erase: empty before, one entry per device the erase sanitized after, kept
// through the controller's factory reset that ends the erase, gone once deleted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FACTORY_RESET_DELAY_MS } from '../../../src/domain/manager/secure-erase.js';
import { bootHost } from '../../support/host.js';
import { startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const REPORT = `${SYS}SecureEraseReportService/`;
const ENTRIES = `${REPORT}SecureEraseReportEntries/`;

describe('secure erase report', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const req = (method: string, path: string, body?: unknown) => svc.req(method, path, { body, auth: 'basic' });

  it('reports what the erase sanitized, at whose request, until the report is deleted', async () => {
    const sys = (await req('GET', SYS)).body;
    assert.equal(sys.Oem.Hpe.Links.SecureEraseReportService['@odata.id'], REPORT);
    const empty = await req('GET', REPORT);
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body['@odata.type'], '#HpeSecureEraseReportService.v1_0_0.HpeSecureEraseReportService');
    assert.deepEqual([empty.body.EraseInitiatedBy, empty.body.ServerSerialNumber], [null, null]);
    assert.equal((await req('GET', ENTRIES)).body['Members@odata.count'], 0);

    const erase = `${SYS}Actions/Oem/Hpe/HpeComputerSystemExt.SecureSystemErase/`;
    assert.equal((await req('POST', erase, { SystemROMAndiLOErase: true, UserDataErase: true })).status, 200);
    await bootHost(svc, 1_000);

    const done = (await req('GET', REPORT)).body;
    assert.equal(done.EraseInitiatedBy, 'Administrator');
    assert.equal(done.ServerSerialNumber, sys.SerialNumber);
    const entries = (await req('GET', `${ENTRIES}?$expand=.`)).body.Members;
    assert.deepEqual(
      entries.map((e: any) => [e.DeviceType, e.EraseType, e.EraseStatus]),
      [
        ['UEFIStore', 'Clear', 'CompletedWithSuccess'],
        ['NAND', 'Clear', 'CompletedWithSuccess'],
        ['TPM', 'Clear', 'CompletedWithSuccess'],
      ],
    );
    assert.equal(entries[0]['@odata.type'], '#HpeSecureEraseReport.v1_1_0.HpeSecureEraseReport');
    assert.ok(Date.parse(entries[0].EraseEndTime) >= Date.parse(entries[0].EraseStartTime));

    // The controller's factory reset ends the erase; the report stays.
    await svc.clock.advance(FACTORY_RESET_DELAY_MS);
    await svc.dropConnections();
    assert.equal((await req('GET', ENTRIES)).body['Members@odata.count'], 3);

    const del = `${REPORT}Actions/HpeSecureEraseReportService.DeleteSecureEraseReport/`;
    assert.equal((await req('GET', REPORT)).body.Actions['#HpeSecureEraseReportService.DeleteSecureEraseReport'].target, del);
    assert.equal((await req('POST', del, {})).status, 200);
    assert.equal((await req('GET', ENTRIES)).body['Members@odata.count'], 0);
    assert.equal((await req('GET', `${ENTRIES}1/`)).status, 404);
    assert.equal((await req('GET', REPORT)).body.EraseInitiatedBy, null);
  });
});
