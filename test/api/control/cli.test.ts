// The CLI scripts the control API and uploads packages, against a started service.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../../src/config.js';
import { parseDuration } from '../../../src/tools/control.js';
import { makePackage } from '../../support/firmware.js';
import { ADMIN_PASSWORD, ADMIN_USER, startTestService, type TestService } from '../../support/service.js';

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url));
const run = promisify(execFile);

describe('CLI: control and upload', () => {
  let svc: TestService;
  const cli = async (...args: string[]) => {
    const conn = ['--url', svc.url, '--user', ADMIN_USER, '--password', ADMIN_PASSWORD, '--insecure'];
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLI, ...args, ...conn], { encoding: 'utf8' });
      return { code: 0, stdout, stderr: '' };
    } catch (e) {
      const err = e as { code: number; stdout: string; stderr: string };
      return { code: err.code, stdout: err.stdout, stderr: err.stderr };
    }
  };
  before(async () => {
    svc = await startTestService({ config: { enableControl: true } });
  });
  after(() => svc.close());

  it('--enable-control and BMC_ENABLE_CONTROL switch it on; it is off by default', () => {
    assert.equal(parseConfig([], {}).enableControl, false);
    assert.equal(parseConfig(['--enable-control'], {}).enableControl, true);
    assert.equal(parseConfig([], { BMC_ENABLE_CONTROL: 'true' }).enableControl, true);
    assert.equal(parseConfig([], { BMC_ENABLE_CONTROL: '0' }).enableControl, false);
    assert.throws(() => parseConfig([], { BMC_ENABLE_CONTROL: 'perhaps' }), /BMC_ENABLE_CONTROL/);
  });

  it('durations read as seconds, minutes, hours, days', () => {
    assert.deepEqual(['90', '90s', '15m', '24h', '7d'].map(parseDuration), [90, 90, 900, 86400, 604800]);
    assert.throws(() => parseDuration('soon'));
  });

  it('control advance-clock 24h moves the controller clock and prints the state', async () => {
    const before = svc.clock.now();
    const r = await cli('control', 'advance-clock', '24h');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(svc.clock.now(), before + 86_400_000);
    assert.equal(JSON.parse(r.stdout).State.Clock, new Date(before + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });

  it('control fault / faults / clear-fault / sensor / host / power', async () => {
    let r = await cli('control', 'fault', 'PsuFailure', 'Bay=1');
    assert.equal(r.code, 0, r.stderr);
    const id = JSON.parse(r.stdout).Id as string;
    assert.equal((await svc.get('/redfish/v1/Chassis/1/Power/', { auth: 'basic' })).body.PowerSupplies[0].Status.Health, 'Critical');
    r = await cli('control', 'faults');
    assert.equal(JSON.parse(r.stdout).Faults[0].Id, id);
    r = await cli('control', 'clear-fault', id);
    assert.equal(r.code, 0, r.stderr);
    r = await cli('control', 'sensor', 'InletAmbient', '40C');
    assert.equal(JSON.parse(r.stdout).ReadingCelsius, 40);
    r = await cli('control', 'sensor', 'InletAmbient', 'clear');
    assert.equal(r.code, 0, r.stderr);
    r = await cli('control', 'host', 'RuntimeAgent=true');
    assert.deepEqual(JSON.parse(r.stdout), { RuntimeAgent: true, ManagerFunctionality: true, Tpm: 'installed' });
    r = await cli('control', 'power', 'ResumePost');
    assert.equal(r.code, 0, r.stderr);
    const resets = svc.running.services.controller.resets;
    r = await cli('control', 'reset-controller', '0', '0');
    assert.deepEqual(JSON.parse(r.stdout), { OfflineSeconds: 0, BootingSeconds: 0 });
    assert.equal(svc.running.services.controller.resets, resets + 1);
  });

  it('a refused request exits 1 with the registry message; a bad command exits 2 with the usage', async () => {
    let r = await cli('control', 'set-clock', '2000-01-01T00:00:00Z');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /ControlActionRejected.*only moves forward/);
    r = await cli('control', 'explode');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /Usage: npm run cli -- control/);
  });

  it('upload sends a package with its compsig to the repository', async () => {
    const pkg = await makePackage(svc, { targets: ['SPS'], version: '4.1.4.800', file: 'cli-sps.fwpkg' });
    const r = await cli('upload', pkg.path, '--repository', '--no-target');
    assert.equal(r.code, 0, r.stderr);
    const repo = await svc.get('/redfish/v1/UpdateService/ComponentRepository/cli-sps.fwpkg/', { auth: 'basic' });
    assert.equal(repo.status, 200, repo.text);
    assert.equal(repo.body.Version, '4.1.4.800');
  });
});
