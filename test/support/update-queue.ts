// Update queue test helpers: components in the repository, tasks, and
// moving the controller clock while real I/O (flashing reads files) settles.
import assert from 'node:assert/strict';
import { makePackage, upload } from './firmware.js';
import type { Response, TestService } from './service.js';

export const US = '/redfish/v1/UpdateService/';
export const QUEUE = `${US}UpdateTaskQueue/`;
export const WINDOWS = `${US}MaintenanceWindows/`;
export const SETS = `${US}InstallSets/`;
export const REPO = `${US}ComponentRepository/`;
export const FW = `${US}FirmwareInventory/`;
export const SW = `${US}SoftwareInventory/`;

/** Uploads a signed package into the repository only (no flash). */
export async function addComponent(
  svc: TestService,
  o: { targets: string[]; version: string; file: string; type?: 'A' | 'B' | 'C' | 'D'; criticality?: 'Critical' },
): Promise<void> {
  const pkg = await makePackage(svc, o);
  const r = await upload(svc, pkg, { auth: 'basic', params: { UpdateRepository: true, UpdateTarget: false } });
  assert.equal(r.status, 200, r.text);
  if (o.criticality) {
    const p = await svc.req('PATCH', `${REPO}${o.file}/`, { auth: 'basic', body: { Criticality: o.criticality } });
    assert.equal(p.status, 200, p.text);
  }
}

export const basic = { auth: 'basic' as const };

export async function post(svc: TestService, path: string, body: unknown): Promise<Response> {
  return svc.req('POST', path, { auth: 'basic', body });
}

export async function get(svc: TestService, path: string): Promise<Response> {
  return svc.req('GET', path, { auth: 'basic' });
}

export async function taskState(svc: TestService, id: string): Promise<string | number> {
  const r = await get(svc, `${QUEUE}${id}/`);
  return r.status === 200 ? (r.body.State as string) : r.status;
}

export async function queueStatus(
  svc: TestService,
): Promise<{ State: string; Reason: string; HeadTask: { '@odata.id': string } | null; Message: string }> {
  return (await get(svc, QUEUE)).body.Oem[svc.running.services.naming.key].QueueStatus;
}

export async function version(svc: TestService, uri: string): Promise<string> {
  return (await get(svc, uri)).body.Version as string;
}

/** Let file I/O and promise chains finish without moving the clock. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}

/** Advance the clock in steps, settling real I/O after each. */
export async function advance(svc: TestService, ms: number, step = 1_000): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    await svc.clock.advance(Math.min(step, ms - done));
    await settle();
  }
}

/**
 * Advance step by step until the task reaches a state, within `maxMs` of controller time.
 * Flashing reads and writes real files: on a loaded machine that I/O may still be running when
 * the controller time is used up, so the last check waits up to a few real seconds for it.
 */
export async function until(svc: TestService, id: string, state: string, maxMs = 600_000, step = 5_000): Promise<void> {
  for (let t = 0; t <= maxMs; t += step) {
    if ((await taskState(svc, id)) === state) return;
    await svc.clock.advance(step);
    await settle();
    await new Promise((r) => setTimeout(r, 1));
  }
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if ((await taskState(svc, id)) === state) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`task ${id} did not reach ${state}: it is ${await taskState(svc, id)}`);
}

/** ComputerSystem.Reset, as a client sends it. */
export async function resetHost(svc: TestService, how: 'On' | 'ForceRestart' | 'ForceOff'): Promise<void> {
  const r = await post(svc, `/redfish/v1/Systems/${svc.running.services.config.systemId}/Actions/ComputerSystem.Reset/`, {
    ResetType: how,
  });
  assert.equal(r.status, 200, r.text);
}

export function isoIn(svc: TestService, ms: number): string {
  return new Date(svc.clock.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An administrator without SystemRecoveryConfigPriv (the recovery install set's privilege). */
export const NO_RECOVERY = { user: 'norecovery', password: 'No-Recovery-Pass1' };

export async function addNoRecoveryAccount(svc: TestService): Promise<void> {
  const r = await post(svc, '/redfish/v1/AccountService/Accounts/', {
    UserName: NO_RECOVERY.user,
    Password: NO_RECOVERY.password,
    RoleId: 'Administrator',
    Oem: { Vendor: { Privileges: { SystemRecoveryConfigPriv: false } } },
  });
  assert.equal(r.status, 201, r.text);
}
