// BIOS attribute validation as the system ROM does it at POST
// (src/domain/bios/validate.ts): one value against its registry entry, the
// type check of the pending area, the Dependencies (every condition, AND/OR),
// what they make read-only, and the values a POST ends with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultAttributes } from '../../../src/domain/bios/bios.js';
import {
  attributeDef,
  checkValue,
  dependencyHolds,
  pendingTypeFits,
  readOnlyByDependency,
  resolvePending,
} from '../../../src/domain/bios/validate.js';
import type { ExtendedInfo } from '../../../src/messages/errors.js';
import type { AttrValue, DependencyDef, MapCondition, MapFrom } from '../../../src/platform/bios-attributes.js';

/** "Key(arg1,arg2)" of a Base message, or "ok" when there is none. */
function verdict(info: ExtendedInfo | undefined): string {
  if (!info) return 'ok';
  const key = info.MessageId.replace(/^Base\.1\.\d+\./, '');
  return `${key}(${info.MessageArgs.join(',')})`;
}

function def(name: string) {
  const d = attributeDef(name);
  assert.ok(d, `${name} is in the registry`);
  return d;
}

describe('checkValue: one value against its attribute', () => {
  const cases: [attribute: string, value: unknown, expected: string][] = [
    // Read-only attributes and passwords are never written through the pending area.
    ['TpmState', 'PresentEnabled', 'PropertyNotWritable(TpmState)'],
    ['TpmState', 'NotPresent', 'PropertyNotWritable(TpmState)'],
    ['TotalMemoryGiB', 384, 'PropertyNotWritable(TotalMemoryGiB)'],
    ['SerialNumber', 'X', 'PropertyNotWritable(SerialNumber)'],
    ['AdminPassword', 'secret', 'PropertyNotWritable(AdminPassword)'],
    ['PowerOnPassword', '', 'PropertyNotWritable(PowerOnPassword)'],
    // Enumeration: one of the ValueNames, exactly.
    ['EmbSerialPort', 'Com2Irq3', 'ok'],
    ['EmbSerialPort', 'Disabled', 'ok'],
    ['EmbSerialPort', 'com2irq3', 'PropertyValueNotInList(com2irq3,EmbSerialPort)'],
    ['EmbSerialPort', 'COM 2; IRQ3; I/O: 2F8h-2FFh', 'PropertyValueNotInList(COM 2; IRQ3; I/O: 2F8h-2FFh,EmbSerialPort)'],
    ['EmbSerialPort', '', 'PropertyValueNotInList(,EmbSerialPort)'],
    ['EmbSerialPort', 1, 'PropertyValueTypeError(1,EmbSerialPort)'],
    ['EmbSerialPort', true, 'PropertyValueTypeError(true,EmbSerialPort)'],
    ['EmbSerialPort', null, 'PropertyValueTypeError(null,EmbSerialPort)'],
    ['EmbSerialPort', ['Disabled'], 'PropertyValueTypeError(["Disabled"],EmbSerialPort)'],
    ['WorkloadProfile', 'Custom', 'ok'],
    ['WorkloadProfile', 'toString', 'PropertyValueNotInList(toString,WorkloadProfile)'],
    // Boolean: JSON booleans only.
    ['QuietBoot', true, 'ok'],
    ['QuietBoot', false, 'ok'],
    ['QuietBoot', 'true', 'PropertyValueTypeError(true,QuietBoot)'],
    ['QuietBoot', 0, 'PropertyValueTypeError(0,QuietBoot)'],
    ['QuietBoot', null, 'PropertyValueTypeError(null,QuietBoot)'],
    // Integer: whole numbers, inside [LowerBound, UpperBound], on a ScalarIncrement step from LowerBound.
    ['PostDelaySeconds', 0, 'ok'], // lower bound, step 5
    ['PostDelaySeconds', 5, 'ok'],
    ['PostDelaySeconds', 55, 'ok'],
    ['PostDelaySeconds', 60, 'ok'], // upper bound
    ['PostDelaySeconds', -5, 'PropertyValueOutOfRange(-5,PostDelaySeconds)'],
    ['PostDelaySeconds', -1, 'PropertyValueOutOfRange(-1,PostDelaySeconds)'],
    ['PostDelaySeconds', 61, 'PropertyValueOutOfRange(61,PostDelaySeconds)'],
    ['PostDelaySeconds', 65, 'PropertyValueOutOfRange(65,PostDelaySeconds)'],
    ['PostDelaySeconds', 1, 'PropertyValueIncorrect(PostDelaySeconds,1)'],
    ['PostDelaySeconds', 59, 'PropertyValueIncorrect(PostDelaySeconds,59)'],
    ['PostDelaySeconds', 2.5, 'PropertyValueTypeError(2.5,PostDelaySeconds)'],
    ['PostDelaySeconds', '5', 'PropertyValueTypeError(5,PostDelaySeconds)'],
    ['PostDelaySeconds', NaN, 'PropertyValueTypeError(null,PostDelaySeconds)'],
    ['PostDelaySeconds', Infinity, 'PropertyValueTypeError(null,PostDelaySeconds)'],
    ['PostDelaySeconds', null, 'PropertyValueTypeError(null,PostDelaySeconds)'],
    ['PostDelaySeconds', true, 'PropertyValueTypeError(true,PostDelaySeconds)'],
    // Steps count from the lower bound, not from zero.
    ['ExtendedAmbientTempC', 35, 'ok'],
    ['ExtendedAmbientTempC', 40, 'ok'],
    ['ExtendedAmbientTempC', 45, 'ok'],
    ['ExtendedAmbientTempC', 36, 'PropertyValueIncorrect(ExtendedAmbientTempC,36)'],
    ['ExtendedAmbientTempC', 30, 'PropertyValueOutOfRange(30,ExtendedAmbientTempC)'],
    ['ExtendedAmbientTempC', 50, 'PropertyValueOutOfRange(50,ExtendedAmbientTempC)'],
    ['MemPatrolScrubIntervalHours', 1, 'ok'],
    ['MemPatrolScrubIntervalHours', 0, 'PropertyValueOutOfRange(0,MemPatrolScrubIntervalHours)'],
    ['MemPatrolScrubIntervalHours', 24, 'ok'],
    ['MemPatrolScrubIntervalHours', 25, 'PropertyValueOutOfRange(25,MemPatrolScrubIntervalHours)'],
    ['IoNonPostedPrefetching', 8, 'ok'],
    ['IoNonPostedPrefetching', 7, 'PropertyValueIncorrect(IoNonPostedPrefetching,7)'],
    ['PowerCapWatts', 1600, 'ok'],
    ['PowerCapWatts', 1610, 'PropertyValueOutOfRange(1610,PowerCapWatts)'],
    ['PowerCapWatts', 1595, 'PropertyValueIncorrect(PowerCapWatts,1595)'],
    // String: MinLength..MaxLength (inclusive) and the ValueExpression.
    ['ServerName', '', 'ok'],
    ['ServerName', 'web-01', 'ok'],
    ['ServerName', 'x'.repeat(14), 'ok'], // MaxLength
    ['ServerName', 'x'.repeat(15), `PropertyValueFormatError(${'x'.repeat(15)},ServerName)`],
    ['ServerName', 'caf\u00e9', 'PropertyValueFormatError(caf\u00e9,ServerName)'], // not printable ASCII
    ['ServerName', 'a\tb', 'PropertyValueFormatError(a\tb,ServerName)'],
    ['ServerName', ' ~', 'ok'], // both ends of the printable range
    ['ServerName', 14, 'PropertyValueTypeError(14,ServerName)'],
    ['ServerName', null, 'PropertyValueTypeError(null,ServerName)'],
    ['AdminEmail', 'ops@example.com', 'ok'],
    ['AdminEmail', '', 'ok'],
    ['AdminEmail', 'ops@example', 'PropertyValueFormatError(ops@example,AdminEmail)'],
    ['AdminEmail', 'a@b@c.d', 'PropertyValueFormatError(a@b@c.d,AdminEmail)'],
    ['AdminPhone', '+49 (30) 123-45', 'ok'],
    ['AdminPhone', '12', 'PropertyValueFormatError(12,AdminPhone)'],
    ['AdminPhone', 'call me', 'PropertyValueFormatError(call me,AdminPhone)'],
    ['Ipv4Address', '192.168.0.1', 'ok'],
    ['Ipv4Address', '255.255.255.255', 'ok'],
    ['Ipv4Address', '', 'ok'],
    ['Ipv4Address', '256.1.1.1', 'PropertyValueFormatError(256.1.1.1,Ipv4Address)'],
    ['Ipv4Address', '1.2.3', 'PropertyValueFormatError(1.2.3,Ipv4Address)'],
    ['Ipv4Address', '01.2.3.4', 'PropertyValueFormatError(01.2.3.4,Ipv4Address)'],
    ['UrlBootFile', 'https://boot.example/x.iso', 'ok'],
    ['UrlBootFile', 'ftp://boot.example/x.efi', 'ok'],
    ['UrlBootFile', 'file:///x.iso', 'PropertyValueFormatError(file:///x.iso,UrlBootFile)'],
    ['UrlBootFile', 'https://with space', 'PropertyValueFormatError(https://with space,UrlBootFile)'],
  ];
  for (const [attribute, value, expected] of cases) {
    it(`${attribute} = ${typeof value === 'string' ? JSON.stringify(value) : String(value)} -> ${expected}`, () => {
      assert.equal(verdict(checkValue(def(attribute), value)), expected);
    });
  }

  it('quotes the value as the request validator does and names no property (resolvePending adds it)', () => {
    const info = checkValue(def('PostDelaySeconds'), { n: 1 });
    assert.deepEqual(info?.MessageArgs, ['{"n":1}', 'PostDelaySeconds']);
    assert.equal(info?.RelatedProperties, undefined);
  });
});

describe('pendingTypeFits: the type check of a PATCH to the pending area', () => {
  const cases: [name: string, value: unknown, fits: boolean][] = [
    ['EmbSerialPort', 'Disabled', true],
    ['EmbSerialPort', 'NotAValue', true], // values are POST's business
    ['EmbSerialPort', 1, false],
    ['EmbSerialPort', null, false],
    ['ServerName', 'x'.repeat(500), true], // lengths too
    ['ServerName', false, false],
    ['AdminPassword', 'x', true], // refused at POST, not here
    ['AdminPassword', 1, false],
    ['QuietBoot', false, true],
    ['QuietBoot', 'false', false],
    ['PostDelaySeconds', 5, true],
    ['PostDelaySeconds', -1000, true], // ranges too
    ['PostDelaySeconds', 5.5, false],
    ['PostDelaySeconds', NaN, false],
    ['PostDelaySeconds', '5', false],
    ['TpmState', 'Hidden', true], // read-only is POST's business
    // Names the registry lacks: any scalar, reported at POST as PropertyUnknown.
    ['NoSuchAttribute', 'x', true],
    ['NoSuchAttribute', 1.5, true],
    ['NoSuchAttribute', true, true],
    ['NoSuchAttribute', null, false],
    ['NoSuchAttribute', {}, false],
    ['NoSuchAttribute', [], false],
    ['NoSuchAttribute', undefined, false],
    ['__proto__', 'x', true],
  ];
  for (const [name, value, fits] of cases) {
    it(`${name} = ${JSON.stringify(value) ?? 'undefined'} ${fits ? 'fits' : 'does not fit'}`, () => {
      assert.equal(pendingTypeFits(name, value), fits);
    });
  }
});

describe('dependencyHolds: MapFrom terms', () => {
  const term = (cond: MapCondition, value: AttrValue, terms?: 'AND' | 'OR', attr = 'A'): MapFrom => ({
    MapFromAttribute: attr,
    MapFromCondition: cond,
    MapFromProperty: 'CurrentValue',
    MapFromValue: value,
    ...(terms ? { MapTerms: terms } : {}),
  });
  const dep = (...from: MapFrom[]): DependencyDef => ({
    DependencyFor: 'T',
    Type: 'Map',
    Dependency: { MapFrom: from, MapToAttribute: 'T', MapToProperty: 'ReadOnly', MapToValue: true },
  });

  const single: [cond: MapCondition, wanted: AttrValue, actual: AttrValue | undefined, holds: boolean][] = [
    ['EQU', 'On', 'On', true],
    ['EQU', 'On', 'Off', false],
    ['EQU', 'On', 'on', false],
    ['EQU', 5, 5, true],
    ['EQU', 5, '5', false], // strict
    ['EQU', false, false, true],
    ['EQU', false, null, false],
    ['EQU', null, undefined, false], // a missing attribute equals nothing
    ['NEQ', 'On', 'Off', true],
    ['NEQ', 'On', 'On', false],
    ['NEQ', 'On', undefined, true],
    ['GTR', 10, 11, true],
    ['GTR', 10, 10, false],
    ['GTR', 10, 9, false],
    ['GEQ', 10, 10, true],
    ['GEQ', 10, 9, false],
    ['GEQ', 10, 11, true],
    ['LSS', 10, 9, true],
    ['LSS', 10, 10, false],
    ['LSS', 10, 11, false],
    ['LEQ', 10, 10, true],
    ['LEQ', 10, 11, false],
    ['LEQ', 10, 9, true],
    // Ordering compares numbers; text that is no number never compares.
    ['GTR', 9, '10', true],
    ['GTR', 10, 'abc', false],
    ['LSS', 10, 'abc', false],
    ['GEQ', 0, undefined, false],
  ];
  for (const [cond, wanted, actual, holds] of single) {
    it(`A ${cond} ${JSON.stringify(wanted)} with A = ${JSON.stringify(actual) ?? 'missing'} -> ${holds}`, () => {
      const values: Record<string, AttrValue> = actual === undefined ? {} : { A: actual };
      assert.equal(dependencyHolds(dep(term(cond, wanted)), values), holds);
    });
  }

  // Terms are combined left to right, each later one with its own MapTerms (AND when absent).
  const T = (terms?: 'AND' | 'OR') => term('EQU', 1, terms, 'Yes');
  const F = (terms?: 'AND' | 'OR') => term('EQU', 1, terms, 'No');
  const combined: [label: string, from: MapFrom[], holds: boolean][] = [
    ['no terms', [], false],
    ['T', [T()], true],
    ['F', [F()], false],
    ['T and T', [T(), T('AND')], true],
    ['T and F', [T(), F('AND')], false],
    ['F and T', [F(), T('AND')], false],
    ['T, F without MapTerms (AND)', [T(), F()], false],
    ['F or T', [F(), T('OR')], true],
    ['T or F', [T(), F('OR')], true],
    ['F or F', [F(), F('OR')], false],
    ['the first term MapTerms is ignored: T(OR) and F', [T('OR'), F('AND')], false],
    ['(T or T) and F, left to right', [T(), T('OR'), F('AND')], false],
    ['(F and T) or T, left to right', [F(), T('AND'), T('OR')], true],
    ['(T and F) or F', [T(), F('AND'), F('OR')], false],
  ];
  for (const [label, from, holds] of combined) {
    it(`${label} -> ${holds}`, () => {
      assert.equal(dependencyHolds(dep(...from), { Yes: 1, No: 0 }), holds);
    });
  }
});

describe('readOnlyByDependency: what the registry makes read-only', () => {
  const PROFILE_OWNED = [
    'PowerRegulator',
    'EnergyPerfBias',
    'MinProcIdlePower',
    'MinProcIdlePkgState',
    'CollabPowerControl',
    'UncoreFreqScaling',
  ];
  const STATIC_IPV4 = ['Ipv4Address', 'Ipv4SubnetMask', 'Ipv4Gateway', 'Ipv4PrimaryDNS', 'Ipv4SecondaryDNS'];
  const AT_DEFAULTS = [...PROFILE_OWNED, ...STATIC_IPV4, 'UefiShellStartupUrl', 'PreBootNetworkProxyUrl'];

  const cases: [label: string, change: Record<string, AttrValue>, added: string[], removed: string[]][] = [
    ['the defaults', {}, [], []],
    ['WorkloadProfile Custom frees the power settings', { WorkloadProfile: 'Custom' }, [], PROFILE_OWNED],
    ['another profile keeps them', { WorkloadProfile: 'LowLatency' }, [], []],
    ['ProcVirtualization Disabled', { ProcVirtualization: 'Disabled' }, ['IntelProcVtd', 'Sriov'], []],
    ['BootMode LegacyBios', { BootMode: 'LegacyBios' }, ['HttpSupport'], []],
    ['SerialConsolePort Disabled', { SerialConsolePort: 'Disabled' }, ['SerialConsoleBaudRate', 'SerialConsoleEmulation'], []],
    ['SerialConsolePort Virtual', { SerialConsolePort: 'Virtual' }, [], []],
    ['AsrStatus Disabled', { AsrStatus: 'Disabled' }, ['AsrTimeoutMinutes'], []],
    ['TpmVisibility Hidden', { TpmVisibility: 'Hidden' }, ['TpmOperation'], []],
    ['NetworkBootRetry Disabled', { NetworkBootRetry: 'Disabled' }, ['NetworkBootRetryCount'], []],
    ['MemPatrolScrubbing Disabled', { MemPatrolScrubbing: 'Disabled' }, ['MemPatrolScrubIntervalHours'], []],
    ['Dhcpv4 Disabled frees the static addresses', { Dhcpv4: 'Disabled' }, [], STATIC_IPV4],
    ['PreBootNetworkProxy Enabled', { PreBootNetworkProxy: 'Enabled' }, [], ['PreBootNetworkProxyUrl']],
    // UefiShellStartupUrl: read-only when the script is off OR it is not loaded from the network.
    ['startup script on, location Auto', { UefiShellStartupScript: true }, [], []],
    ['startup script off, location NetworkLocation', { UefiShellScriptLocation: 'NetworkLocation' }, [], []],
    [
      'startup script on, location NetworkLocation',
      { UefiShellStartupScript: true, UefiShellScriptLocation: 'NetworkLocation' },
      [],
      ['UefiShellStartupUrl'],
    ],
  ];
  for (const [label, change, added, removed] of cases) {
    it(label, () => {
      const got = readOnlyByDependency({ ...defaultAttributes(), ...change });
      const expected = new Set([...AT_DEFAULTS.filter((a) => !removed.includes(a)), ...added]);
      assert.deepEqual([...got].sort(), [...expected].sort());
    });
  }

  it('treats attributes missing from the values as equal to nothing', () => {
    // NEQ holds for a missing WorkloadProfile; EQU conditions do not, but the shell URL's OR term (NEQ) does.
    assert.deepEqual([...readOnlyByDependency({})].sort(), [...PROFILE_OWNED, 'UefiShellStartupUrl'].sort());
  });
});

describe('resolvePending: the values a POST ends with', () => {
  interface Case {
    label: string;
    base?: Record<string, AttrValue>;
    pending: Record<string, unknown>;
    applied: string[];
    faults: string[];
    /** Values that differ from the base afterwards. */
    changed: Record<string, AttrValue>;
  }
  const cases: Case[] = [
    { label: 'nothing pending', pending: {}, applied: [], faults: [], changed: {} },
    {
      label: 'valid values of every type',
      pending: { EmbSerialPort: 'Disabled', QuietBoot: false, PostDelaySeconds: 10, ServerName: 'web-01' },
      applied: ['EmbSerialPort', 'QuietBoot', 'PostDelaySeconds', 'ServerName'],
      faults: [],
      changed: { EmbSerialPort: 'Disabled', QuietBoot: false, PostDelaySeconds: 10, ServerName: 'web-01' },
    },
    {
      label: 'each bad value is one fault naming its attribute; the good ones still apply',
      pending: { NoSuch: 1, EmbSerialPort: 'Com9', PostDelaySeconds: 3, TpmState: 'NotPresent', AdminPassword: 'x', ServerName: 'ok' },
      applied: ['ServerName'],
      faults: [
        'PropertyUnknown(NoSuch)@NoSuch',
        'PropertyValueNotInList(Com9,EmbSerialPort)@EmbSerialPort',
        'PropertyValueIncorrect(PostDelaySeconds,3)@PostDelaySeconds',
        'PropertyNotWritable(TpmState)@TpmState',
        'PropertyNotWritable(AdminPassword)@AdminPassword',
      ],
      changed: { ServerName: 'ok' },
    },
    {
      label: 'writing the current value of an attribute made read-only is no change, and no fault',
      pending: { PowerRegulator: 'DynamicPowerSavings' },
      applied: ['PowerRegulator'],
      faults: [],
      changed: {},
    },
    {
      label: 'changing an attribute made read-only is refused',
      pending: { EnergyPerfBias: 'MaxPerf' },
      applied: [],
      faults: ['PropertyNotWritable(EnergyPerfBias)@EnergyPerfBias'],
      changed: {},
    },
    {
      label: 'a change that frees an attribute lets it be written in the same POST',
      pending: { WorkloadProfile: 'Custom', EnergyPerfBias: 'MaxPerf' },
      applied: ['WorkloadProfile', 'EnergyPerfBias'],
      faults: [],
      changed: { WorkloadProfile: 'Custom', EnergyPerfBias: 'MaxPerf' },
    },
    {
      label: 'a change that locks an attribute refuses a change to it in the same POST',
      base: { ...defaultAttributes(), WorkloadProfile: 'Custom' },
      pending: { WorkloadProfile: 'LowLatency', EnergyPerfBias: 'MaxPerf' },
      applied: ['WorkloadProfile'],
      faults: ['PropertyNotWritable(EnergyPerfBias)@EnergyPerfBias'],
      changed: { WorkloadProfile: 'LowLatency', MinProcIdlePower: 'NoCState' },
    },
    {
      label: 'ProcVirtualization Disabled locks VT-d even when it is changed alongside',
      pending: { ProcVirtualization: 'Disabled', IntelProcVtd: 'Disabled', Sriov: 'Enabled' },
      applied: ['ProcVirtualization', 'Sriov'],
      faults: ['PropertyNotWritable(IntelProcVtd)@IntelProcVtd'],
      changed: { ProcVirtualization: 'Disabled' },
    },
    {
      label: 'a profile forces its values (CurrentValue dependencies)',
      pending: { WorkloadProfile: 'GeneralPeakFrequencyCompute' },
      applied: ['WorkloadProfile'],
      faults: [],
      changed: { WorkloadProfile: 'GeneralPeakFrequencyCompute', PowerRegulator: 'StaticHighPerf' },
    },
    {
      label: 'a pending value against a forced one conflicts, naming the attribute that forces it',
      pending: { WorkloadProfile: 'GeneralPeakFrequencyCompute', ProcTurbo: 'Disabled' },
      applied: ['WorkloadProfile'],
      faults: ['PropertyValueConflict(ProcTurbo,WorkloadProfile)@ProcTurbo'],
      changed: { WorkloadProfile: 'GeneralPeakFrequencyCompute', PowerRegulator: 'StaticHighPerf' },
    },
    {
      label: 'a pending value equal to the forced one is applied',
      base: { ...defaultAttributes(), ProcTurbo: 'Disabled' },
      pending: { WorkloadProfile: 'GeneralPeakFrequencyCompute', ProcTurbo: 'Enabled' },
      applied: ['WorkloadProfile', 'ProcTurbo'],
      faults: [],
      changed: { WorkloadProfile: 'GeneralPeakFrequencyCompute', ProcTurbo: 'Enabled', PowerRegulator: 'StaticHighPerf' },
    },
    {
      label: 'the read-only check comes first: a locked attribute set to its forced value is still refused',
      pending: { WorkloadProfile: 'GeneralPeakFrequencyCompute', PowerRegulator: 'StaticHighPerf' },
      applied: ['WorkloadProfile'],
      faults: ['PropertyNotWritable(PowerRegulator)@PowerRegulator'],
      changed: { WorkloadProfile: 'GeneralPeakFrequencyCompute', PowerRegulator: 'StaticHighPerf' },
    },
    {
      label: 'LegacyBios forces UefiOptimizedBoot off without a fault',
      pending: { BootMode: 'LegacyBios' },
      applied: ['BootMode'],
      faults: [],
      changed: { BootMode: 'LegacyBios', UefiOptimizedBoot: 'Disabled' },
    },
    {
      label: 'LegacyBios with UefiOptimizedBoot Enabled conflicts',
      pending: { BootMode: 'LegacyBios', UefiOptimizedBoot: 'Enabled', HttpSupport: 'Disabled' },
      applied: ['BootMode'],
      faults: ['PropertyNotWritable(HttpSupport)@HttpSupport', 'PropertyValueConflict(UefiOptimizedBoot,BootMode)@UefiOptimizedBoot'],
      changed: { BootMode: 'LegacyBios', UefiOptimizedBoot: 'Disabled' },
    },
    {
      label: 'a refused value does not unlock what it would have unlocked (Dhcpv4 not in the list)',
      pending: { Dhcpv4: 'Off', Ipv4Address: '10.0.0.2' },
      applied: [],
      faults: ['PropertyValueNotInList(Off,Dhcpv4)@Dhcpv4', 'PropertyNotWritable(Ipv4Address)@Ipv4Address'],
      changed: {},
    },
    {
      label: 'static addresses with DHCP off',
      pending: { Dhcpv4: 'Disabled', Ipv4Address: '10.0.0.2', Ipv4SubnetMask: '255.255.255.0' },
      applied: ['Dhcpv4', 'Ipv4Address', 'Ipv4SubnetMask'],
      faults: [],
      changed: { Dhcpv4: 'Disabled', Ipv4Address: '10.0.0.2', Ipv4SubnetMask: '255.255.255.0' },
    },
    {
      label: 'the shell URL needs both the script and the network location (OR term)',
      pending: { UefiShellStartupScript: true, UefiShellStartupUrl: 'https://x/startup.nsh' },
      applied: ['UefiShellStartupScript'],
      faults: ['PropertyNotWritable(UefiShellStartupUrl)@UefiShellStartupUrl'],
      changed: { UefiShellStartupScript: true },
    },
    {
      label: 'the shell URL with both',
      pending: { UefiShellStartupScript: true, UefiShellScriptLocation: 'NetworkLocation', UefiShellStartupUrl: 'https://x/startup.nsh' },
      applied: ['UefiShellStartupScript', 'UefiShellScriptLocation', 'UefiShellStartupUrl'],
      faults: [],
      changed: { UefiShellStartupScript: true, UefiShellScriptLocation: 'NetworkLocation', UefiShellStartupUrl: 'https://x/startup.nsh' },
    },
    {
      label: 'a base that breaks a forced value is corrected even with nothing pending',
      base: { ...defaultAttributes(), WorkloadProfile: 'LowLatency', MinProcIdlePower: 'C6' },
      pending: {},
      applied: [],
      faults: [],
      changed: { MinProcIdlePower: 'NoCState' },
    },
  ];

  for (const c of cases) {
    it(c.label, () => {
      const base = c.base ?? defaultAttributes();
      const before = structuredClone(base);
      const out = resolvePending(base, c.pending);
      assert.deepEqual(out.applied, c.applied);
      assert.deepEqual(
        out.faults.map((f) => `${verdict(f)}@${(f.RelatedProperties ?? []).join(',').replace('#/Attributes/', '')}`),
        c.faults,
      );
      const changed = Object.fromEntries(Object.entries(out.values).filter(([k, v]) => before[k] !== v));
      assert.deepEqual(changed, c.changed);
      assert.deepEqual(
        Object.keys(out.values).sort(),
        Object.keys({ ...before, ...Object.fromEntries(c.applied.map((a) => [a, 0])) }).sort(),
      );
      assert.deepEqual(base, before, 'the base is not modified');
    });
  }
});
