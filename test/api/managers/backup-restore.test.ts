// Issue 28 item 3 (Managers): the vendor's BackupRestoreService (ilorest
// backuprestore): a backup of the controller's settings, downloaded, kept,
// and restored (by upload or by the kept file's Restore action).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const BRS = '/redfish/v1/Managers/1/BackupRestoreService/';

/** A multipart form as ilorest sends it: text fields, then an optional file. */
function form(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = 'r28boundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const head = Buffer.from(parts.join(''));
  const fileParts = file
    ? [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        file.data,
        Buffer.from('\r\n'),
      ]
    : [];
  return {
    rawBody: Buffer.concat([head, ...fileParts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('BackupRestoreService', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());
  // Basic: a restore ends every session.
  const req = (method: string, path: string, o: { body?: unknown; rawBody?: Buffer; headers?: Record<string, string> } = {}) =>
    svc.req(method, path, { ...o, auth: 'basic' });

  it('backs up the settings, restores them from the uploaded file and from the kept one; refuses a changed file and a wrong password', async () => {
    const service = (await req('GET', BRS)).body;
    assert.match(service.BackupFileLocation, /^\/bkupdata\/[A-Z0-9]+_\d{8}_\d{4}\.bak$/);
    assert.equal(service.HttpPushUri, '/cgi-bin/uploadRestoreFile');
    const info = (await req('GET', `${BRS}BackupFiles/`)).body.Oem.Vendor;
    assert.deepEqual([info.BackupFileCount, info.BackupFilesAllowed], [0, 1]);

    await req('PATCH', '/redfish/v1/Managers/1/SnmpService/', { body: { Contact: 'before-backup' } });
    await req('POST', '/redfish/v1/AccountService/Accounts/', { body: { UserName: 'kept', Password: 'Kept-Pass-1', RoleId: 'Operator' } });
    const made = await req('POST', service.BackupFileLocation, form({ sessionKey: 'x', password: 'bak-pass' }));
    assert.equal(made.status, 200, made.text);
    assert.equal(made.headers['content-type'], 'application/octet-stream');
    const bak = Buffer.from(made.text);
    const kept = (await req('GET', `${BRS}BackupFiles/1/`)).body;
    assert.equal(kept.FileSize, bak.length);
    assert.equal((await req('GET', `${service.BackupFileLocation}/`)).text, made.text);

    // Changed after the backup: the restore puts the backup's settings back.
    await req('PATCH', '/redfish/v1/Managers/1/SnmpService/', { body: { Contact: 'after-backup' } });
    await req('DELETE', '/redfish/v1/AccountService/Accounts/2/');
    const wrong = await req('POST', '/cgi-bin/uploadRestoreFile', form({ password: 'nope' }, { name: 'x.bak', data: bak }));
    assert.equal(wrong.status, 400);
    assert.deepEqual(messageIds(wrong.body), ['Vendor.1.0.ControllerBackupInvalid']);
    const tampered = Buffer.from(bak);
    const mid = tampered.length >> 1;
    tampered[mid] = tampered[mid] === 0x41 ? 0x42 : 0x41;
    assert.equal(
      (await req('POST', '/cgi-bin/uploadRestoreFile', form({ password: 'bak-pass' }, { name: 'x.bak', data: tampered }))).status,
      400,
    );
    assert.equal((await req('GET', '/redfish/v1/Managers/1/SnmpService/')).body.Contact, 'after-backup');

    const restored = await req(
      'POST',
      '/cgi-bin/uploadRestoreFile',
      form({ sessionKey: 'x', password: 'bak-pass' }, { name: 'x.bak', data: bak }),
    );
    assert.equal(restored.status, 200, restored.text);
    await svc.dropConnections();
    assert.equal((await req('GET', '/redfish/v1/Managers/1/SnmpService/')).body.Contact, 'before-backup');
    const users = (await req('GET', '/redfish/v1/AccountService/Accounts/?$expand=.')).body.Members.map((a: any) => a.UserName);
    assert.ok(users.includes('kept'), users.join());

    await req('PATCH', '/redfish/v1/Managers/1/SnmpService/', { body: { Contact: 'again' } });
    const action = await req('POST', `${BRS}BackupFiles/1/Actions/VendorMCBackupFile.Restore/`, {
      body: { BackupFilePassword: 'bak-pass' },
    });
    assert.equal(action.status, 200, action.text);
    await svc.dropConnections();
    assert.equal((await req('GET', '/redfish/v1/Managers/1/SnmpService/')).body.Contact, 'before-backup');
    const iel = (await req('GET', '/redfish/v1/Managers/1/LogServices/IEL/Entries/')).body.Members.map((e: any) => e.Message);
    assert.ok(iel.some((m: string) => /restored from the backup/.test(m)));
  });
});
