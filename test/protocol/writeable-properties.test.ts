// @Redfish.WriteableProperties (src/protocol/decorate.ts): each level of a
// writable resource names its writable members, derived from the description;
// read-only resources and read-only instances name none. Over HTTPS, both dialects.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';

const W = '@Redfish.WriteableProperties';

for (const dialect of ['spec', 'dmtf'] as const) {
  describe(`@Redfish.WriteableProperties (${dialect} dialect)`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService({ config: { dialect } });
    });
    after(() => svc.close());

    it('names the writable properties at the root and in each object below it', async () => {
      const sys = (await svc.get('/redfish/v1/Systems/1/')).body;
      const root = sys[W] as string[];
      for (const name of ['AssetTag', 'HostName', 'LocationIndicatorActive', 'Boot']) assert.ok(root.includes(name), name);
      for (const name of ['PowerState', 'Status', 'Links', 'Oem', 'Id']) assert.ok(!root.includes(name), name);
      // A deprecated property is named only where the dialect shows it.
      assert.equal(root.includes('IndicatorLED'), dialect === 'spec');
      assert.deepEqual(sys.Boot[W], [
        'BootSourceOverrideTarget',
        'BootSourceOverrideEnabled',
        'BootSourceOverrideMode',
        'UefiTargetBootSourceOverride',
        'HttpBootUri',
        'BootOrder',
      ]);
      assert.equal(sys.ProcessorSummary[W], undefined);
      // An array of objects: its first element speaks for all.
      const power = (await svc.get('/redfish/v1/Chassis/1/Power/')).body;
      assert.deepEqual(power[W], ['PowerControl']);
      assert.deepEqual(power.PowerControl[0].PowerLimit[W], ['LimitInWatts', 'LimitException']);
      // Each named property takes a PATCH.
      const r = await svc.req('PATCH', '/redfish/v1/Systems/1/', {
        body: { AssetTag: 'rack-7', Boot: { HttpBootUri: 'https://x.example/a.efi' } },
      });
      assert.equal(r.status, 200);
    });

    it('resources without PATCH, and read-only instances of writable ones, name none', async () => {
      assert.equal((await svc.get('/redfish/v1/Systems/1/Processors/1/')).body[W], undefined);
      assert.equal((await svc.get('/redfish/v1/Systems/1/EthernetInterfaces/1/')).body[W], undefined);
      const readOnly = await svc.get('/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/dbDefault/');
      assert.equal(readOnly.headers.allow, 'GET, HEAD');
      assert.equal(readOnly.body[W], undefined);
    });
  });
}
