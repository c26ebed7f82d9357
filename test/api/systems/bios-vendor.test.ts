// Issue 14, item 4: the vendor BIOS resources with a current and a pending area
// (server configuration lock, key management, UEFI HTTPS boot TLS), linked from
// Bios/Oem/Vendor/Links; pending values apply at the next server reset;
// write-only secrets are sealed at rest; Bios.ResetBios leaves them alone.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { issueCertificate } from '../../../src/platform/x509.js';
import { messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const BIOS = `${SYS}Bios/`;
const LOCK = `${BIOS}ServerConfigLock/`;
const KMS = `${BIOS}KmsConfig/`;
const TLS = `${BIOS}Tlsconfig/`;
const BOOT_TIME = 2000 + 5000;
const LOCK_PASSWORD = 'lock-pa55word-8231';
const KMS_PASSWORD = 'kms-pa55word-7719';

describe('vendor BIOS resources with a pending area', () => {
  let root: string;
  let dataDir: string;
  let svc: TestService;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'bmc-bios-vendor-'));
    dataDir = join(root, 'data');
    // the earlier place of these resources (--vendor-bios-place bios): directly under Bios/.
    svc = await startTestService({ dataDir, config: { vendorBiosPlace: 'bios' } });
  });
  after(async () => {
    await svc.close();
    rmSync(root, { recursive: true, force: true });
  });

  /** A server reset, waited through POST. */
  const resetServer = async () => {
    const on = (await svc.get(SYS)).body.PowerState === 'On';
    const r = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: on ? 'ForceRestart' : 'On' } });
    assert.equal(r.status, 200);
    await svc.clock.advance(BOOT_TIME);
  };
  const databaseBytes = () =>
    Buffer.concat(
      ['bmc.sqlite', 'bmc.sqlite-wal'].map((f) => (existsSync(join(dataDir, f)) ? readFileSync(join(dataDir, f)) : Buffer.alloc(0))),
    );

  it('links the three resources from Bios/Oem/Vendor/Links; each has defaults and a SettingsObject', async () => {
    const links = (await svc.get(BIOS)).body.Oem.Vendor.Links;
    assert.deepEqual(
      { lock: links.ServerConfigLock['@odata.id'], kms: links.KmsConfig['@odata.id'], tls: links.TlsConfig['@odata.id'] },
      { lock: LOCK, kms: KMS, tls: TLS },
    );
    const expected: [string, string, Record<string, unknown>][] = [
      [
        LOCK,
        '#VendorServerConfigLock.v1_0_0.VendorServerConfigLock',
        {
          ServerConfigLockStatus: 'Disabled',
          ServerConfigLockPassword: null,
          ServerConfigLockExcludeFwRevs: false,
          ServerConfigLockExcludeCpus: false,
          ServerConfigLockExcludeDimms: false,
          ServerConfigLockExcludePciSlots: false,
          ServerConfigLockDigest: null,
        },
      ],
      [
        KMS,
        '#VendorKmsConfig.v1_0_0.VendorKmsConfig',
        {
          PrimaryKmsPort: 5696,
          SecondaryKmsPort: 5696,
          KmsPassword: null,
          KmsRequireRedundancy: false,
          PrimaryKmsServer: '',
          KeyManagementType: 'Disabled',
          DeleteUnusedEncryptionKeys: 'Disabled',
          OpalBlockSid: 'Disabled',
        },
      ],
      [TLS, '#VendorTlsConfig.v1_0_0.VendorTlsConfig', { ProtocolVersion: 'AUTO', VerifyMode: 'PEER', HostnameCheck: 'DISABLED' }],
    ];
    for (const [uri, type, values] of expected) {
      const r = await svc.get(uri);
      assert.equal(r.status, 200, uri);
      assert.equal(r.headers.allow, 'GET, HEAD', uri);
      assert.equal(r.body['@odata.type'], type);
      for (const [k, v] of Object.entries(values)) assert.deepEqual(r.body[k], v, `${uri} ${k}`);
      assert.equal(r.body['@Redfish.Settings'].SettingsObject['@odata.id'], `${uri}Settings/`);
      assert.deepEqual(r.body['@Redfish.Settings'].SupportedApplyTimes, ['OnReset']);
      const p = await svc.get(`${uri}Settings/`);
      assert.equal(p.status, 200);
      assert.match(p.headers.allow ?? '', /PATCH/);
      assert.equal(p.body['@odata.type'], type);
      assert.equal((await svc.req('PATCH', uri, { body: {} })).status, 405, uri);
    }
  });

  it('a PATCH of a pending area answers SystemResetRequired; the current area changes at the next server reset', async () => {
    const changes: [string, Record<string, unknown>][] = [
      [
        LOCK,
        {
          ServerConfigLockStatus: 'Enabled',
          ServerConfigLockPassword: LOCK_PASSWORD,
          ServerConfigLockExcludeFwRevs: true,
          ServerConfigLockExcludeDimms: true,
        },
      ],
      [
        KMS,
        {
          PrimaryKmsServer: 'kms1.example.com',
          PrimaryKmsPort: 5697,
          SecondaryKmsServer: 'kms2.example.com',
          KmsAccountName: 'rom',
          KmsPassword: KMS_PASSWORD,
          KmsRequireRedundancy: true,
          KeyManagementType: 'Remote',
          OpalBlockSid: 'Enabled',
        },
      ],
      [TLS, { ProtocolVersion: 'TLS1.3', VerifyMode: 'NONE', HostnameCheck: 'ENABLED', Ciphers: 'TLS_AES_256_GCM_SHA384' }],
    ];
    const before = new Map<string, unknown>();
    for (const [uri, body] of changes) {
      before.set(uri, (await svc.get(uri)).body);
      const r = await svc.req('PATCH', `${uri}Settings/`, { body });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(messageIds(r.body), ['Vendor.1.0.SystemResetRequired']);
      assert.ok(!r.text.includes(LOCK_PASSWORD) && !r.text.includes(KMS_PASSWORD));
      const pending = (await svc.get(`${uri}Settings/`)).body;
      for (const [k, v] of Object.entries(body)) assert.deepEqual(pending[k], /Password/.test(k) ? null : v, k);
      const current = (await svc.get(uri)).body;
      for (const k of Object.keys(body)) assert.deepEqual(current[k], (before.get(uri) as any)[k], `${uri} ${k} before the reset`);
      assert.equal(current['@Redfish.Settings'].Time, undefined, `${uri}: never applied yet`);
    }
    // Pending values survive a service restart.
    svc = await svc.restart();
    assert.equal((await svc.get(`${TLS}Settings/`)).body.ProtocolVersion, 'TLS1.3');
    await resetServer();
    for (const [uri, body] of changes) {
      const current = (await svc.get(uri)).body;
      for (const [k, v] of Object.entries(body)) assert.deepEqual(current[k], /Password/.test(k) ? null : v, `${uri} ${k} after the reset`);
      // The annotation tells when POST took them in, and how that went.
      const applied = current['@Redfish.Settings'];
      assert.ok(Date.parse(applied.Time) <= svc.clock.now(), uri);
      assert.deepEqual(messageIds({ '@Message.ExtendedInfo': applied.Messages }), ['Base.1.12.Success']);
    }
    assert.match((await svc.get(LOCK)).body.ServerConfigLockDigest, /^[0-9a-f]{64}$/);
    // The ROM holds the secrets, sealed in the store.
    svc = await svc.restart();
    assert.equal((await svc.get(KMS)).body.PrimaryKmsServer, 'kms1.example.com', 'the current area survives a restart');
    const stored = JSON.stringify(svc.running.services.store.setting('bios.kmsConfig', {}).get());
    assert.match(stored, /"KmsPassword":"enc:v1:/);
    const bytes = databaseBytes();
    assert.ok(bytes.length > 0);
    for (const s of [LOCK_PASSWORD, KMS_PASSWORD]) assert.equal(bytes.indexOf(s), -1, `${s} in the database bytes`);
  });

  it('refuses wrong types and values with registry messages', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [`${LOCK}Settings/`, { ServerConfigLockStatus: 'Sometimes' }, 'Base.1.12.PropertyValueNotInList'],
      [`${LOCK}Settings/`, { ServerConfigLockExcludeFwRevs: 'yes' }, 'Base.1.12.PropertyValueTypeError'],
      [`${LOCK}Settings/`, { ServerConfigLockDigest: 'abc' }, 'Base.1.12.PropertyNotWritable'],
      [`${KMS}Settings/`, { PrimaryKmsPort: 70000 }, 'Base.1.12.PropertyValueOutOfRange'],
      [`${KMS}Settings/`, { SecondaryKmsPort: '5696' }, 'Base.1.12.PropertyValueTypeError'],
      [`${KMS}Settings/`, { KmsPassword: 42 }, 'Base.1.12.PropertyValueTypeError'],
      [`${TLS}Settings/`, { ProtocolVersion: 'SSL3' }, 'Base.1.12.PropertyValueNotInList'],
      [`${TLS}Settings/`, { VerifyMode: true }, 'Base.1.12.PropertyValueTypeError'],
    ];
    for (const [uri, body, id] of cases) {
      const r = await svc.req('PATCH', uri, { body });
      assert.equal(r.status, 400, `${uri} ${JSON.stringify(body)}: ${r.text}`);
      assert.ok(messageIds(r.body).includes(id), `${JSON.stringify(body)}: ${messageIds(r.body).join(', ')}`);
    }
    assert.equal((await svc.get(`${KMS}Settings/`)).body.PrimaryKmsPort, 5697, 'nothing refused is pending');
  });

  it('Bios.ResetBios leaves them, the iSCSI initiator and the boot order alone', async () => {
    const iqn = 'iqn.2021-03.com.example:host-9';
    assert.equal((await svc.req('PATCH', `${BIOS}iScsi/`, { body: { iSCSIInitiatorName: iqn } })).status, 200);
    const order: string[] = (await svc.get(SYS)).body.Boot.BootOrder;
    const newOrder = [...order.slice(1), order[0]];
    assert.equal((await svc.req('PATCH', SYS, { body: { Boot: { BootOrder: newOrder } } })).status, 200);
    // A pending change too: it still applies at the reset that restores the BIOS defaults.
    assert.equal((await svc.req('PATCH', `${TLS}Settings/`, { body: { ProtocolVersion: 'TLS1.2' } })).status, 200);
    const before = { lock: (await svc.get(LOCK)).body, kms: (await svc.get(KMS)).body };
    const r = await svc.req('POST', `${BIOS}Actions/Bios.ResetBios/`, { body: {} });
    assert.equal(r.status, 200);
    await resetServer();
    assert.equal((await svc.get(BIOS)).body.ResetBiosToDefaultsPending, false);
    const lock = (await svc.get(LOCK)).body;
    const kms = (await svc.get(KMS)).body;
    for (const k of ['ServerConfigLockStatus', 'ServerConfigLockExcludeFwRevs', 'ServerConfigLockDigest'])
      assert.deepEqual(lock[k], before.lock[k], k);
    for (const k of ['PrimaryKmsServer', 'PrimaryKmsPort', 'SecondaryKmsServer', 'KmsAccountName', 'KmsRequireRedundancy'])
      assert.deepEqual(kms[k], before.kms[k], k);
    const tls = (await svc.get(TLS)).body;
    assert.equal(tls.ProtocolVersion, 'TLS1.2');
    assert.equal(tls.VerifyMode, 'NONE');
    assert.equal((await svc.get(`${BIOS}iScsi/`)).body.iSCSIInitiatorName, iqn);
    assert.deepEqual((await svc.get(SYS)).body.Boot.BootOrder, newOrder);
  });

  it('enrolls the CA certificates of NewCertificates at POST and removes those DeleteCertificates names', async () => {
    const pem = (await issueCertificate({ subject: 'CN=Boot CA,O=Example', notBefore: new Date(svc.clock.now() - 86_400_000) })).certPem;
    let r = await svc.req('PATCH', `${TLS}Settings/`, { body: { NewCertificates: [{ X509Certificate: 'not a certificate' }] } });
    assert.equal(r.status, 400, r.text);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    r = await svc.req('PATCH', `${TLS}Settings/`, { body: { NewCertificates: [{ X509Certificate: pem }] } });
    assert.equal(r.status, 200, r.text);
    assert.equal((await svc.get(TLS)).body.TlsCaCertificateCount, 0, 'nothing before the reset');
    await resetServer();
    let tls = (await svc.get(TLS)).body;
    assert.equal(tls.TlsCaCertificateCount, 1);
    const [cert] = tls.Certificates;
    assert.deepEqual([cert.Subject, cert.Issuer], ['CN=Boot CA, O=Example', 'CN=Boot CA, O=Example']);
    assert.match(cert.FingerPrint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.deepEqual([tls.NewCertificates, tls.DeleteCertificates], [[], []]);
    r = await svc.req('PATCH', `${TLS}Settings/`, { body: { DeleteCertificates: [{ FingerPrint: cert.FingerPrint }] } });
    assert.equal(r.status, 200, r.text);
    await resetServer();
    tls = (await svc.get(TLS)).body;
    assert.deepEqual([tls.TlsCaCertificateCount, tls.Certificates], [0, []]);
  });
});
