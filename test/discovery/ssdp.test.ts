// SSDP discovery (DSP0266 "Discovery"): M-SEARCH answers with the service
// root's UUID and URL, NOTIFY announcements on the controller clock, and the
// ManagerNetworkProtocol switch, kept across a restart.
import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/service.js';
import { turn, waitUntil } from '../support/wait.js';

const NP = '/redfish/v1/Managers/1/NetworkProtocol/';

function freeUdpPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createSocket('udp4');
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function headers(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).toUpperCase()] = line.slice(i + 1).trim();
  }
  return out;
}

const REDFISH_ST = 'urn:dmtf-org:service:redfish-rest:1';
const GROUP = '239.255.255.250';

/** A UDP socket that sends M-SEARCH requests to the service and collects the answers. */
class Searcher {
  readonly answers: string[] = [];
  private constructor(private readonly socket: Socket) {
    socket.on('message', (m) => this.answers.push(m.toString()));
  }

  static async open(): Promise<Searcher> {
    const socket = createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, () => r()));
    socket.setMulticastInterface('127.0.0.1');
    return new Searcher(socket);
  }

  /** Send one search; resolves once the datagram is sent. */
  send(port: number, st: string, to = '127.0.0.1', man = '"ssdp:discover"'): Promise<void> {
    const msg = `M-SEARCH * HTTP/1.1\r\nHOST: ${GROUP}:${port}\r\nMAN: ${man}\r\nMX: 1\r\nST: ${st}\r\n\r\n`;
    return new Promise<void>((resolve, reject) => this.socket.send(msg, port, to, (err) => (err ? reject(err) : resolve())));
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * Wait until the service has handled everything sent to it so far: a Redfish search sent
 * now (to the group, so a listener on the same port cannot take it) is answered only after
 * the earlier datagrams, and whatever the service sent before that answer has arrived one
 * turn of the event loop later.
 */
async function barrier(port: number): Promise<void> {
  const s = await Searcher.open();
  try {
    await s.send(port, REDFISH_ST, GROUP);
    await waitUntil(() => s.answers.length > 0, 'the answer to a barrier search');
    await turn();
  } finally {
    s.close();
  }
}

/** The answers one search gets: counted after a barrier, so none is missed and no duplicate is. */
async function search(port: number, st: string, to = '127.0.0.1', man?: string): Promise<string[]> {
  const s = await Searcher.open();
  try {
    await s.send(port, st, to, man);
    await barrier(port);
    return [...s.answers];
  } finally {
    s.close();
  }
}

describe('SSDP discovery', () => {
  let svc: TestService;
  let port: number;
  let uuid: string;
  before(async () => {
    port = await freeUdpPort();
    svc = await startTestService({ config: { ssdpPort: port } });
    uuid = (await svc.get('/redfish/v1/', { auth: 'none' })).body.UUID;
  });
  after(() => svc.close());

  it('answers Redfish and ssdp:all searches, unicast and multicast, with the root UUID and URL', async () => {
    for (const [st, to] of [
      ['urn:dmtf-org:service:redfish-rest:1', '127.0.0.1'],
      ['ssdp:all', '127.0.0.1'],
      ['urn:dmtf-org:service:redfish-rest:1:23', '239.255.255.250'],
    ] as const) {
      const answers = await search(port, st, to);
      assert.equal(answers.length, 1, `${st} to ${to}`);
      const a = answers[0] as string;
      assert.match(a, /^HTTP\/1\.1 200 OK\r\n/);
      const h = headers(a);
      assert.equal(h.ST, 'urn:dmtf-org:service:redfish-rest:1:23');
      assert.equal(h.USN, `uuid:${uuid}::urn:dmtf-org:service:redfish-rest:1:23`);
      assert.equal(h.AL, `${svc.url}/redfish/v1/`);
      assert.ok(Number(/max-age=(\d+)/.exec(h['CACHE-CONTROL'] ?? '')?.[1]) >= 1800);
      assert.ok('EXT' in h);
    }
    // Other targets and other requests get no answer.
    assert.deepEqual(await search(port, 'upnp:rootdevice'), []);
    assert.deepEqual(await search(port, REDFISH_ST, '127.0.0.1', 'none'), [], 'no MAN: "ssdp:discover"');
  });

  it('announces itself with NOTIFY ssdp:alive at the configured interval of controller time', async () => {
    const listener: Socket = createSocket({ type: 'udp4', reuseAddr: true });
    const notes: string[] = [];
    listener.on('message', (m) => {
      if (m.toString().startsWith('NOTIFY')) notes.push(m.toString());
    });
    await new Promise<void>((r) => listener.bind(port, () => r()));
    listener.addMembership('239.255.255.250', '127.0.0.1');
    try {
      const patch = await svc.req('PATCH', NP, { body: { SSDP: { NotifyMulticastIntervalSeconds: 30 } } });
      assert.equal(patch.status, 200, patch.text);
      await svc.clock.advance(31_000);
      await barrier(port);
      const first = notes.length;
      assert.ok(first >= 1, 'an announcement within the interval');
      const h = headers(notes[0] as string);
      assert.equal(h.NTS, 'ssdp:alive');
      assert.equal(h.NT, 'urn:dmtf-org:service:redfish-rest:1:23');
      assert.equal(h.USN, `uuid:${uuid}::urn:dmtf-org:service:redfish-rest:1:23`);
      await svc.clock.advance(10_000);
      await barrier(port);
      assert.equal(notes.length, first, 'nothing before the interval is over');
      await svc.clock.advance(25_000);
      await barrier(port);
      assert.equal(notes.length, first + 1);
    } finally {
      listener.close();
    }
  });

  it('is switched off and on through ManagerNetworkProtocol, and the switch survives a restart', async () => {
    const np = await svc.get(NP);
    const { NotifyMulticastIntervalSeconds: interval, ...ssdp } = np.body.SSDP;
    assert.deepEqual(ssdp, {
      Port: port,
      ProtocolEnabled: true,
      NotifyTTL: 5,
      NotifyIPv6Scope: 'Site',
      '@Redfish.WriteableProperties': ['ProtocolEnabled', 'NotifyMulticastIntervalSeconds', 'NotifyTTL'],
    });
    assert.equal(typeof interval, 'number');
    assert.equal((await svc.req('PATCH', NP, { body: { SSDP: { ProtocolEnabled: false } } })).status, 200);
    // Searches while it is off; that they got no answer is known once a later search is answered.
    const whileOff = await Searcher.open();
    try {
      await whileOff.send(port, 'ssdp:all');
      await turn();
      assert.equal((await svc.req('PATCH', NP, { body: { SSDP: { NotifyTTL: 0 } } })).status, 400);

      svc = await svc.restart();
      assert.equal((await svc.get(NP)).body.SSDP.ProtocolEnabled, false);
      await whileOff.send(port, 'ssdp:all');
      await whileOff.send(port, REDFISH_ST, GROUP);
      await turn();
      assert.equal((await svc.req('PATCH', NP, { body: { SSDP: { ProtocolEnabled: true } } })).status, 200);
      assert.equal((await search(port, 'ssdp:all')).length, 1);
      assert.deepEqual(whileOff.answers, [], 'no answer while off, before and after the restart');
    } finally {
      whileOff.close();
    }
  });

  it('offers no SSDP when its port is 0', async () => {
    const other = await startTestService();
    try {
      const np = await other.get(NP);
      assert.equal(np.body.SSDP, undefined);
      const r = await other.req('PATCH', NP, { body: { SSDP: { ProtocolEnabled: true } } });
      assert.equal(r.status, 400);
    } finally {
      await other.close();
    }
  });
});
