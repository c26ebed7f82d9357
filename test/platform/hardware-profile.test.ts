// The hardware profile loader: shipped profiles load, bad fields are named,
// and identities derived from the seed are stable and distinct.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse as parseYaml, stringify } from 'yaml';
import { HealthRegistry, componentKey, declareEmptySlots } from '../../src/platform/hardware/health.js';
import { componentUuid, portMac, resolveHardware } from '../../src/platform/hardware/identity.js';
import {
  HardwareProfileError,
  loadHardwareProfile,
  parseHardwareProfile,
  shippedProfileNames,
  type HardwareProfile,
} from '../../src/platform/hardware/profile.js';
import { FANS, TEMPERATURE_SENSORS } from '../../src/platform/thermal.js';

const doc = readFileSync(new URL('../../docs/hardware-profiles.md', import.meta.url), 'utf8');
const DOC_EXAMPLE = /```yaml\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';

/** The documented example as an object, changed by `edit`, back to YAML and parsed. */
function parseEdited(edit: (p: any) => void, file = 'vs360.yaml'): HardwareProfile {
  const raw = parseYamlObject(DOC_EXAMPLE);
  edit(raw);
  return parseHardwareProfile(file.endsWith('.json') ? JSON.stringify(raw) : stringify(raw), file);
}

function parseYamlObject(text: string): any {
  return parseYaml(text);
}

function rejects(edit: (p: any) => void, message: RegExp, file?: string): void {
  assert.throws(
    () => parseEdited(edit, file),
    (e: unknown) => e instanceof HardwareProfileError && message.test(e.message),
  );
}

describe('hardware profile', () => {
  it('loads every shipped profile by name, with the model each promises', () => {
    const models = Object.fromEntries(shippedProfileNames().map((n) => [n, loadHardwareProfile(n).system.model]));
    assert.deepEqual(models, { default: 'VS380 Gen10', 'vs360-gen10': 'VS360 Gen10', 'vs380-gen10-nvme': 'VS380 Gen10 Plus' });
    const nvme = loadHardwareProfile('vs380-gen10-nvme');
    assert.ok(nvme.storage.flatMap((c) => c.drives).filter((d) => d.protocol === 'NVMe').length >= 8);
    assert.equal(nvme.chassis.heightU, 2);
    const oneU = loadHardwareProfile('vs360-gen10');
    assert.equal(oneU.chassis.heightU, 1);
    assert.equal(oneU.processors.filter((p) => p.present).length, 1);
    assert.ok(oneU.storage[0]!.drives.every((d) => d.protocol === 'SATA'));
  });

  it('the default profile is the server the service showed before profiles: 2 x 24 cores, 384 GiB, its thermal sensors', () => {
    const p = loadHardwareProfile('default');
    assert.equal(p.system.model, 'VS380 Gen10');
    assert.equal(p.system.sku, 'P19720-B21');
    const cpus = p.processors.filter((c) => c.present);
    assert.equal(cpus.length, 2);
    assert.deepEqual(
      cpus.map((c) => [c.model, c.cores, c.threads]),
      [
        ['Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz', 24, 48],
        ['Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz', 24, 48],
      ],
    );
    assert.equal(p.memory.filter((d) => d.present).reduce((a, d) => a + d.sizeMiB, 0) / 1024, 384);
    assert.deepEqual(p.temperatures, TEMPERATURE_SENSORS);
    assert.deepEqual(p.fans, FANS);
  });

  it('reads a file by path, YAML or JSON, and names it by its base name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hw-'));
    writeFileSync(join(dir, 'mine.yaml'), DOC_EXAMPLE);
    writeFileSync(join(dir, 'mine.json'), JSON.stringify(parseYamlObject(DOC_EXAMPLE)));
    assert.equal(loadHardwareProfile(join(dir, 'mine.yaml')).name, 'mine');
    assert.deepEqual(loadHardwareProfile(join(dir, 'mine.json')).processors, loadHardwareProfile(join(dir, 'mine.yaml')).processors);
    assert.throws(() => loadHardwareProfile(join(dir, 'absent.yaml')), /hardware profile .*absent\.yaml: cannot read .*ENOENT/);
    assert.throws(() => loadHardwareProfile('no-such-profile'), /no shipped profile of that name \(shipped: default, vs360-gen10/);
  });

  it('the example in docs/hardware-profiles.md is a valid profile', () => {
    const p = parseHardwareProfile(DOC_EXAMPLE, 'example.yaml');
    assert.equal(p.processors[0]!.cores, 12);
    assert.equal(p.fans[0]!.id, 'Fan1');
    assert.equal(p.temperatures[0]!.number, 1);
    assert.equal(p.chassis.chassisType, 'RackMount');
  });

  it('names the bad field of each kind', () => {
    const cases: [string, (p: any) => void, RegExp][] = [
      ['cores', (p) => (p.processors[0].cores = 'x'), /vs360\.yaml: processors\[0\]\.cores: expected a positive integer, got "x"/],
      ['threads < cores', (p) => (p.processors[0].threads = 4), /processors\[0\]\.threads: expected at least cores \(12\), got 4/],
      ['architecture', (p) => (p.processors[0].architecture = 'SPARC'), /processors\[0\]\.architecture: expected one of x86, IA-64/],
      ['unknown field', (p) => (p.processors[0].colour = 'red'), /processors\[0\]\.colour: unknown field/],
      ['dimm type', (p) => (p.memory[0].type = 'DDR9'), /memory\[0\]\.type: expected one of DDR3, DDR4, DDR5, got "DDR9"/],
      ['dimm size', (p) => delete p.memory[0].sizeMiB, /memory\[0\]\.sizeMiB: expected a positive integer, got nothing/],
      ['duplicate dimm', (p) => (p.memory[1].location = p.memory[0].location), /memory\[1\]\.location: expected a location no other/],
      ['drive media', (p) => (p.storage[0].drives[0].media = 'Tape'), /storage\[0\]\.drives\[0\]\.media: expected one of HDD, SSD/],
      [
        'drive protocol',
        (p) => (p.storage[0].drives[1].protocol = 'SCSI'),
        /storage\[0\]\.drives\[1\]\.protocol: expected one of SAS, SATA, NVMe/,
      ],
      ['ssd rpm', (p) => (p.storage[0].drives[0].rpm = 7200), /storage\[0\]\.drives\[0\]\.rpm: expected no rpm for an SSD/],
      ['raid type', (p) => (p.storage[0].raidTypes = ['RAID7']), /storage\[0\]\.raidTypes\[0\]: expected one of RAID0/],
      [
        'volume bay',
        (p) => (p.storage[0].volumes[0].drives = ['9:9:9']),
        /storage\[0\]\.volumes\[0\]\.drives\[0\]: expected the bay of a drive/,
      ],
      [
        'volume raid',
        (p) => (p.storage[0].volumes[0].raidType = 'RAID6'),
        /storage\[0\]\.volumes\[0\]\.raidType: expected a RAID type of this controller/,
      ],
      ['controller id', (p) => (p.storage[0].id = 'a/b'), /storage\[0\]\.id: expected letters, digits/],
      ['nic ports', (p) => (p.nics[0].ports = []), /nics\[0\]\.ports: expected at least one port/],
      ['mac', (p) => (p.nics[0].ports[0].mac = 'zz:00'), /nics\[0\]\.ports\[0\]\.mac: expected a MAC address/],
      [
        'port address',
        (p) => (p.nics[0].ports[0].ipv4 = { address: '10.0.0.300', subnetMask: '255.255.255.0' }),
        /nics\[0\]\.ports\[0\]\.ipv4\.address: expected a dotted IPv4 address/,
      ],
      [
        'port mask',
        (p) => (p.nics[0].ports[0].ipv4 = { address: '10.0.0.3', subnetMask: '255.0.255.0' }),
        /nics\[0\]\.ports\[0\]\.ipv4\.subnetMask: expected a contiguous network mask/,
      ],
      ['host domain', (p) => (p.hostNetwork = { domainName: 'bad_domain' }), /hostNetwork\.domainName: expected a DNS domain name/],
      ['host dns', (p) => (p.hostNetwork = { nameServers: ['dns.example'] }), /hostNetwork\.nameServers\[0\]: expected an IP address/],
      ['slot', (p) => (p.nics[0].slot = 'Left'), /nics\[0\]\.slot: expected a slot number or "Embedded", got "Left"/],
      [
        'psu efficiency',
        (p) => (p.powerSupplies[0].efficiencyPercent = 140),
        /powerSupplies\[0\]\.efficiencyPercent: expected a number from 1 to 100/,
      ],
      ['no psu', (p) => (p.powerSupplies = []), /powerSupplies: expected at least one power supply/],
      ['power model', (p) => (p.power.maxWatts = 10), /power\.maxWatts: expected at least idleWatts \(92\), got 10/],
      ['fan', (p) => (p.fans[0].lowerCritical = 99999), /fans\[0\]\.lowerCritical: expected a number from 0 to 23000/],
      ['temperature context', (p) => (p.temperatures[0].context = 'Moon'), /temperatures\[0\]\.context: expected one of Intake/],
      ['threshold order', (p) => (p.temperatures[0].upperFatal = 10), /temperatures\[0\]\.upperFatal: expected at least upperCritical/],
      ['pcie class', (p) => (p.pcieDevices[0].deviceClass = 'Toaster'), /pcieDevices\[0\]\.deviceClass: expected one of/],
      [
        'pcie id',
        (p) => (p.pcieDevices[0].functions[0].vendorId = '8086'),
        /pcieDevices\[0\]\.functions\[0\]\.vendorId: expected a 0x-prefixed/,
      ],
      ['pcie link', (p) => (p.pcieDevices[0].storage = 'Nope'), /pcieDevices\[0\]\.storage: expected the id of a controller/],
      ['system', (p) => delete p.system.model, /system\.model: expected a non-empty string, got nothing/],
      ['chassis type', (p) => (p.chassis.chassisType = 'Tower'), /chassis\.chassisType: expected one of RackMount, Blade/],
      ['no cpu', (p) => (p.processors = [{ socket: 'Proc 1', present: false }]), /processors: expected at least one present processor/],
    ];
    for (const [name, edit, message] of cases) {
      assert.throws(
        () => parseEdited(edit),
        (e: unknown) => e instanceof HardwareProfileError && message.test(e.message),
        name,
      );
    }
    rejects((p) => (p.processors[0].cores = 0), /vs360\.json: processors\[0\]\.cores: expected a positive integer, got 0/, 'vs360.json');
  });

  it('says what is wrong with text that is not YAML or JSON', () => {
    assert.throws(() => parseHardwareProfile('{', 'x.json'), /hardware profile x\.json: not valid JSON/);
    assert.throws(() => parseHardwareProfile('a: [', 'x.yaml'), /hardware profile x\.yaml: not valid YAML/);
    assert.throws(() => parseHardwareProfile('- 1', 'x.yaml'), /hardware profile x\.yaml: top level: expected an object, got \[1\]/);
    // The first section's bad field is the one named.
    assert.throws(
      () => parseHardwareProfile('system: {}\n', 'x.yaml'),
      /x\.yaml: system\.manufacturer: expected a non-empty string, got nothing/,
    );
  });
});

describe('hardware identity', () => {
  const profile = loadHardwareProfile('default');

  it('derives the same MACs and serials from the same seed, other ones from another', () => {
    const a = resolveHardware(profile, 'seed-a');
    const again = resolveHardware(profile, 'seed-a');
    const b = resolveHardware(profile, 'seed-b');
    const macs = (h: typeof a) => h.nics.flatMap((n) => n.ports.map((p) => p.mac));
    const serials = (h: typeof a) => [
      ...h.memory.filter((d) => d.present).map((d) => d.serialNumber),
      ...h.storage.flatMap((c) => [c.serialNumber, ...c.drives.map((d) => d.serialNumber)]),
      ...h.nics.map((n) => n.serialNumber),
      ...h.powerSupplies.map((p) => p.serialNumber),
    ];
    assert.deepEqual(macs(a), macs(again));
    assert.deepEqual(serials(a), serials(again));
    assert.equal(macs(a).length, 6);
    assert.equal(new Set(macs(a)).size, 6, 'MACs unique in a server');
    assert.equal(new Set(serials(a)).size, serials(a).length, 'serials unique in a server');
    assert.ok(macs(a).every((m, i) => m !== macs(b)[i]));
    assert.ok(serials(a).every((s, i) => s !== serials(b)[i]));
    assert.equal(
      a.memory.filter((d) => !d.present).every((d) => d.serialNumber === ''),
      true,
    );
  });

  it('derives locally administered unicast MACs, and keeps one the profile fixes', () => {
    for (let i = 0; i < 50; i++) {
      const first = parseInt(portMac(`s${i}`, i).slice(0, 2), 16);
      assert.equal(first & 0b11, 0b10, 'locally administered, unicast');
    }
    const fixed = parseEdited((p) => (p.nics[0].ports[1].mac = '02:AA:BB:CC:DD:EE'));
    const h = resolveHardware(fixed, 'seed');
    assert.equal(h.nics[0]!.ports[1]!.mac, '02:aa:bb:cc:dd:ee');
    assert.notEqual(h.nics[0]!.ports[0]!.mac, '02:aa:bb:cc:dd:ee');
  });

  it('makes version-5-layout UUIDs per component key', () => {
    const u = componentUuid('seed', 'drive:A:1');
    assert.match(u, /^[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    assert.equal(u, componentUuid('seed', 'drive:A:1'));
    assert.notEqual(u, componentUuid('seed', 'drive:A:2'));
  });
});

describe('health registry', () => {
  it('answers Enabled/OK by default, Absent for empty slots, and faults until cleared, telling listeners', () => {
    const h = new HealthRegistry();
    declareEmptySlots(h, resolveHardware(loadHardwareProfile('vs360-gen10'), 'seed'));
    assert.deepEqual(h.status(componentKey.cpu(0)), { State: 'Enabled', Health: 'OK' });
    assert.deepEqual(h.status(componentKey.cpu(1)), { State: 'Absent' });
    assert.deepEqual(h.status(componentKey.dimm('PROC 1 DIMM 2')), { State: 'Absent' });
    const heard: string[] = [];
    h.onChange((key, s) => heard.push(`${key}=${s.Health}`));
    const before = h.generation;
    h.set(componentKey.dimm('PROC 1 DIMM 1'), { Health: 'Critical' });
    assert.deepEqual(h.status('dimm:PROC 1 DIMM 1'), { State: 'Enabled', Health: 'Critical' });
    assert.equal(h.rollupPrefix('dimm:'), 'Critical');
    assert.equal(h.rollupPrefix('cpu:'), 'OK');
    assert.ok(h.generation > before);
    h.clear('dimm:PROC 1 DIMM 1');
    assert.equal(h.rollupPrefix('dimm:'), 'OK');
    assert.deepEqual(heard, ['dimm:PROC 1 DIMM 1=Critical', 'dimm:PROC 1 DIMM 1=OK']);
  });

  it('rolls up the worst health, Absent components not counting', () => {
    const h = new HealthRegistry();
    h.declare('psu:2', { State: 'Absent' });
    h.set('psu:1', { Health: 'Warning' });
    assert.equal(h.rollup(['psu:1', 'psu:2', 'psu:3']), 'Warning');
    h.set('psu:3', { State: 'UnavailableOffline', Health: 'Critical' });
    assert.equal(h.rollup(['psu:1', 'psu:2', 'psu:3']), 'Critical');
    assert.equal(h.rollup([]), 'OK');
  });
});
