// The task and install set input rules (src/domain/update-queue/checks.ts):
// agents, command members, targets, the TPM rule and schedules, each a table
// of input -> the 400 messages it gets (or none), and the property they name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ComponentRecord, ComponentRepository } from '../../../src/domain/firmware/repository.js';
import { Inventory } from '../../../src/domain/firmware/inventory.js';
import {
  checkAgents,
  checkCommand,
  checkOrder,
  checkSchedule,
  checkTargets,
  checkTpm,
  duplicateName,
  normalizeTarget,
  parseTime,
  resolveComponent,
  Violations,
  type CheckDeps,
} from '../../../src/domain/update-queue/checks.js';
import type { Agent, Command } from '../../../src/domain/update-queue/records.js';
import { baseRefusal } from '../../../src/messages/refusal.js';
import { serviceUris } from '../../../src/lib/resource-uris.js';
import { answered } from '../../support/refusals.js';
import { openDatabase } from '../../../src/store/database.js';
import { DocumentStore } from '../../../src/store/documents.js';

const FW = '/redfish/v1/UpdateService/FirmwareInventory/';
const SW = '/redfish/v1/UpdateService/SoftwareInventory/';
const STORED = 'bmc-1.45.fwpkg';

/** Dependencies with the factory inventory, one stored component, and a TPM as given. */
function deps(tpm = { installed: true, inUse: true }): CheckDeps {
  const inventory = new Inventory(new DocumentStore(openDatabase(':memory:', () => 0)), serviceUris);
  const stored = { Filename: STORED, Name: 'BMC firmware 1.45' } as ComponentRecord;
  const repository: Pick<ComponentRepository, 'get' | 'list'> = {
    get: (filename) => (filename === STORED ? stored : undefined),
    list: () => [stored],
  };
  return { inventory, repository: repository as ComponentRepository, tpm: () => tpm };
}

/** Each violation as "Key(args)@property", messages of one violation joined with " + ". */
function listed(v: Violations): string[] {
  return v.list.map((e) =>
    e.infos
      .map(
        (i) =>
          `${i.MessageId.replace(/^(\w+)\.\d+\.\d+\./, (_m, p: string) => (p === 'Base' ? '' : `${p}.`))}(${i.MessageArgs.join(',')})@${(i.RelatedProperties ?? []).join(',')}`,
      )
      .join(' + '),
  );
}

describe('Violations', () => {
  it('throws nothing when empty', () => {
    new Violations().done();
  });

  it('throws all violations at once, with the status of the first, each naming its property', () => {
    const v = new Violations();
    v.add(baseRefusal('PropertyMissing', 'Name'), 'Name');
    v.add(baseRefusal('ResourceAlreadyExists', 'UpdateTask', 'Name', 'x'), 'Sequence/1/Name');
    assert.throws(
      () => v.done(),
      (e: unknown) => {
        const a = answered(e);
        return (
          a.status === 400 &&
          a.infos.length === 2 &&
          a.infos[0]?.RelatedProperties?.[0] === '#/Name' &&
          a.infos[1]?.RelatedProperties?.[0] === '#/Sequence/1/Name'
        );
      },
    );
  });

  it('reports a duplicate name as a 400 with both messages on the property', () => {
    const v = new Violations();
    duplicateName(v, 'InstallSetItem', 'Sequence/3/Name', 'step');
    assert.deepEqual(listed(v), [
      'PropertyValueIncorrect(Sequence/3/Name,step)@#/Sequence/3/Name + ResourceAlreadyExists(InstallSetItem,Name,step)@#/Sequence/3/Name',
    ]);
    assert.equal(answered(v.list[0]).status, 400);
  });
});

describe('checkAgents: UpdatableBy', () => {
  const cases: [agents: Agent[], command: Command, prefix: string, expected: string[]][] = [
    [['Uefi'], 'ApplyUpdate', '', []],
    [['RuntimeAgent'], 'ApplyUpdate', '', []],
    [['Bmc'], 'ApplyUpdate', '', []],
    [['Uefi', 'RuntimeAgent'], 'ApplyUpdate', '', []],
    [['RuntimeAgent', 'Uefi'], 'ApplyUpdate', '', []],
    [[], 'ApplyUpdate', '', ['PropertyValueIncorrect(UpdatableBy,[])@#/UpdatableBy']],
    [['Uefi', 'Uefi'], 'ApplyUpdate', '', ['PropertyValueIncorrect(UpdatableBy,["Uefi","Uefi"])@#/UpdatableBy']],
    [['Bmc', 'Bmc'], 'ApplyUpdate', '', ['PropertyValueIncorrect(UpdatableBy,["Bmc","Bmc"])@#/UpdatableBy']],
    [['Bmc', 'Uefi'], 'ApplyUpdate', '', ['PropertyValueIncorrect(UpdatableBy,["Bmc","Uefi"])@#/UpdatableBy']],
    [['Uefi', 'Bmc'], 'ApplyUpdate', '', ['PropertyValueIncorrect(UpdatableBy,["Uefi","Bmc"])@#/UpdatableBy']],
    [
      ['Uefi', 'RuntimeAgent', 'Bmc'],
      'ApplyUpdate',
      '',
      ['PropertyValueIncorrect(UpdatableBy,["Uefi","RuntimeAgent","Bmc"])@#/UpdatableBy'],
    ],
    // A Wait is done by exactly one agent.
    [['Uefi'], 'Wait', '', []],
    [['Bmc'], 'Wait', '', []],
    [['Uefi', 'RuntimeAgent'], 'Wait', '', ['PropertyValueConflict(UpdatableBy,Command)@#/UpdatableBy']],
    [[], 'Wait', '', ['PropertyValueIncorrect(UpdatableBy,[])@#/UpdatableBy']],
    // Only the first rule broken is reported.
    [['Uefi', 'Uefi'], 'Wait', '', ['PropertyValueIncorrect(UpdatableBy,["Uefi","Uefi"])@#/UpdatableBy']],
    // Install set items are named by their place in the Sequence.
    [
      ['Bmc', 'Uefi'],
      'ApplyUpdate',
      'Sequence/2/',
      ['PropertyValueIncorrect(Sequence/2/UpdatableBy,["Bmc","Uefi"])@#/Sequence/2/UpdatableBy'],
    ],
    [
      ['Uefi', 'RuntimeAgent'],
      'Wait',
      'Sequence/0/',
      ['PropertyValueConflict(Sequence/0/UpdatableBy,Sequence/0/Command)@#/Sequence/0/UpdatableBy'],
    ],
  ];
  for (const [agents, command, prefix, expected] of cases) {
    it(`${prefix}${JSON.stringify(agents)} for ${command} -> ${expected.length ? expected.join('; ') : 'ok'}`, () => {
      const v = new Violations();
      checkAgents(v, agents, command, prefix);
      assert.deepEqual(listed(v), expected);
    });
  }
});

describe('checkCommand: ApplyUpdate needs a stored component, Wait a time and no component', () => {
  type Input = { Command: Command; component: string | null | undefined; WaitTimeSeconds?: number };
  const cases: [input: Input, prop: string, prefix: string, expected: string[]][] = [
    [{ Command: 'ApplyUpdate', component: STORED }, 'Component', '', []],
    [{ Command: 'ApplyUpdate', component: STORED, WaitTimeSeconds: 30 }, 'Component', '', []],
    [{ Command: 'ApplyUpdate', component: undefined }, 'Component', '', ['PropertyMissing(Component)@#/Component']],
    [{ Command: 'ApplyUpdate', component: null }, 'Component', '', ['PropertyMissing(Component)@#/Component']],
    [{ Command: 'ApplyUpdate', component: '' }, 'Component', '', ['PropertyMissing(Component)@#/Component']],
    [
      { Command: 'ApplyUpdate', component: 'other.fwpkg' },
      'Component',
      '',
      ['PropertyValueNotInList(other.fwpkg,Component)@#/Component + Vendor.ComponentNotFound(other.fwpkg)@#/Component'],
    ],
    [
      { Command: 'ApplyUpdate', component: STORED.toUpperCase() },
      'Component',
      '',
      [
        `PropertyValueNotInList(${STORED.toUpperCase()},Component)@#/Component + Vendor.ComponentNotFound(${STORED.toUpperCase()})@#/Component`,
      ],
    ],
    [{ Command: 'Wait', component: undefined, WaitTimeSeconds: 10 }, 'Component', '', []],
    [{ Command: 'Wait', component: null, WaitTimeSeconds: 0 }, 'Component', '', []],
    [{ Command: 'Wait', component: '', WaitTimeSeconds: 1 }, 'Component', '', []],
    [{ Command: 'Wait', component: undefined }, 'Component', '', ['PropertyMissing(WaitTimeSeconds)@#/WaitTimeSeconds']],
    [
      { Command: 'Wait', component: STORED, WaitTimeSeconds: 10 },
      'Component',
      '',
      ['PropertyValueConflict(Component,Command)@#/Component'],
    ],
    [
      { Command: 'Wait', component: 'x' },
      'Component',
      '',
      ['PropertyValueConflict(Component,Command)@#/Component', 'PropertyMissing(WaitTimeSeconds)@#/WaitTimeSeconds'],
    ],
    // Install set items call the component Filename.
    [
      { Command: 'ApplyUpdate', component: undefined },
      'Filename',
      'Sequence/4/',
      ['PropertyMissing(Sequence/4/Filename)@#/Sequence/4/Filename'],
    ],
    [
      { Command: 'Wait', component: 'x' },
      'Filename',
      'Sequence/1/',
      [
        'PropertyValueConflict(Sequence/1/Filename,Sequence/1/Command)@#/Sequence/1/Filename',
        'PropertyMissing(Sequence/1/WaitTimeSeconds)@#/Sequence/1/WaitTimeSeconds',
      ],
    ],
  ];
  for (const [input, prop, prefix, expected] of cases) {
    it(`${prefix}${JSON.stringify(input)} -> ${expected.length ? expected.join('; ') : 'ok'}`, () => {
      const v = new Violations();
      checkCommand(v, deps(), input, prop, prefix);
      assert.deepEqual(listed(v), expected);
    });
  }

  it('a missing component is a 400 even though ComponentNotFound alone would be a 404', () => {
    const v = new Violations();
    checkCommand(v, deps(), { Command: 'ApplyUpdate', component: 'other.fwpkg' }, 'Component');
    assert.equal(answered(v.list[0]).status, 400);
  });
});

describe('checkTargets and normalizeTarget', () => {
  const normalized: [uri: string, expected: string][] = [
    [`${FW}1/`, `${FW}1/`],
    [`${FW}1`, `${FW}1/`],
    [`https://bmc.example${FW}1`, `${FW}1/`],
    [`HTTPS://bmc.example:8443${SW}2/`, `${SW}2/`],
    [`http://[::1]:8443${FW}3`, `${FW}3/`],
    [`ftp://bmc.example${FW}1`, `ftp://bmc.example${FW}1/`],
    [`${FW}1//`, `${FW}1//`],
    ['', '/'],
  ];
  for (const [uri, expected] of normalized) {
    it(`normalizes ${JSON.stringify(uri)} to ${expected}`, () => assert.equal(normalizeTarget(uri), expected));
  }

  const cases: [targets: string[] | undefined, out: string[], expected: string[]][] = [
    [undefined, [], []],
    [[], [], []],
    [[`${FW}1/`], [`${FW}1/`], []],
    [[`${FW}9`, `${SW}3/`], [`${FW}9/`, `${SW}3/`], []],
    [[`https://bmc.example${SW}1`], [`${SW}1/`], []],
    [[`${FW}10/`], [], [`PropertyValueNotInList(${FW}10/,Targets/0)@#/Targets/0`]],
    [[`${SW}4`], [], [`PropertyValueNotInList(${SW}4,Targets/0)@#/Targets/0`]],
    [[`${FW}1/`, `${FW}0/`, `${SW}2`], [`${FW}1/`, `${SW}2/`], [`PropertyValueNotInList(${FW}0/,Targets/1)@#/Targets/1`]],
    // Only the scheme and host are loosened: path case, doubled slashes, queries and relative paths are not.
    [
      ['/redfish/v1/updateservice/firmwareinventory/1/'],
      [],
      ['PropertyValueNotInList(/redfish/v1/updateservice/firmwareinventory/1/,Targets/0)@#/Targets/0'],
    ],
    [[`${FW}1//`], [], [`PropertyValueNotInList(${FW}1//,Targets/0)@#/Targets/0`]],
    [[`${FW}1?x=1`], [], [`PropertyValueNotInList(${FW}1?x=1,Targets/0)@#/Targets/0`]],
    [[FW.slice(1) + '1/'], [], [`PropertyValueNotInList(${FW.slice(1)}1/,Targets/0)@#/Targets/0`]],
    [[`${FW}`], [], [`PropertyValueNotInList(${FW},Targets/0)@#/Targets/0`]],
    // Duplicates are kept (the schema's maxItems bounds them).
    [[`${FW}1`, `${FW}1/`], [`${FW}1/`, `${FW}1/`], []],
  ];
  for (const [targets, out, expected] of cases) {
    it(`${JSON.stringify(targets)} -> ${JSON.stringify(out)} ${expected.length ? expected.join('; ') : 'ok'}`, () => {
      const v = new Violations();
      assert.deepEqual(checkTargets(v, deps(), targets), out);
      assert.deepEqual(listed(v), expected);
    });
  }

  it('names targets inside an install set item by their place', () => {
    const v = new Violations();
    checkTargets(v, deps(), [`${FW}1`, `${FW}42`], 'Sequence/5/');
    assert.deepEqual(listed(v), [`PropertyValueNotInList(${FW}42,Sequence/5/Targets/1)@#/Sequence/5/Targets/1`]);
  });
});

describe('checkTpm: TPMOverride when a TPM is installed and in use', () => {
  type Tpm = { installed: boolean; inUse: boolean };
  const IN_USE: Tpm = { installed: true, inUse: true };
  const cases: [command: Command, tpm: Tpm, override: boolean | undefined, action: string | undefined, expected: string[]][] = [
    ['ApplyUpdate', IN_USE, true, undefined, []],
    ['ApplyUpdate', IN_USE, undefined, undefined, ['PropertyMissing(TPMOverride)@#/TPMOverride']],
    ['ApplyUpdate', IN_USE, false, undefined, ['PropertyValueIncorrect(TPMOverride,false)@#/TPMOverride']],
    ['ApplyUpdate', { installed: true, inUse: false }, undefined, undefined, []],
    ['ApplyUpdate', { installed: true, inUse: false }, false, undefined, []],
    ['ApplyUpdate', { installed: false, inUse: false }, undefined, undefined, []],
    ['ApplyUpdate', { installed: false, inUse: true }, false, undefined, []],
    ['Wait', IN_USE, undefined, undefined, []],
    ['Wait', IN_USE, false, undefined, []],
    // As an action parameter (InstallSet.Invoke).
    ['ApplyUpdate', IN_USE, true, 'InstallSet.Invoke', []],
    ['ApplyUpdate', IN_USE, undefined, 'InstallSet.Invoke', ['ActionParameterMissing(InstallSet.Invoke,TPMOverride)@#/TPMOverride']],
    ['ApplyUpdate', IN_USE, false, 'InstallSet.Invoke', ['ActionParameterValueConflict(TPMOverride,false)@#/TPMOverride']],
    ['ApplyUpdate', { installed: true, inUse: false }, false, 'InstallSet.Invoke', []],
  ];
  for (const [command, tpm, override, action, expected] of cases) {
    it(`${command}, TPM ${JSON.stringify(tpm)}, TPMOverride ${override}${action ? ` in ${action}` : ''} -> ${expected.length ? expected.join('; ') : 'ok'}`, () => {
      const v = new Violations();
      checkTpm(v, deps(tpm), command, override, 'TPMOverride', action);
      assert.deepEqual(listed(v), expected);
    });
  }

  it('names the property it is given', () => {
    const v = new Violations();
    checkTpm(v, deps(), 'ApplyUpdate', undefined, 'Sequence/1/TPMOverride');
    assert.deepEqual(listed(v), ['PropertyMissing(Sequence/1/TPMOverride)@#/Sequence/1/TPMOverride']);
  });
});

describe('checkSchedule and checkOrder: own times or a window, Expire after StartAfter', () => {
  const T0 = '2026-11-22T08:00:00Z';
  const T1 = '2026-11-22T09:00:00Z';
  const ms = (iso: string) => Date.parse(iso);
  const WINDOWS: Record<string, { StartAfter: number | null; Expire: number | null }> = {
    night: { StartAfter: ms('2026-11-23T01:00:00Z'), Expire: ms('2026-11-23T04:00:00Z') },
    open: { StartAfter: null, Expire: null },
  };
  const window = (id: string) => WINDOWS[id];
  type In = { StartAfter?: string | null; Expire?: string | null; MaintenanceWindow?: string | null };
  type Out = { StartAfter: number | null; Expire: number | null; MaintenanceWindow: string | null };
  const cases: [input: In, out: Out, expected: string[]][] = [
    [{}, { StartAfter: null, Expire: null, MaintenanceWindow: null }, []],
    [{ StartAfter: null, Expire: null, MaintenanceWindow: null }, { StartAfter: null, Expire: null, MaintenanceWindow: null }, []],
    [{ StartAfter: T0 }, { StartAfter: ms(T0), Expire: null, MaintenanceWindow: null }, []],
    [{ Expire: T0 }, { StartAfter: null, Expire: ms(T0), MaintenanceWindow: null }, []],
    [{ StartAfter: T0, Expire: T1 }, { StartAfter: ms(T0), Expire: ms(T1), MaintenanceWindow: null }, []],
    [{ StartAfter: T0, Expire: '2026-11-22T08:00:01Z' }, { StartAfter: ms(T0), Expire: ms(T0) + 1000, MaintenanceWindow: null }, []],
    [
      { StartAfter: T0, Expire: T0 },
      { StartAfter: ms(T0), Expire: ms(T0), MaintenanceWindow: null },
      ['PropertyValueConflict(Expire,StartAfter)@#/Expire'],
    ],
    [
      { StartAfter: T1, Expire: T0 },
      { StartAfter: ms(T1), Expire: ms(T0), MaintenanceWindow: null },
      ['PropertyValueConflict(Expire,StartAfter)@#/Expire'],
    ],
    // Offsets are honoured: 09:00+01:00 is 08:00Z.
    [
      { StartAfter: T0, Expire: '2026-11-22T09:00:00+01:00' },
      { StartAfter: ms(T0), Expire: ms(T0), MaintenanceWindow: null },
      ['PropertyValueConflict(Expire,StartAfter)@#/Expire'],
    ],
    // A window gives both times.
    [{ MaintenanceWindow: 'night' }, { ...WINDOWS.night!, MaintenanceWindow: 'night' }, []],
    [{ MaintenanceWindow: 'open' }, { StartAfter: null, Expire: null, MaintenanceWindow: 'open' }, []],
    [{ MaintenanceWindow: 'night', StartAfter: null, Expire: null }, { ...WINDOWS.night!, MaintenanceWindow: 'night' }, []],
    [
      { MaintenanceWindow: 'night', StartAfter: T0 },
      { ...WINDOWS.night!, MaintenanceWindow: 'night' },
      ['PropertyValueConflict(StartAfter,MaintenanceWindow)@#/StartAfter'],
    ],
    [
      { MaintenanceWindow: 'night', Expire: T1 },
      { ...WINDOWS.night!, MaintenanceWindow: 'night' },
      ['PropertyValueConflict(Expire,MaintenanceWindow)@#/Expire'],
    ],
    // Both given: one message, about StartAfter; their order is not checked then.
    [
      { MaintenanceWindow: 'night', StartAfter: T1, Expire: T0 },
      { ...WINDOWS.night!, MaintenanceWindow: 'night' },
      ['PropertyValueConflict(StartAfter,MaintenanceWindow)@#/StartAfter'],
    ],
    [
      { MaintenanceWindow: 'day' },
      { StartAfter: null, Expire: null, MaintenanceWindow: null },
      ['PropertyValueNotInList(day,MaintenanceWindow)@#/MaintenanceWindow'],
    ],
    [
      { MaintenanceWindow: 'day', StartAfter: T0 },
      { StartAfter: ms(T0), Expire: null, MaintenanceWindow: null },
      [
        'PropertyValueConflict(StartAfter,MaintenanceWindow)@#/StartAfter',
        'PropertyValueNotInList(day,MaintenanceWindow)@#/MaintenanceWindow',
      ],
    ],
    // An empty window name is no window.
    [{ MaintenanceWindow: '', StartAfter: T0 }, { StartAfter: ms(T0), Expire: null, MaintenanceWindow: null }, []],
    [
      { MaintenanceWindow: '', StartAfter: T1, Expire: T0 },
      { StartAfter: ms(T1), Expire: ms(T0), MaintenanceWindow: null },
      ['PropertyValueConflict(Expire,StartAfter)@#/Expire'],
    ],
  ];
  for (const [input, out, expected] of cases) {
    it(`${JSON.stringify(input)} -> ${expected.length ? expected.join('; ') : 'ok'}`, () => {
      const v = new Violations();
      assert.deepEqual(checkSchedule(v, input, window), out);
      assert.deepEqual(listed(v), expected);
    });
  }

  const order: [start: number | null, expire: number | null, conflict: boolean][] = [
    [null, null, false],
    [1000, null, false],
    [null, 1000, false],
    [1000, 1001, false],
    [1000, 1000, true],
    [1000, 999, true],
    [0, 0, true],
  ];
  for (const [start, expire, conflict] of order) {
    it(`checkOrder(${start}, ${expire}) -> ${conflict ? 'conflict' : 'ok'}`, () => {
      const v = new Violations();
      checkOrder(v, start, expire);
      assert.deepEqual(listed(v), conflict ? ['PropertyValueConflict(Expire,StartAfter)@#/Expire'] : []);
    });
  }

  const times: [iso: string | null | undefined, expected: number | null][] = [
    [undefined, null],
    [null, null],
    [T0, ms(T0)],
    ['2026-11-22T08:00:00.250Z', ms(T0) + 250],
    ['2026-11-22T09:00:00+01:00', ms(T0)],
  ];
  for (const [iso, expected] of times) {
    it(`parseTime(${JSON.stringify(iso)}) -> ${expected}`, () => assert.equal(parseTime(iso), expected));
  }
});

describe('resolveComponent: a task names its component by Filename, or by a Name no other component has', () => {
  const records = [
    { Filename: 'ie-51.fwpkg', Name: 'IE firmware' },
    { Filename: 'ie-52.fwpkg', Name: 'IE firmware' },
    { Filename: 'nic.fwpkg', Name: 'NIC firmware' },
    { Filename: 'NIC firmware', Name: 'other' },
  ] as ComponentRecord[];
  const repository = { get: (f: string) => records.find((r) => r.Filename === f), list: () => records };
  const cases: [string, boolean, ReturnType<typeof resolveComponent>][] = [
    ['ie-51.fwpkg', true, { filename: 'ie-51.fwpkg' }],
    ['nic.fwpkg', false, { filename: 'nic.fwpkg' }],
    ['IE firmware', true, { ambiguous: ['ie-51.fwpkg', 'ie-52.fwpkg'] }],
    ['IE firmware', false, { missing: true }],
    ['other', true, { filename: 'NIC firmware' }],
    ['NIC firmware', true, { filename: 'NIC firmware' }],
    ['nothing', true, { missing: true }],
  ];
  for (const [ref, byName, expected] of cases) {
    it(`${ref} (${byName ? 'Filename or Name' : 'Filename only'}) -> ${JSON.stringify(expected)}`, () =>
      assert.deepEqual(resolveComponent(repository, ref, byName), expected));
  }

  it('an ambiguous Name is a 400 listing the Filenames', () => {
    const v = new Violations();
    const d = { ...deps(), repository: repository as unknown as ComponentRepository };
    assert.equal(checkCommand(v, d, { Command: 'ApplyUpdate', component: 'IE firmware' }, 'Component'), undefined);
    assert.deepEqual(listed(v), [
      'PropertyValueNotInList(IE firmware,Component)@#/Component + Vendor.ComponentNameAmbiguous(IE firmware,ie-51.fwpkg, ie-52.fwpkg)@#/Component',
    ]);
    assert.equal(checkCommand(new Violations(), d, { Command: 'ApplyUpdate', component: 'other' }, 'Component'), 'NIC firmware');
  });
});
