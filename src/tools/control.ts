// `npm run cli -- control <command> ... --url ... --user ... --password ...`:
// scripts the scenario control API (--enable-control) of a running service.
import { FAULT_TYPES, POWER_EVENTS, TPM_STATES } from '../domain/control/control.js';
import { CONNECTION_USAGE, UsageError, apiTool, call, type Answer, type Connection } from './client.js';
import type { Tool } from './tool.js';

const USAGE = `Usage: npm run cli -- control <command> ${CONNECTION_USAGE}

Commands:
  state                          the controls and the simulated state (GET /control/)
  advance-clock <duration>       move the controller clock forward: 90, 90s, 15m, 24h, 7d
  set-clock <ISO 8601 time>      move the controller clock forward to that time
  power <event>                  ${POWER_EVENTS.join(' | ')}
  fault <type> [Field=value...]  ${FAULT_TYPES.join(' | ')}; targets e.g. Fan=Fan1, Bay=2,
                                 Storage=DE00A000 Drive=0, Component=file.fwpkg, Firmware=4,
                                 Uri=https://images/, Destination=https://listener/
  faults                         the injected faults
  clear-fault <id>               the part recovers (DELETE /control/faults/<id>)
  sensor <name> <value>[C|RPM|W] hold a reading exactly (°C by default)
  sensor <name> clear            let it follow the simulation again
  host [RuntimeAgent=true|false] [Tpm=${TPM_STATES.join('|')}]
  reset-controller [<offline> [<booting>]]
                                 reset the controller: unreachable, then booting (503), as
                                 durations (default --controller-reboot-seconds, 2/3 then 1/3)

The connection may also come from BMC_URL, BMC_USER and BMC_PASSWORD.
`;

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a duration like 90, 90s, 15m, 24h, 7d. */
export function parseDuration(text: string): number {
  const m = /^(\d+)([smhd]?)$/i.exec(text.trim());
  if (!m) throw new UsageError(`a duration is a whole number with an optional unit s, m, h or d: got "${text}"`);
  return Number(m[1]) * (UNITS[(m[2] ?? '').toLowerCase()] ?? 1);
}

function fields(args: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of args) {
    const i = a.indexOf('=');
    if (i <= 0) throw new UsageError(`expected Field=value, got "${a}"`);
    const key = a.slice(0, i);
    const raw = a.slice(i + 1);
    out[key] = key === 'Bay' ? Number(raw) : raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  return out;
}

async function command(c: Connection, cmd: string, args: string[]): Promise<Answer> {
  const need = (n: number) => {
    if (args.length < n) throw new UsageError(`control ${cmd} needs ${n} argument${n > 1 ? 's' : ''}`);
  };
  switch (cmd) {
    case 'state':
      return call(c, 'GET', '/control/');
    case 'advance-clock':
      need(1);
      return call(c, 'POST', '/control/clock', { AdvanceSeconds: parseDuration(args[0] as string) });
    case 'set-clock':
      need(1);
      return call(c, 'POST', '/control/clock', { Set: args[0] });
    case 'power':
      need(1);
      return call(c, 'POST', '/control/power', { Event: args[0] });
    case 'fault':
      need(1);
      return call(c, 'POST', '/control/faults', { Fault: args[0], ...fields(args.slice(1)) });
    case 'faults':
      return call(c, 'GET', '/control/faults/');
    case 'clear-fault':
      need(1);
      return call(c, 'DELETE', `/control/faults/${encodeURIComponent(args[0] as string)}`);
    case 'sensor': {
      need(2);
      const [name, value] = args as [string, string];
      if (value === 'clear') return call(c, 'DELETE', `/control/sensors/${encodeURIComponent(name)}`);
      const m = /^(-?\d+(?:\.\d+)?)\s*(c|rpm|w)?$/i.exec(value);
      if (!m) throw new UsageError(`a sensor value is a number with an optional unit C, RPM or W: got "${value}"`);
      const unit = (m[2] ?? 'c').toLowerCase();
      const prop = unit === 'rpm' ? 'ReadingRPM' : unit === 'w' ? 'ReadingWatts' : 'ReadingCelsius';
      return call(c, 'POST', '/control/sensors', { Sensor: name, [prop]: Number(m[1]) });
    }
    case 'host':
      return call(c, 'POST', '/control/host', fields(args));
    case 'reset-controller': {
      const [offline, booting] = args.map(parseDuration);
      return call(c, 'POST', '/control/controller/reset', { OfflineSeconds: offline, BootingSeconds: booting });
    }
    default:
      throw new UsageError(`unknown control command "${cmd}"`);
  }
}

export const controlTool: Tool = apiTool(
  'control',
  'drive the control API of a running service (clock, power events, faults, sensors, host)',
  USAGE,
  command,
);
