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
