// Drives the simulated server through a boot in tests: POST hooks do real
// asynchronous work (key generation...), so wait for them, not only the clock.
import type { ResetType } from '../../src/platform/simulator.js';
import type { TestService } from './service.js';

/** Power on (or reset) the host and let it run `afterMs` of controller time past POST. */
export async function bootHost(svc: TestService, afterMs = 60_000, how: ResetType = 'On'): Promise<void> {
  const server = svc.running.services.server;
  server.reset(how);
  await svc.clock.advance(5_000);
  await server.postSettled();
  await svc.clock.advance(afterMs);
}

export async function powerOff(svc: TestService, afterMs = 1_000): Promise<void> {
  svc.running.services.server.reset('ForceOff');
  await svc.clock.advance(afterMs);
}

/** A server reset as a client asks it (ComputerSystem.Reset: On while off, else ForceRestart), waited through POST. */
export async function resetServer(svc: TestService, afterMs = 7_000): Promise<void> {
  const system = '/redfish/v1/Systems/1/';
  const on = (await svc.get(system)).body.PowerState === 'On';
  const r = await svc.req('POST', `${system}Actions/ComputerSystem.Reset/`, { body: { ResetType: on ? 'ForceRestart' : 'On' } });
  if (r.status !== 200) throw new Error(`reset refused: ${r.status} ${r.text}`);
  await svc.clock.advance(afterMs);
}
