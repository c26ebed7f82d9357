// The virtual media domain on its own: what an insert asks of the downloader,
// how its failures reach the client, and which device a boot picks with and
// without media (BootSettings asking VirtualMedia as its RemovableMedia).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { BootSettings, bootOptionsFor, type BootState } from '../../../src/domain/bios/boot.js';
import { EventBus } from '../../../src/domain/events/bus.js';
import type { Downloaded, ReadOptions } from '../../../src/domain/firmware/download.js';
import { Logs } from '../../../src/domain/logs/logs.js';
import { imageNameOf, VirtualMedia } from '../../../src/domain/manager/virtual-media.js';
import { resourceUris } from '../../../src/lib/resource-uris.js';
import { Refusal, vendorRefusal } from '../../../src/messages/refusal.js';
import { ManualClock } from '../../../src/platform/clock.js';
import { resolveHardware } from '../../../src/platform/hardware/identity.js';
import { loadHardwareProfile } from '../../../src/platform/hardware/profile.js';
import { HostLifecycle } from '../../../src/platform/lifecycle.js';
import { openDatabase } from '../../../src/store/database.js';
import { DocumentStore } from '../../../src/store/documents.js';

const OK: Downloaded = { size: 2048, sha256: Buffer.alloc(32) };

function setup(read: (uri: string, o: ReadOptions) => Promise<Downloaded> = async () => OK) {
  const clock = new ManualClock();
  const store = new DocumentStore(openDatabase(':memory:', () => clock.now()));
  const logs = new Logs(store, clock);
  const calls: { uri: string; o: ReadOptions }[] = [];
  const vm = new VirtualMedia({
    store,
    downloader: {
      read: (uri, o = {}) => {
        calls.push({ uri, o });
        return read(uri, o);
      },
    },
    maxBytes: 4096,
    logs,
    events: new EventBus(clock, pino({ level: 'silent' })),
    uris: resourceUris({ systemId: '1', chassisId: '1', managerId: '1' }),
  });
  const host = new HostLifecycle();
  const options = bootOptionsFor(resolveHardware(loadHardwareProfile('default'), 'seed'));
  const boot = new BootSettings(store, host, options, vm);
  const post = () => host.runPost({ bootCount: 1, startedAt: 0 });
  const structured = () => options.find((o) => o.id === boot.get().LastBootOption)?.structured;
  const iml = () => logs.list('IML').map((r) => r.MessageId.replace(/^Vendor\.1\.0\./, ''));
  return { vm, boot, post, structured, iml, calls, options };
}

describe('virtual media domain', () => {
  it('names an image after the last segment of its path', () => {
    const cases: [string, string][] = [
      ['https://h/images/boot.iso', 'boot.iso'],
      ['https://h/a%20b.iso?x=1', 'a b.iso'],
      ['http://images.example/', 'images.example'],
      ['https://h/bad%E0%A4%A.iso', 'bad%E0%A4%A.iso'],
    ];
    for (const [uri, name] of cases) assert.equal(imageNameOf(new URL(uri)), name, uri);
  });

  it('reads with HEAD first, the size limit and Basic credentials; keeps no password', async () => {
    const { vm, calls } = setup();
    const m = await vm.insert('2', { image: new URL('https://h/x.iso'), userName: 'u', password: 'p w' }, 'admin');
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.o.head, true);
    assert.equal(calls[0]?.o.maxBytes, 4096);
    assert.equal(calls[0]?.o.headers?.authorization, `Basic ${Buffer.from('u:p w').toString('base64')}`);
    assert.deepEqual(
      { ...m },
      {
        Image: 'https://h/x.iso',
        ImageName: 'x.iso',
        Inserted: true,
        WriteProtected: true,
        TransferProtocolType: 'HTTPS',
        UserName: 'u',
        BootOnNextServerReset: false,
        Size: 2048,
      },
    );
    assert.ok(!JSON.stringify(vm.media('2')).includes('p w'));
  });

  it('a failed read refuses with ImageDownloadFailed (answered 400 by the api), keeps what the device held, frees the device', async () => {
    let fail = false;
    const { vm } = setup(async (uri) => {
      if (fail) throw vendorRefusal('ImageDownloadFailed', uri, 'the server answered HTTP 404');
      return OK;
    });
    await vm.insert('1', { image: new URL('http://h/old.img') }, 'admin');
    fail = true;
    await assert.rejects(
      vm.insert('1', { image: new URL('http://h/new.img') }, 'admin'),
      (e: unknown) => e instanceof Refusal && e.infos[0]?.MessageId === 'Vendor.1.0.ImageDownloadFailed',
    );
    assert.equal(vm.media('1')?.ImageName, 'old.img');
    fail = false;
    await vm.insert('1', { image: new URL('http://h/new.img') }, 'admin');
    assert.equal(vm.media('1')?.ImageName, 'new.img');
  });

  it('one insert at a time per device; the other device is free', async () => {
    const waiting: (() => void)[] = [];
    const { vm } = setup(() => new Promise((r) => waiting.push(() => r(OK))));
    const first = vm.insert('2', { image: new URL('https://h/a.iso') }, 'admin');
    await assert.rejects(vm.insert('2', { image: new URL('https://h/b.iso') }, 'admin'), /in use or in transition/);
    assert.throws(() => vm.eject('2', 'admin'), /in use or in transition/);
    const other = vm.insert('1', { image: new URL('https://h/c.img') }, 'admin');
    for (const release of waiting) release();
    await Promise.all([first, other]);
    assert.equal(vm.media('2')?.ImageName, 'a.iso');
    assert.equal(vm.eject('2', 'admin'), true);
    assert.equal(vm.eject('2', 'admin'), false);
  });

  it('the boot picks a device with media and logs it; an empty one is skipped', async () => {
    type Case = {
      what: string;
      boot: Partial<BootState>;
      cd?: { Inserted?: boolean; BootOnNextServerReset?: boolean };
      usb?: { BootOnNextServerReset?: boolean };
      booted: string;
      logged: string[];
      overrideLeft?: string;
    };
    const once = { BootSourceOverrideEnabled: 'Once' as const };
    const cases: Case[] = [
      {
        what: 'Cd once, media in',
        boot: { ...once, BootSourceOverrideTarget: 'Cd' },
        cd: {},
        booted: 'CD.Virtual.2.1',
        logged: ['VirtualMediaBoot'],
        overrideLeft: 'None',
      },
      {
        what: 'Cd once, empty',
        boot: { ...once, BootSourceOverrideTarget: 'Cd' },
        booted: 'HD.Emb.1.2',
        logged: ['BootDeviceMissing'],
        overrideLeft: 'None',
      },
      {
        what: 'Cd once, not presented',
        boot: { ...once, BootSourceOverrideTarget: 'Cd' },
        cd: { Inserted: false },
        booted: 'HD.Emb.1.2',
        logged: ['BootDeviceMissing'],
      },
      {
        what: 'Usb continuous, empty',
        boot: { BootSourceOverrideEnabled: 'Continuous', BootSourceOverrideTarget: 'Usb' },
        booted: 'HD.Emb.1.2',
        logged: ['BootDeviceMissing'],
        overrideLeft: 'Usb',
      },
      { what: 'no override, media in', boot: {}, cd: {}, booted: 'HD.Emb.1.2', logged: [] },
      {
        what: 'BootOnNextServerReset',
        boot: {},
        cd: { BootOnNextServerReset: true },
        booted: 'CD.Virtual.2.1',
        logged: ['VirtualMediaBoot'],
      },
      {
        what: 'an override comes before BootOnNextServerReset',
        boot: { ...once, BootSourceOverrideTarget: 'Pxe' },
        cd: { BootOnNextServerReset: true },
        booted: 'NIC.LOM.1.1.IPv4',
        logged: [],
      },
      {
        what: 'an empty override falls to BootOnNextServerReset',
        boot: { ...once, BootSourceOverrideTarget: 'Usb' },
        cd: { BootOnNextServerReset: true },
        booted: 'CD.Virtual.2.1',
        logged: ['BootDeviceMissing', 'VirtualMediaBoot'],
      },
    ];
    for (const c of cases) {
      const { vm, boot, post, structured, iml } = setup();
      if (c.cd) {
        await vm.insert('2', { image: new URL('https://h/deploy.iso'), inserted: c.cd.Inserted }, 'admin');
        if (c.cd.BootOnNextServerReset) vm.update('2', { BootOnNextServerReset: true });
      }
      boot.update(c.boot);
      await post();
      assert.equal(structured(), c.booted, c.what);
      assert.deepEqual(iml(), c.logged, c.what);
      assert.equal(boot.get().BootSourceOverrideTarget, c.overrideLeft ?? boot.get().BootSourceOverrideTarget, c.what);
      assert.equal(vm.media('2')?.BootOnNextServerReset ?? false, false, `${c.what}: BootOnNextServerReset is for one reset`);
    }
  });

  it('an empty virtual CD first in the boot order is skipped', async () => {
    const { vm, boot, post, structured, options } = setup();
    const cd = options.find((o) => o.alias === 'Cd')!;
    boot.update({ BootOrder: [cd.id, ...boot.get().BootOrder.filter((id) => id !== cd.id)] });
    await post();
    assert.equal(structured(), 'HD.Emb.1.2');
    await vm.insert('2', { image: new URL('https://h/deploy.iso') }, 'admin');
    await post();
    assert.equal(structured(), 'CD.Virtual.2.1');
  });
});
