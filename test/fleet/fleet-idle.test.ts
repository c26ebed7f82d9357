// What a large fleet costs when idle and when its controllers deliver events (issue 30): an idle
// controller's minute (its metric report) opens no resting database, and event deliveries from
// every controller to one listener share a few outbound connections, retries as they were.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Agent, request } from 'undici';
import { defaultConfig } from '../../src/config.js';
import { startFleet, type RunningFleet } from '../../src/fleet/fleet.js';
import { checkedServers } from '../../src/http/connection-checks.js';
import { ManualClock } from '../../src/platform/clock.js';
import { EventListener, waitFor } from '../support/event-listener.js';
import { rawTls } from '../support/raw-http.js';
import { ADMIN_PASSWORD, ADMIN_USER, basic } from '../support/service.js';

const CONTROLLERS = 24;
// Room for 16 open databases (the least a fleet runs with), 8 outbound connections: 4 per destination.
const NOFILE = 64 + 1 + 32 + 8 + 16 * 3;
const REPORT = '/redfish/v1/TelemetryService/MetricReports/SensorReadings/';

describe('a fleet at rest and delivering events', () => {
  let dir: string;
  let fleet: RunningFleet;
  let listener: EventListener;
  const clocks: ManualClock[] = [];
  let agent: Agent;
  const req = async (i: number, method: string, path: string, body?: unknown) => {
    const res = await request(fleet.url(i) + path, {
      method: method as 'GET',
      headers: { authorization: basic(ADMIN_USER, ADMIN_PASSWORD), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      dispatcher: agent,
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: text ? JSON.parse(text) : undefined };
  };
  /** Every controller, 8 at a time: the fleet takes 32 connections at once under this limit. */
  const every = async (fn: (i: number) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < CONTROLLERS) await fn(next++);
      }),
    );
  };
  const advanceAll = (ms: number) => Promise.all(clocks.map((c) => c.advance(ms)));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bmc-fleet-idle-'));
    listener = await EventListener.start();
    const config = defaultConfig({
      dataDir: dir,
      adminPassword: ADMIN_PASSWORD,
      scryptLogN: 10,
      ssdpPort: 0,
      logLevel: 'silent',
      fleet: CONTROLLERS,
      fleetAddresses: '127.0.9.1',
      port: 0,
    });
    fleet = await startFleet(config, {
      logger: pino({ level: process.env.FLEET_TEST_LOG ?? 'silent' }),
      descriptorLimit: NOFILE,
      clock: (i) => (clocks[i] = new ManualClock(Date.parse('2026-06-01T00:00:00Z'))),
    });
    // A connection per request (no keep-alive): kept-alive ones to 24 controllers, closed late on a
    // loaded machine, took the fleet past its 32 connections, and it closes new ones at once.
    agent = new Agent({ connect: { ca: fleet.caPem }, pipelining: 0 });
  });
  after(async () => {
    await agent.close();
    await fleet.close();
    await listener.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each idle controller’s metric report without opening its resting database', async () => {
    assert.equal(fleet.descriptors.databases, 16);
    const reopened = fleet.databases.reopened;
    await advanceAll(3.5 * 60_000);
    assert.equal(fleet.databases.reopened, reopened, 'no database opened again for three minutes of reports');
    await every(async (i) => {
      const r = await req(i, 'GET', REPORT);
      assert.equal(r.status, 200);
      assert.equal(r.body.ReportSequence, '3');
      // Nobody took it when it was due: made at this read, it still says when it was due.
      assert.equal(Date.parse(r.body.Timestamp), Date.parse('2026-06-01T00:03:00Z'));
      assert.ok(r.body.MetricValues.length > 0);
    });
  });

  it('checks the headers deadline of a controller only while it has a connection open: an idle fleet runs no such timer', async () => {
    // The requests above are over, and each closed its connection.
    await waitFor(() => checkedServers() === 0, 'no server with a connection to check', 5000);
    const { hostname, port } = new URL(fleet.url(3));
    const c = await rawTls(Number(port), { host: hostname, ca: fleet.caPem, rejectUnauthorized: true });
    await waitFor(() => checkedServers() === 1, 'the one server with a connection checked', 5000);
    c.socket.destroy();
    await waitFor(() => checkedServers() === 0, 'no check once it closed', 5000);
  });

  it('sweeps sessions only while a controller has one: an idle controller holds no sweep timer', async () => {
    const clock = clocks[5]!;
    const idle = clock.pending;
    const login = await request(`${fleet.url(5)}/redfish/v1/SessionService/Sessions/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: ADMIN_USER, Password: ADMIN_PASSWORD }),
      dispatcher: agent,
    });
    await login.body.dump();
    assert.equal(login.statusCode, 201);
    assert.equal(clock.pending, idle + 1, 'the sweep starts with the first session');
    const token = String(login.headers['x-auth-token']);
    const out = await request(`${fleet.url(5)}${String(login.headers.location).replace(/^https:\/\/[^/]+/, '')}`, {
      method: 'DELETE',
      headers: { 'x-auth-token': token },
      dispatcher: agent,
    });
    await out.body.dump();
    assert.ok(out.statusCode < 300, String(out.statusCode));
    assert.equal(clock.pending, idle, 'and ends with the last');
  });

  const subscriptions: string[] = [];
  it('delivers every controller’s event to one listener over a few shared connections, retrying as each subscription says', async () => {
    await every(async (i) => {
      const sub = await req(i, 'POST', '/redfish/v1/EventService/Subscriptions/', {
        Destination: listener.url,
        Context: `controller-${i}`,
        RegistryPrefixes: ['ResourceEvent'],
      });
      assert.equal(sub.status, 201, JSON.stringify(sub.body));
      subscriptions[i] = sub.body.Id;
      assert.equal((await req(i, 'PATCH', '/redfish/v1/EventService/', { DeliveryRetryIntervalSeconds: 30 })).status, 200);
    });
    const contexts = () => new Set(listener.received.map((d) => d.body.Context as string));
    const change = (tag: string) =>
      every(async (i) => assert.equal((await req(i, 'PATCH', '/redfish/v1/Systems/1/', { AssetTag: `${tag}-${i}` })).status, 200));

    await change('first');
    await waitFor(() => contexts().size === CONTROLLERS, 'an event from every controller', 30_000);
    assert.ok(
      listener.mostOpen <= 4,
      `${listener.mostOpen} connections at once from ${CONTROLLERS} controllers (${listener.connectionsMade} made)`,
    );

    // Refused: each subscription waits its own retry interval, then delivers.
    listener.received.length = 0;
    listener.mode = 'fail';
    await change('second');
    const waiting = () => subscriptions.filter((id, i) => fleet.controllers[i]!.services.eventHub.deliveryState(id).waitingForRetry).length;
    await waitFor(() => waiting() === CONTROLLERS, 'every controller waiting to retry', 30_000);
    listener.mode = 'ok';
    await advanceAll(29_000);
    assert.equal(listener.received.length, 0, 'no retry before the interval');
    await advanceAll(1_000);
    await waitFor(() => contexts().size === CONTROLLERS, 'every event at its retry', 30_000);
    assert.ok(
      listener.mostOpen <= 4,
      `${listener.mostOpen} connections at once from ${CONTROLLERS} controllers (${listener.connectionsMade} made)`,
    );
  });
});
