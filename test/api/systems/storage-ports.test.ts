// Issue 28 item 3: an array controller's drive connectors (DMTF Port) from the hardware profile,
// at the DMTF place (Controllers/0/Ports) and at iLO 5's (StorageControllers/0/Ports): each leads
// down to its drives over copper, linked while drives are cabled to it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../../support/service.js';

const STORAGE = '/redfish/v1/Systems/1/Storage/DE00A000/';

describe('storage controller ports', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ config: { oemName: 'Hpe' } });
  });
  after(() => svc.close());
  const get = (path: string) => svc.req('GET', path, { auth: 'basic' });

  for (const under of ['Controllers', 'StorageControllers']) {
    it(`shows each connector of the profile's controller under ${under}/0/Ports`, async () => {
      const storage = (await get(STORAGE)).body;
      const link = under === 'Controllers' ? (await get(`${STORAGE}Controllers/0/`)).body.Ports : storage.StorageControllers[0].Ports;
      assert.equal(link['@odata.id'], `${STORAGE}${under}/0/Ports/`);
      const list = await get(`${STORAGE}${under}/0/Ports/?$expand=.`);
      assert.equal(list.status, 200, list.text);
      const ports = list.body.Members;
      assert.deepEqual(
        ports.map((p: any) => [p.Id, p.PortProtocol, p.Width, p.MaxSpeedGbps, p.CurrentSpeedGbps, p.Location.PartLocation.ServiceLabel]),
        [
          ['1I', 'SAS', 4, 12, 12, 'Port 1I'],
          ['2I', 'SAS', 4, 12, 12, 'Port 2I'],
        ],
      );
      assert.equal(ports[0]['@odata.type'], '#Port.v1_18_0.Port');
      for (const p of ports) {
        assert.deepEqual([p.PortType, p.PortMedium, p.LinkStatus, p.LinkState], ['DownstreamPort', 'Electrical', 'LinkUp', 'Enabled']);
      }
      assert.equal((await get(`${STORAGE}${under}/0/Ports/3I/`)).status, 404);
      assert.equal((await get(`${STORAGE}${under}/1/Ports/`)).status, 404);
    });
  }
});

describe('storage controller ports without drives', () => {
  it('has no link on a connector no drive is cabled to', async () => {
    // The default server with the drives of connector 2I taken out.
    const dir = mkdtempSync(join(tmpdir(), 'ports-'));
    const file = join(dir, 'no-2i.yaml');
    const profile = readFileSync(new URL('../../../profiles/default.yaml', import.meta.url), 'utf8');
    writeFileSync(
      file,
      profile
        .split('\n')
        .filter((l) => !l.includes('bay: "2I:'))
        .join('\n'),
    );
    const svc = await startTestService({ config: { hardware: file, oemName: 'Hpe' } });
    try {
      const ports = (await svc.get(`${STORAGE}Controllers/0/Ports/?$expand=.`)).body.Members;
      assert.deepEqual(
        ports.map((p: any) => [p.Id, p.LinkStatus, p.CurrentSpeedGbps]),
        [
          ['1I', 'LinkUp', 12],
          ['2I', 'NoLink', null],
        ],
      );
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
