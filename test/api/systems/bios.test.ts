import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { BIOS_REGISTRY_ID } from '../../../src/platform/bios-attributes.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic, insecureAgent, messageIds, startTestService, type TestService } from '../../support/service.js';

const SYS = '/redfish/v1/Systems/1/';
const BIOS = `${SYS}Bios/`;
const SETTINGS = `${BIOS}Settings/`;
const BOOT_TIME = 2000 + 5000;

describe('BIOS current and pending areas', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const patch = (Attributes: Record<string, unknown>) => svc.req('PATCH', SETTINGS, { body: { Attributes } });
  const current = async () => (await svc.get(BIOS)).body;
  /** A server reset, waited through POST. */
  const resetServer = async () => {
    const on = (await svc.get(SYS)).body.PowerState === 'On';
    const r = await svc.req('POST', `${SYS}Actions/ComputerSystem.Reset/`, { body: { ResetType: on ? 'ForceRestart' : 'On' } });
    assert.equal(r.status, 200);
    await svc.clock.advance(BOOT_TIME);
  };
  const settingsMessages = async () => (await current())['@Redfish.Settings'].Messages as any[];

  it('the current area names its registry, links the pending area and the vendor resources, and is read-only', async () => {
    const r = await svc.get(BIOS);
    assert.equal(r.status, 200);
    assert.equal(r.headers.allow, 'GET, HEAD');
    const b = r.body;
    assert.equal(b['@odata.type'], '#Bios.v1_2_3.Bios');
    assert.equal(b.AttributeRegistry, BIOS_REGISTRY_ID);
    assert.ok(Object.keys(b.Attributes).length >= 150);
    assert.equal(b.Attributes.SerialConsoleBaudRate, 'Baud115200');
    assert.equal(b.Attributes.AdminPassword, null);
    assert.equal(b['@Redfish.Settings'].SettingsObject['@odata.id'], SETTINGS);
    assert.deepEqual(b['@Redfish.Settings'].Messages, []);
    // The pending area is taken in at the next server reset, and only then.
    assert.deepEqual(b['@Redfish.Settings'].SupportedApplyTimes, ['OnReset']);
    assert.equal(b.Oem.Vendor.Links.Boot['@odata.id'], `${BIOS}Oem/Vendor/Boot/`);
    assert.equal(b.Oem.Vendor.Links.iScsi['@odata.id'], `${BIOS}Oem/Vendor/iScsi/`);
    assert.equal(b.Actions['#Bios.ResetBios'].target, `${BIOS}Actions/Bios.ResetBios/`);
    assert.deepEqual(b.Actions['#Bios.ChangePassword']['PasswordName@Redfish.AllowableValues'], [
      'AdminPassword',
      'PowerOnPassword',
      'Administrator',
      'User',
    ]);
    assert.equal((await svc.req('PATCH', BIOS, { body: { Attributes: { ProcTurbo: 'Disabled' } } })).status, 405);
    const sel = await svc.get(`${BIOS}?$select=AttributeRegistry,Attributes/ProcTurbo`);
    assert.deepEqual(sel.body.Attributes, { ProcTurbo: 'Enabled' });
  });

  it('the vendor Boot and iSCSI resources have content', async () => {
    const boot = (await svc.get(`${BIOS}Oem/Vendor/Boot/`)).body;
    assert.ok(boot.BootSources.some((x: any) => x.StructuredBootString === 'NIC.LOM.1.1.IPv4'));
    assert.equal(boot.PersistentBootConfigOrder.length, 8);
    const iscsi = (await svc.get(`${BIOS}Oem/Vendor/iScsi/`)).body;
    assert.match(iscsi.iSCSIInitiatorName, /^iqn\.2015-02\.com\.vendor:/);
    assert.equal(iscsi.iSCSISources.length, 4);
  });

  it('a PATCH to the pending area answers SystemResetRequired and leaves the current area alone', async () => {
    const s = await svc.get(SETTINGS);
    assert.match(s.headers.allow ?? '', /PATCH/);
    const r = await patch({ ProcTurbo: 'Disabled', NetworkBootRetryCount: 5 });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.SystemResetRequired']);
    assert.equal((await current()).Attributes.ProcTurbo, 'Enabled');
    const pending = (await svc.get(SETTINGS)).body.Attributes;
    assert.equal(pending.ProcTurbo, 'Disabled');
    assert.equal(pending.NetworkBootRetryCount, 5);
  });

  it('pending settings survive a service restart', async () => {
    assert.equal((await patch({ ServerAssetTag: 'before-restart' })).status, 200);
    svc = await svc.restart();
    assert.equal((await svc.get(SETTINGS)).body.Attributes.ServerAssetTag, 'before-restart');
  });

  it('at the next reset valid settings are applied with exactly one Success message, and pending is cleared', async () => {
    assert.equal((await patch({ ProcTurbo: 'Disabled', NetworkBootRetryCount: 5 })).status, 200);
    const before = svc.running.services.logs.list('IML').length;
    // POST applies the settings 2 s after the server starts.
    const appliedAt = new Date(svc.clock.now() + 2000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await resetServer();
    const b = await current();
    assert.equal(b.Attributes.ProcTurbo, 'Disabled');
    assert.equal(b.Attributes.NetworkBootRetryCount, 5);
    assert.deepEqual(
      b['@Redfish.Settings'].Messages.map((m: any) => m.MessageId),
      ['Base.1.12.Success'],
    );
    assert.equal(b['@Redfish.Settings'].Time, appliedAt);
    const pending = (await svc.get(SETTINGS)).body.Attributes;
    assert.deepEqual(pending, b.Attributes);
    const iml = svc.running.services.logs
      .list('IML')
      .slice(before)
      .map((x) => x.MessageId);
    assert.ok(iml.includes('Vendor.1.0.BiosSettingsApplied'));
    const sel = await svc.get(`${BIOS}?$select=@Redfish.Settings/Messages`);
    assert.equal(sel.body['@Redfish.Settings'].Messages.length, 1);
  });

  it('faulty attributes are not applied; each gets a message naming it after the Success', async () => {
    const turbo = (await current()).Attributes.ProcTurbo;
    const r = await patch({
      NoSuchAttribute: 'x',
      ProcTurbo: 'Maybe',
      AsrStatus: true,
      ProcCoreDisable: 100,
      PostDelaySeconds: 7,
      ServerName: 'far-too-long-server-name',
      AdminEmail: 'not-an-address',
      SerialNumber: 'ABC',
      PowerRegulator: 'StaticHighPerf',
      EmbSerialPort: 'Com2Irq3',
      QuietBoot: false,
    });
    assert.equal(r.status, 200, 'the pending area takes values of the right JSON type; the ROM validates the rest');
    // A value of the wrong JSON type is refused at once (partial success), the others wait for POST.
    assert.deepEqual(
      messageIds(r.body).filter((id: string) => id.endsWith('PropertyValueTypeError')),
      ['Base.1.12.PropertyValueTypeError'],
    );
    await resetServer();
    const msgs = await settingsMessages();
    assert.equal(msgs[0].MessageId, 'Base.1.12.Success');
    const faults = Object.fromEntries(
      msgs.slice(1).map((m) => [m.RelatedProperties[0], [m.MessageId.replace('Base.1.12.', ''), m.MessageArgs]]),
    );
    assert.deepEqual(faults, {
      '#/Attributes/NoSuchAttribute': ['PropertyUnknown', ['NoSuchAttribute']],
      '#/Attributes/ProcTurbo': ['PropertyValueNotInList', ['Maybe', 'ProcTurbo']],
      '#/Attributes/ProcCoreDisable': ['PropertyValueOutOfRange', ['100', 'ProcCoreDisable']],
      '#/Attributes/PostDelaySeconds': ['PropertyValueIncorrect', ['PostDelaySeconds', '7']],
      '#/Attributes/ServerName': ['PropertyValueFormatError', ['far-too-long-server-name', 'ServerName']],
      '#/Attributes/AdminEmail': ['PropertyValueFormatError', ['not-an-address', 'AdminEmail']],
      '#/Attributes/SerialNumber': ['PropertyNotWritable', ['SerialNumber']],
      '#/Attributes/PowerRegulator': ['PropertyNotWritable', ['PowerRegulator']],
    });
    assert.equal(msgs.length, 9);
    const a = (await current()).Attributes;
    assert.equal(a.EmbSerialPort, 'Com2Irq3');
    assert.equal(a.QuietBoot, false);
    assert.equal(a.ProcTurbo, turbo, 'the refused value leaves it as it was');
    assert.equal(a.PowerRegulator, 'DynamicPowerSavings');
    assert.equal('NoSuchAttribute' in a, false);
    assert.notEqual(a.SerialNumber, 'ABC');
  });

  it('dependencies decide what is writable and may force values', async () => {
    // Custom profile: the power settings become writable in the same transfer.
    await patch({ WorkloadProfile: 'Custom', PowerRegulator: 'StaticHighPerf', Dhcpv4: 'Disabled', Ipv4Address: '192.0.2.10' });
    await resetServer();
    assert.deepEqual(
      (await settingsMessages()).map((m) => m.MessageId),
      ['Base.1.12.Success'],
    );
    let a = (await current()).Attributes;
    assert.equal(a.PowerRegulator, 'StaticHighPerf');
    assert.equal(a.Ipv4Address, '192.0.2.10');
    // A profile that forces turbo on: a conflicting ProcTurbo is refused, turbo is forced.
    await patch({ WorkloadProfile: 'GeneralPeakFrequencyCompute', ProcTurbo: 'Disabled', Dhcpv4: 'Enabled', Ipv4Gateway: '192.0.2.1' });
    await resetServer();
    const msgs = await settingsMessages();
    assert.deepEqual(
      msgs.map((m) => [m.MessageId, m.MessageArgs]),
      [
        ['Base.1.12.Success', []],
        ['Base.1.12.PropertyNotWritable', ['Ipv4Gateway']],
        ['Base.1.12.PropertyValueConflict', ['ProcTurbo', 'WorkloadProfile']],
      ],
    );
    a = (await current()).Attributes;
    assert.equal(a.ProcTurbo, 'Enabled');
    assert.equal(a.PowerRegulator, 'StaticHighPerf');
    assert.equal(a.Ipv4Gateway, '');
  });

  it('a BIOS password cannot be set by PATCH', async () => {
    let r = await patch({ AdminPassword: 'Secret-1' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyNotWritable', 'Vendor.1.0.BiosPasswordNotSettable']);
    r = await patch({ PowerOnPassword: 'x', QuietBoot: true });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), [
      'Vendor.1.0.SystemResetRequired',
      'Base.1.12.PropertyNotWritable',
      'Vendor.1.0.BiosPasswordNotSettable',
    ]);
    const pending = (await svc.get(SETTINGS)).body.Attributes;
    assert.equal(pending.PowerOnPassword, null);
    assert.equal(pending.QuietBoot, true);
  });

  it('Bios.ChangePassword needs the old password and keeps only a hash', async () => {
    const change = (body: unknown) => svc.req('POST', `${BIOS}Actions/Bios.ChangePassword/`, { body });
    let r = await change({ PasswordName: 'AdminPassword', OldPassword: '', NewPassword: 'Bios-Admin-1' });
    assert.equal(r.status, 200);
    r = await change({ PasswordName: 'AdminPassword', OldPassword: 'wrong', NewPassword: 'Other-2' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueError']);
    assert.ok(!r.text.includes('wrong') && !r.text.includes('Other-2'), 'passwords are not echoed');
    r = await change({ PasswordName: 'AdminPassword', OldPassword: 'Bios-Admin-1', NewPassword: 'Bios-Admin-2' });
    assert.equal(r.status, 200);
    r = await change({ PasswordName: 'PowerOnPassword', OldPassword: 'Bios-Admin-2', NewPassword: 'x' });
    assert.equal(r.status, 400, 'each password has its own old value');
    r = await change({ PasswordName: 'SetupPassword', OldPassword: '', NewPassword: 'x' });
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterValueNotInList']);
    r = await change({ PasswordName: 'AdminPassword' });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.ActionParameterMissing', 'Base.1.12.ActionParameterMissing']);
    const stored = JSON.stringify(svc.running.services.store.setting('bios.state', {}).get());
    assert.ok(!stored.includes('Bios-Admin-2'));
    assert.match(stored, /"AdminPassword":"scrypt\$/);
    assert.equal((await current()).Attributes.AdminPassword, null);
  });

  it('Bios.ResetBios restores the defaults at the next reset, leaving the vendor boot and iSCSI resources alone', async () => {
    // A profile other than the default in the current area, and a BIOS password (they survive).
    await patch({ WorkloadProfile: 'GeneralPeakFrequencyCompute' });
    await resetServer();
    const password = (body: object) =>
      svc.req('POST', `${BIOS}Actions/Bios.ChangePassword/`, { body: { PasswordName: 'PowerOnPassword', ...body } });
    assert.equal((await password({ OldPassword: '', NewPassword: 'Power-On-1' })).status, 200);
    const iqn = 'iqn.2020-01.com.example:host-7';
    let r = await svc.req('PATCH', `${BIOS}Oem/Vendor/iScsi/Settings/`, {
      body: {
        iSCSIInitiatorName: iqn,
        iSCSISources: [{ iSCSITargetName: 'iqn.2020-01.com.example:disk', iSCSIChapSecret: 'chap-secret-1' }, {}, {}, {}],
      },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(messageIds(r.body), ['Vendor.1.0.SystemResetRequired']);
    const iscsiGet = await svc.get(`${BIOS}Oem/Vendor/iScsi/Settings/`);
    assert.equal(iscsiGet.body.iSCSISources[0].iSCSIChapSecret, null);
    assert.equal(iscsiGet.body.iSCSISources.length, 4);
    const order: string[] = (await svc.get(SYS)).body.Boot.BootOrder;
    const newOrder = [...order.slice(1), order[0]];
    assert.equal((await svc.req('PATCH', SYS, { body: { Boot: { BootOrder: newOrder } } })).status, 200);
    await patch({ ProcHyperthreading: 'Disabled' });
    r = await svc.req('POST', `${BIOS}Actions/Bios.ResetBios/`, { body: {} });
    assert.equal(r.status, 200);
    assert.ok(messageIds(r.body).includes('Vendor.1.0.SystemResetRequired'));
    let b = await current();
    assert.equal(b.ResetBiosToDefaultsPending, true);
    assert.equal(b.Attributes.WorkloadProfile, 'GeneralPeakFrequencyCompute', 'nothing changes before the reset');
    assert.equal((await svc.get(SETTINGS)).body.Attributes.WorkloadProfile, 'GeneralPowerEfficientCompute');
    await patch({ ServerName: 'after-reset' }); // later edits apply on top of the defaults
    const before = svc.running.services.logs.list('IML').length;
    await resetServer();
    b = await current();
    assert.equal(b.ResetBiosToDefaultsPending, false);
    assert.equal(b.Attributes.WorkloadProfile, 'GeneralPowerEfficientCompute');
    assert.equal(b.Attributes.ProcTurbo, 'Enabled');
    assert.equal(b.Attributes.EmbSerialPort, 'Com1Irq4');
    assert.equal(b.Attributes.ProcHyperthreading, 'Enabled', 'pending edits before the reset are dropped');
    assert.equal(b.Attributes.ServerName, 'after-reset');
    assert.match(b.Attributes.SerialNumber, /^CZJ/);
    assert.equal((await svc.get(`${BIOS}Oem/Vendor/iScsi/`)).body.iSCSIInitiatorName, iqn);
    assert.deepEqual((await svc.get(SYS)).body.Boot.BootOrder, newOrder);
    const iml = svc.running.services.logs
      .list('IML')
      .slice(before)
      .map((x) => x.MessageId);
    assert.ok(iml.includes('Vendor.1.0.BiosSettingsReset'));
    // The BIOS passwords survive a reset to defaults.
    assert.equal((await password({ OldPassword: 'Power-On-1', NewPassword: '' })).status, 200);
  });

  it('reports what the ROM reports as it changes: the System ROM version and the TPM', async () => {
    const before = await svc.get(BIOS);
    assert.equal(before.body.Attributes.TpmState, 'PresentEnabled');
    const services = svc.running.services;
    const rom = services.update.inventory.list('firmware').find((i) => i.DeviceClass === 'SystemROM')!;
    const saved = { ...rom };
    services.update.inventory.save({ ...rom, Version: 'U30 v9.99' });
    services.host.setTpm({ installed: false, inUse: false });
    try {
      const after = await svc.get(BIOS);
      assert.equal(after.body.Attributes.RomVersion, 'U30 v9.99');
      assert.equal(after.body.Attributes.TpmState, 'NotPresent');
      assert.notEqual(after.headers.etag, before.headers.etag);
      assert.equal((await svc.get(SETTINGS)).body.Attributes.RomVersion, 'U30 v9.99', 'the pending area starts from it too');
    } finally {
      services.update.inventory.save(saved);
      services.host.setTpm({ installed: true, inUse: false });
    }
    const restored = await svc.get(BIOS);
    assert.equal(restored.headers.etag, before.headers.etag, 'the same state again, the same representation');
    assert.equal(restored.body.Attributes.RomVersion, before.body.Attributes.RomVersion);
  });

  it('rejects bad iSCSI settings and BIOS writes without the BIOS privilege', async () => {
    let r = await svc.req('PATCH', `${BIOS}Oem/Vendor/iScsi/Settings/`, { body: { iSCSIInitiatorName: 'not an iqn' } });
    assert.equal(r.status, 400);
    assert.deepEqual(messageIds(r.body), ['Base.1.12.PropertyValueFormatError']);
    await svc.running.services.accounts.create({ UserName: 'viewer', Password: 'Viewer-Pass-1', RoleId: 'ReadOnly' });
    const auth = { user: 'viewer', password: 'Viewer-Pass-1' };
    r = await svc.req('PATCH', SETTINGS, { body: { Attributes: { QuietBoot: false } }, auth });
    assert.equal(r.status, 403);
    r = await svc.req('POST', `${BIOS}Actions/Bios.ResetBios/`, { body: {}, auth });
    assert.equal(r.status, 403);
    assert.equal((await svc.get(BIOS, { auth })).status, 200);
  });
});

describe('BIOS attribute registry', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('is listed in the registries and served gzip-compressed under the name the Bios resource gives', async () => {
    const list = await svc.get('/redfish/v1/Registries/');
    assert.ok(list.body.Members.some((m: any) => m['@odata.id'] === `/redfish/v1/Registries/${BIOS_REGISTRY_ID}/`));
    const file = (await svc.get(`/redfish/v1/Registries/${BIOS_REGISTRY_ID}/`)).body;
    assert.equal(file.Registry, BIOS_REGISTRY_ID);
    const uri = file.Location[0].Uri;
    assert.equal(uri, `/redfish/v1/RegistryStore/registries/en/${BIOS_REGISTRY_ID}.json`);
    const res = await request(svc.url + uri, { headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD) }, dispatcher: insecureAgent });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], 'gzip');
    const reg = JSON.parse(gunzipSync(Buffer.from(await res.body.arrayBuffer())).toString('utf8'));
    assert.match(reg['@odata.type'], /^#AttributeRegistry\.v1_4_0\.AttributeRegistry$/);
    assert.equal(reg.Id, BIOS_REGISTRY_ID);
    assert.equal(`${reg.Id}`, (await svc.get(`${SYS}Bios/`)).body.AttributeRegistry);
    assert.equal(reg.Id, `BiosAttributeRegistryU30.v${reg.RegistryVersion.replace(/\./g, '_')}`);
    assert.ok(reg.SupportedSystems.length >= 1 && reg.SupportedSystems[0].SystemId);

    const attrs: any[] = reg.RegistryEntries.Attributes;
    assert.ok(attrs.length >= 150, `${attrs.length} attributes`);
    const types = new Set(attrs.map((a) => a.Type));
    for (const t of ['Enumeration', 'String', 'Integer', 'Boolean']) assert.ok(types.has(t), t);
    for (const a of attrs) {
      assert.match(a.AttributeName, /^[A-Za-z_]/);
      assert.ok(a.DisplayName && a.HelpText && a.MenuPath && a.DisplayOrder, a.AttributeName);
      for (const v of a.Value ?? []) assert.match(v.ValueName, /^[A-Za-z_]/, `${a.AttributeName}.${v.ValueName}`);
      if (a.Type === 'Enumeration')
        assert.ok(
          a.Value.some((v: any) => v.ValueName === a.DefaultValue),
          a.AttributeName,
        );
      if (a.Type === 'Integer') assert.ok(a.LowerBound !== undefined && a.UpperBound !== undefined && a.ScalarIncrement !== undefined);
      if (a.Type === 'String') assert.ok(a.MinLength !== undefined && a.MaxLength !== undefined);
    }
    assert.ok(attrs.some((a) => a.Type === 'String' && a.ValueExpression));
    assert.ok(attrs.some((a) => a.Value?.some((v: any) => v.ValueName === 'Baud115200')));
    assert.ok(attrs.some((a) => a.Value?.some((v: any) => v.ValueName === 'Timeout10')));
    const menus: any[] = reg.RegistryEntries.Menus;
    assert.ok(menus.length > 10);
    const menuPaths = new Set(menus.map((m) => m.MenuPath));
    for (const a of attrs) assert.ok(menuPaths.has(a.MenuPath), a.MenuPath);
    const deps: any[] = reg.RegistryEntries.Dependencies;
    assert.ok(deps.some((d) => d.Dependency.MapToProperty === 'ReadOnly'));
    assert.ok(deps.some((d) => d.Dependency.MapToProperty === 'CurrentValue'));
    const names = new Set(attrs.map((a) => a.AttributeName));
    for (const d of deps) {
      assert.equal(d.Type, 'Map');
      assert.ok(names.has(d.Dependency.MapToAttribute));
      for (const f of d.Dependency.MapFrom) assert.ok(names.has(f.MapFromAttribute));
    }
  });
});
