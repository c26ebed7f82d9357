// The orchestrator files (issue #18 item 5) agree with the command line: the Kubernetes
// manifests under deploy/kubernetes/, the Dockerfile and the example fleet manifest.
// Nothing here needs docker or kubectl: the shell command a pod runs is run with sh and a
// stub `node` that prints its arguments, which then go through the real parseConfig; the
// probes run with the real node against local HTTPS servers.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { type Config, parseConfig } from '../../src/config.js';
import { CONTROLLER_FLASHABLE, UEFI_FLASHABLE } from '../../src/domain/firmware/package.js';
import { LICENSE_TIERS } from '../../src/domain/licensing/tiers.js';
import { ensureTlsMaterial } from '../../src/http/tls.js';
import { SHIPPED_PROFILES_DIR, loadHardwareProfile, shippedProfileNames } from '../../src/platform/hardware/profile.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const K8S_DIR = join(ROOT, 'deploy', 'kubernetes');
const SAMPLE_PASSWORD = 'Sample-Fleet-Pass-1';
const SAMPLE_ORDINAL = 3;
/** What a fleet manifest's group may hold, and the device classes its firmware map may name. */
const GROUP_FIELDS = ['count', 'hardware', 'firmware', 'power', 'license'];
const DEVICE_CLASSES = new Set<string>([...CONTROLLER_FLASHABLE, ...UEFI_FLASHABLE]);

type Obj = Record<string, any>;
const tmp = mkdtempSync(join(tmpdir(), 'bmc-deploy-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// ---------- Kubernetes manifests ----------

/** Every document of every YAML file under deploy/kubernetes, read as kubectl reads them (YAML 1.1: 0440 is octal). */
function k8sDocuments(): { file: string; doc: Obj }[] {
  const out: { file: string; doc: Obj }[] = [];
  for (const file of readdirSync(K8S_DIR).filter((f) => /\.ya?ml$/.test(f))) {
    for (const d of parseAllDocuments(readFileSync(join(K8S_DIR, file), 'utf8'), { version: '1.1' })) {
      assert.deepEqual(d.errors, [], `${file}: YAML errors`);
      const doc = d.toJS() as Obj | null;
      if (doc) out.push({ file, doc });
    }
  }
  return out;
}

const docs = k8sDocuments();
const one = (kind: string): Obj => {
  const found = docs.filter((d) => d.doc.kind === kind);
  assert.equal(found.length, 1, `one ${kind} under deploy/kubernetes`);
  return found[0]!.doc;
};
const sts = one('StatefulSet');
const svc = one('Service');
const pod = sts.spec.template.spec as Obj;
const container = pod.containers[0] as Obj;
const fleetSize = Number((container.env as Obj[]).find((e) => e.name === 'FLEET_SIZE')?.value);
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Obj;
const nodeFlags = String(packageJson.config.node_flags).split(/\s+/);
const fleetNodeFlags = String(packageJson.config.fleet_node_flags).split(/\s+/);
const fleetGlibcTunables = String(packageJson.config.fleet_glibc_tunables);

/** The container's environment in pod `podName`, as the kubelet builds it. */
function containerEnv(podName: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of container.env as Obj[]) {
    if (e.value !== undefined) env[e.name] = String(e.value).replace(/\$\((\w+)\)/g, (m, v: string) => env[v] ?? m);
    else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.name') env[e.name] = podName;
    else if (e.valueFrom?.fieldRef?.fieldPath === "metadata.labels['apps.kubernetes.io/pod-index']")
      env[e.name] = podName.replace(/.*-/, '');
    else assert.fail(`env ${e.name}: a source this test does not emulate`);
  }
  return env;
}

/** The sh -c script of a command ([sh, -c, script]). */
function shScript(command: unknown): string {
  assert.ok(Array.isArray(command) && command.length === 3 && command[0] === 'sh' && command[1] === '-c', 'command is [sh, -c, script]');
  return String(command[2]);
}

/** Files the pod's volumes put at their mount paths, laid out under a temporary directory; maps container paths to it. */
function mountedFiles(): (path: string) => string {
  const root = mkdtempSync(join(tmp, 'mounts-'));
  const mounts: [string, string][] = [];
  const claims = new Set((sts.spec.volumeClaimTemplates as Obj[]).map((c) => c.metadata.name as string));
  for (const m of container.volumeMounts as Obj[]) {
    const local = join(root, m.name);
    mkdirSync(local, { recursive: true });
    mounts.push([m.mountPath, local]);
    if (claims.has(m.name)) continue;
    const volume = (pod.volumes as Obj[]).find((v) => v.name === m.name);
    assert.ok(volume, `volume ${m.name} is declared`);
    if (volume.secret) {
      // The one Secret docs/fleets.md has people create: the administrator's password under `password`.
      assert.equal(volume.secret.secretName, 'bmc-fleet-admin');
      for (const item of volume.secret.items as Obj[]) {
        assert.equal(item.key, 'password', 'the Secret holds key "password"');
        writeFileSync(join(local, item.path), SAMPLE_PASSWORD);
      }
      // Files of a Secret belong to root and group fsGroup: the non-root user reads them through the group.
      assert.ok(volume.secret.defaultMode & 0o040, 'the secret files are group-readable');
    } else if (volume.configMap) {
      const cm = docs.find((d) => d.doc.kind === 'ConfigMap' && d.doc.metadata.name === volume.configMap.name);
      assert.ok(cm, `ConfigMap ${volume.configMap.name} is under deploy/kubernetes`);
      for (const item of volume.configMap.items as Obj[]) {
        assert.equal(typeof cm.doc.data[item.key], 'string', `ConfigMap ${volume.configMap.name} has key ${item.key}`);
        writeFileSync(join(local, item.path), cm.doc.data[item.key]);
      }
    } else {
      assert.ok(volume.emptyDir, `volume ${m.name}: secret, configMap, emptyDir or a claim`);
    }
  }
  return (path) => {
    for (const [mountPath, local] of mounts) {
      if (path === mountPath) return local;
      if (path.startsWith(`${mountPath}/`)) return join(local, path.slice(mountPath.length + 1));
    }
    return path;
  };
}

const stub = join(tmp, 'stub-bin');
mkdirSync(stub);
writeFileSync(join(stub, 'node'), '#!/bin/sh\nprintf "%s\\0" "$@"\n', { mode: 0o755 });

/** Runs the container's command in pod `podName` with a `node` that prints its arguments. */
function runCommand(podName: string): { status: number | null; argv: string[]; stderr: string } {
  const r = spawnSync('sh', ['-c', shScript(container.command)], {
    env: { ...containerEnv(podName), PATH: `${stub}:/usr/bin:/bin` },
    encoding: 'utf8',
  });
  return { status: r.status, argv: r.stdout ? r.stdout.split('\0').slice(0, -1) : [], stderr: r.stderr };
}

/** The configuration the service in pod `podName` starts with. */
function shardConfig(podName: string): { config: Config; toLocal: (path: string) => string; script: string } {
  const r = runCommand(podName);
  assert.equal(r.status, 0, r.stderr);
  const script = r.argv.find((a) => a.endsWith('.js'));
  assert.ok(script, 'node runs a script');
  const scriptAt = r.argv.indexOf(script);
  assert.deepEqual(r.argv.slice(0, scriptAt), fleetNodeFlags, 'node flags as package.json config.fleet_node_flags (npm run fleet)');
  assert.equal(containerEnv(podName).GLIBC_TUNABLES, fleetGlibcTunables, 'glibc tunables as package.json config.fleet_glibc_tunables');
  const toLocal = mountedFiles();
  const flags = r.argv.slice(scriptAt + 1).map(toLocal);
  // The image's environment is there too; flags win over it.
  return { config: parseConfig(flags, { ...dockerfile().env, ...containerEnv(podName) }), toLocal, script };
}

/** Bytes of a Kubernetes quantity (Mi, Gi, M, G or none). */
function bytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(q));
  assert.ok(m, `quantity ${q}`);
  const unit = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('are listed by kustomization.yaml, every one of them, and parse', () => {
    const kustomization = one('Kustomization');
    const files = readdirSync(K8S_DIR).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml');
    assert.deepEqual([...(kustomization.resources as string[])].sort(), files.sort());
    assert.deepEqual(docs.map((d) => d.doc.kind).sort(), ['ConfigMap', 'Kustomization', 'Service', 'StatefulSet']);
    for (const { file, doc } of docs.filter((d) => d.doc.kind !== 'Kustomization')) {
      assert.ok(doc.apiVersion && doc.metadata?.name, `${file}: apiVersion and metadata.name`);
      assert.equal(doc.metadata.namespace, undefined, `${file}: no namespace (kubectl's or kustomize's decides)`);
    }
  });

  it('name the pods through a headless Service whose selector is the StatefulSet pods', () => {
    assert.equal(svc.spec.clusterIP, 'None');
    assert.equal(sts.spec.serviceName, svc.metadata.name);
    const labels = sts.spec.template.metadata.labels as Obj;
    for (const [k, v] of Object.entries(sts.spec.selector.matchLabels as Obj)) assert.equal(labels[k], v, `template label ${k}`);
    assert.deepEqual(svc.spec.selector, sts.spec.selector.matchLabels);
    // Its port is the base port: the command's --port.
    const { config } = shardConfig('bmc-fleet-0');
    assert.deepEqual(
      (svc.spec.ports as Obj[]).map((p) => [p.port, p.targetPort]),
      [[config.port, config.port]],
    );
    assert.equal(pod.enableServiceLinks, false, 'no <SERVICE>_* variables next to the BMC_* ones');
    // The certificates name the host: its name is the pod's DNS name, which fits the kernel's 64 characters.
    assert.equal(pod.setHostnameAsFQDN, true);
    const fqdn = `${sts.metadata.name}-${sts.spec.replicas - 1}.${svc.metadata.name}.default.svc.cluster.local`;
    assert.ok(fqdn.length <= 64, fqdn);
  });

  it('give every shard a volume claim mounted where the data dir is, below the volume root', () => {
    const claims = sts.spec.volumeClaimTemplates as Obj[];
    assert.equal(claims.length, 1);
    assert.ok(bytes(claims[0]!.spec.resources.requests.storage) >= 2 ** 30);
    const mount = (container.volumeMounts as Obj[]).find((m) => m.name === claims[0]!.metadata.name);
    assert.ok(mount, 'the claim is mounted');
    const { config, toLocal } = shardConfig(`bmc-fleet-${SAMPLE_ORDINAL}`);
    // The service chmods its data dir to 0700, which only the owner may do, and the volume root is root's.
    assert.ok(config.dataDir.startsWith(`${toLocal(mount.mountPath)}/`), `data dir ${config.dataDir} below ${mount.mountPath}`);
  });

  it('start shard k with --fleet FLEET_SIZE and --fleet-index-offset k x FLEET_SIZE, every flag known to parseConfig', () => {
    assert.ok(Number.isInteger(fleetSize) && fleetSize > 0, 'FLEET_SIZE is set');
    for (const ordinal of [0, SAMPLE_ORDINAL, sts.spec.replicas - 1, 41]) {
      const { config, script } = shardConfig(`bmc-fleet-${ordinal}`);
      assert.equal(config.fleet, fleetSize);
      assert.equal(config.fleetIndexOffset, ordinal * fleetSize);
      assert.equal(config.host, '0.0.0.0');
      assert.equal(config.port, 8443);
      assert.equal(config.adminPassword, SAMPLE_PASSWORD, 'the password file is the mounted Secret');
      assert.equal(script, dockerfile().script, "the image's script");
    }
    // The shards' ports and indexes do not overlap: shard k ends where k + 1 begins.
    const a = shardConfig('bmc-fleet-4').config;
    const b = shardConfig('bmc-fleet-5').config;
    assert.equal(a.fleetIndexOffset + a.fleet!, b.fleetIndexOffset);
  });

  it('refuse a pod name that ends in no ordinal, without starting the service', () => {
    for (const name of ['bmc-fleet', 'bmc-fleet-x', 'bmc-fleet-']) {
      const r = runCommand(name);
      assert.notEqual(r.status, 0, name);
      assert.deepEqual(r.argv, [], `${name}: node not run`);
      assert.match(r.stderr, /ordinal/);
    }
  });

  it('pass a fleet manifest whose counts cover replicas x FLEET_SIZE controllers', () => {
    const { config } = shardConfig('bmc-fleet-0');
    assert.ok(config.fleetManifest, '--fleet-manifest is given');
    const groups = checkManifest(readFileSync(config.fleetManifest, 'utf8'), 'the ConfigMap');
    assert.equal(
      groups.reduce((n, g) => n + (g.count as number), 0),
      sts.spec.replicas * fleetSize,
    );
  });

  it('run as a non-root user with the volume writable to its group, and ask for what 1,000 controllers need', () => {
    assert.equal(pod.securityContext.runAsNonRoot, true);
    assert.equal(String(pod.securityContext.runAsUser), dockerfile().user.split(':')[0], "the image's user");
    assert.ok(pod.securityContext.fsGroup > 0);
    assert.equal(container.securityContext.allowPrivilegeEscalation, false);
    // bench:fleet: 90 MiB + 0.65 MiB per controller idle and under load, measured with a young
    // generation of 16 MiB (two semi-spaces); the limit leaves room for uploads and bursts up to
    // the 1.5 GB per 1,000 of issue #18.
    const { requests, limits } = container.resources as Obj;
    const semiSpace = Number(fleetNodeFlags.map((f) => /^--max-semi-space-size=(\d+)$/.exec(f)?.[1]).find(Boolean));
    const measured = (90 + 2 * (semiSpace - 16) + 0.65 * fleetSize) * 2 ** 20;
    assert.ok(bytes(requests.memory) >= measured, `memory request ${requests.memory} for ${fleetSize} controllers`);
    assert.ok(bytes(limits.memory) >= Math.max(bytes(requests.memory), (1.5e9 * fleetSize) / 1000));
    assert.ok(Number(requests.cpu) >= 1);
  });

  describe('probes', () => {
    const probes = ['startupProbe', 'readinessProbe', 'livenessProbe'].map((p) => container[p] as Obj);
    const servers: Server[] = [];
    let tls: { cert: string; key: string };
    let free = true;

    before(async () => {
      tls = await ensureTlsMaterial(mkdtempSync(join(tmp, 'tls-')), { now: () => Date.now() });
    });
    after(() => servers.forEach((s) => s.close()));

    const serve = (port: number, status: number) =>
      new Promise<void>((resolve) => {
        const s = createServer(tls, (req, res) => res.writeHead(req.url === '/redfish/v1/' ? status : 404).end('{}'));
        servers.push(s);
        s.once('error', () => {
          free = false;
          resolve();
        });
        s.listen(port, '127.0.0.1', resolve);
      });
    const closeAll = () => Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
    const probe = () =>
      new Promise<number>((resolve) => {
        const env = { ...containerEnv(`bmc-fleet-${SAMPLE_ORDINAL}`), PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
        execFile('sh', ['-c', shScript(probes[0]!.exec.command)], { env, timeout: 20_000 }, (err) =>
          resolve(err ? ((err.code as number | undefined) ?? -1) : 0),
        );
      });

    it('are the same exec probe, with a time limit above its own', () => {
      for (const p of probes) assert.deepEqual(p.exec.command, probes[0]!.exec.command);
      const inner = Number(/timeout: (\d+)/.exec(shScript(probes[0]!.exec.command))?.[1]);
      for (const p of probes) assert.ok(p.timeoutSeconds * 1000 > inner, 'the kubelet waits longer than the probe does');
    });

    it("pass only when the shard's first and last controllers both answer the service root", async (t) => {
      // The ports the command gives the shard's first and last controllers.
      const { config } = shardConfig(`bmc-fleet-${SAMPLE_ORDINAL}`);
      const first = config.port + config.fleetIndexOffset;
      const last = first + config.fleet! - 1;
      assert.notEqual(await probe(), 0, 'nothing listening');
      await serve(first, 200);
      if (!free) return t.skip(`port ${first} is taken on this machine`);
      assert.notEqual(await probe(), 0, 'the last controller not listening');
      await serve(last, 503);
      if (!free) return t.skip(`port ${last} is taken on this machine`);
      assert.notEqual(await probe(), 0, 'the last controller answers 503');
      await closeAll();
      await serve(first, 200);
      await serve(last, 200);
      if (!free) return t.skip('the ports were taken meanwhile');
      assert.equal(await probe(), 0, 'both answer 200');
      // Probing the neighbours' ports instead would fail: one off either way.
      await closeAll();
      await serve(first + 1, 200);
      await serve(last + 1, 200);
      if (free) assert.notEqual(await probe(), 0, 'ports shifted by one');
    });
  });
});

// ---------- Dockerfile ----------

interface Stage {
  name?: string;
  image: string;
  /** Absolute paths the stage holds (a directory holds what is below it). */
  paths: Set<string>;
  workdir: string;
  env: Record<string, string>;
  instructions: { op: string; args: string }[];
}

/** The Dockerfile's instructions, continuation lines joined and comments dropped. */
function instructions(text: string): { op: string; args: string }[] {
  const out: { op: string; args: string }[] = [];
  let buf = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*#/.test(line) || (line.trim() === '' && buf !== '')) continue;
    if (line.endsWith('\\')) {
      buf += `${line.slice(0, -1)} `;
      continue;
    }
    buf += line;
    const m = /^\s*([A-Za-z]+)\s+(.*)$/s.exec(buf);
    if (m) out.push({ op: m[1]!.toUpperCase(), args: m[2]!.trim() });
    else assert.equal(buf.trim(), '', `Dockerfile line "${buf}"`);
    buf = '';
  }
  return out;
}

/** Names .dockerignore lets into the build context: it must be `*` then `!name` lines. */
function contextAllows(): (path: string) => boolean {
  const lines = readFileSync(join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  assert.equal(lines[0], '*', '.dockerignore leaves everything out first');
  const allowed = new Set(
    lines.slice(1).map((l) => {
      assert.match(l, /^![\w.-]+$/, '.dockerignore then lets names back in');
      return l.slice(1);
    }),
  );
  return (path) => allowed.has(path.split('/')[0]!);
}

/** Whether the stage holds the path (or a directory above it). */
function has(stage: Stage, path: string): boolean {
  return [...stage.paths].some((p) => path === p || path.startsWith(`${p}/`));
}

function dockerfile(): { stages: Stage[]; env: Record<string, string>; argv: string[]; script: string; user: string } {
  const stages: Stage[] = [];
  const allows = contextAllows();
  const buildConfig = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8')) as Obj;
  let entrypoint: string[] | undefined;
  let cmd: string[] = [];
  let user = '';
  for (const ins of instructions(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'))) {
    if (ins.op === 'FROM') {
      const [image, as, name] = ins.args.split(/\s+/);
      if (as) assert.equal(as.toUpperCase(), 'AS');
      stages.push({ image: image!, name, paths: new Set(), workdir: '/', env: {}, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    assert.ok(stage, `${ins.op} before FROM`);
    stage.instructions.push(ins);
    const at = (p: string) => posix.resolve(stage.workdir, p);
    if (ins.op === 'WORKDIR') stage.workdir = at(ins.args);
    else if (ins.op === 'ENV') {
      for (const m of ins.args.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[m[1]!] = m[2]!.replace(/^"|"$/g, '');
    } else if (ins.op === 'COPY') {
      const words = ins.args.split(/\s+/);
      const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
      const [dest, ...sources] = words.filter((w) => !w.startsWith('--')).reverse();
      sources.reverse();
      const into = dest!.endsWith('/') || sources.length > 1;
      for (const src of sources) {
        if (from !== undefined) {
          const source = stages.find((s) => s.name === from);
          assert.ok(source, `COPY --from=${from}: a stage of that name`);
          assert.ok(has(source, src), `COPY --from=${from} ${src}: stage ${from} has it`);
        } else {
          assert.ok(existsSync(join(ROOT, src)), `COPY ${src}: in the repository`);
          assert.ok(allows(src), `COPY ${src}: .dockerignore lets it in`);
        }
        stage.paths.add(into ? at(posix.join(dest!, posix.basename(src))) : at(dest!));
      }
    } else if (ins.op === 'RUN') {
      if (/\bnpm ci\b/.test(ins.args)) {
        for (const f of ['package.json', 'package-lock.json']) assert.ok(has(stage, at(f)), `npm ci: ${f} is copied before`);
        stage.paths.add(at('node_modules'));
      }
      if (/\bnpm run build\b/.test(ins.args)) {
        assert.match(String(packageJson.scripts.build), /tsconfig\.build\.json/);
        // What tsc -b tsconfig.build.json reads: the config, what it extends, its sources and referenced projects.
        const inputs = [
          'tsconfig.build.json',
          buildConfig.extends,
          ...buildConfig.include,
          ...buildConfig.references.map((r: Obj) => r.path),
        ];
        for (const f of inputs) assert.ok(has(stage, at(f)), `npm run build: ${f} is copied before`);
        stage.paths.add(at(buildConfig.compilerOptions.outDir));
      }
    } else if (ins.op === 'ENTRYPOINT') entrypoint = JSON.parse(ins.args) as string[];
    else if (ins.op === 'CMD') cmd = JSON.parse(ins.args) as string[];
    else if (ins.op === 'USER') user = ins.args;
  }
  assert.ok(entrypoint, 'ENTRYPOINT in exec (JSON) form');
  const script = entrypoint.find((a) => a.endsWith('.js'))!;
  const scriptAt = entrypoint.indexOf(script);
  return { stages, env: stages.at(-1)!.env, argv: [...entrypoint.slice(scriptAt + 1), ...cmd], script, user };
}

describe('Dockerfile', () => {
  /** The arguments of the runtime stage's instructions `op`. */
  const args = (d: ReturnType<typeof dockerfile>, op: string) =>
    d.stages
      .at(-1)!
      .instructions.filter((i) => i.op === op)
      .map((i) => i.args);

  it('builds on the official Node 20 image, runtime and build stages alike', () => {
    const d = dockerfile();
    assert.ok(d.stages.length >= 2, 'a build stage and a runtime stage');
    for (const s of d.stages) assert.match(s.image, /^node:20(-|$)/);
  });

  it('copies only what the repository holds or the build stage makes, and the runtime stage has what the service reads', () => {
    // dockerfile() checks every COPY and build step as it reads them.
    const d = dockerfile();
    const runtime = d.stages.at(-1)!;
    // What the service reads, relative to its root:
    const needs = ['package.json', 'node_modules', 'dist', 'console', relative(ROOT, SHIPPED_PROFILES_DIR)];
    for (const p of needs) assert.ok(has(runtime, posix.join(runtime.workdir, p)), `runtime stage has ${p}`);
    assert.ok(has(runtime, posix.join(runtime.workdir, d.script)), `runtime stage has ${d.script}`);
    // dist/cli.js is what tsc makes of src/cli.ts.
    assert.equal(d.script, 'dist/cli.js');
    assert.ok(existsSync(join(ROOT, 'src', 'cli.ts')));
    assert.ok(
      !args(d, 'RUN').some((r) => /npm (ci|install)\b/.test(r) && !/--omit=dev/.test(r)),
      'no dev dependencies installed at run time',
    );
  });

  it("shows a fleet started with package.json's fleet node flags, given to node (NODE_OPTIONS does not take them all)", () => {
    const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const examples = [...text.matchAll(/^#\s+docker run .*--entrypoint node .*bmc-redfish (.*) dist\/cli\.js --fleet \d+$/gm)];
    assert.ok(examples.length > 0, 'an example of a fleet');
    for (const [example, flags] of examples) {
      assert.deepEqual(flags!.split(/\s+/), fleetNodeFlags);
      assert.ok(example.includes(` -e GLIBC_TUNABLES=${fleetGlibcTunables} `), `${example}: the fleet's glibc tunables`);
    }
    const refused = spawnSync(process.execPath, ['-e', ''], {
      env: { ...process.env, NODE_OPTIONS: fleetNodeFlags.join(' ') },
      encoding: 'utf8',
    });
    assert.notEqual(refused.status, 0, 'node refuses them in NODE_OPTIONS: the example gives them to node itself');
  });

  it('runs node as package.json says, as a non-root user, with /data as a volume and 0.0.0.0 as the address', () => {
    const d = dockerfile();
    const entrypoint = JSON.parse(args(d, 'ENTRYPOINT')[0]!) as string[];
    assert.deepEqual(entrypoint, ['node', 'dist/cli.js']);
    // In NODE_OPTIONS, so flags given to node itself (`--entrypoint node`) override them.
    assert.deepEqual(d.env.NODE_OPTIONS?.split(/\s+/), nodeFlags);
    assert.ok(d.user, 'USER is set');
    assert.ok(!['root', '0'].includes(d.user.split(':')[0]!), `USER ${d.user} is not root`);
    const volumes = args(d, 'VOLUME').flatMap((v) => (v.startsWith('[') ? (JSON.parse(v) as string[]) : v.split(/\s+/)));
    assert.deepEqual(volumes, ['/data']);
    const config = parseConfig(d.argv, d.env);
    assert.equal(config.dataDir, '/data');
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(args(d, 'EXPOSE'), [String(config.port)]);
    // Flags given to `docker run` add to the image's settings rather than replace them.
    const fleet = parseConfig([...d.argv, '--fleet', '10'], d.env);
    assert.equal(fleet.dataDir, '/data');
    assert.equal(fleet.fleet, 10);
  });
});

// ---------- fleet manifests ----------

/**
 * A fleet manifest's groups, each field of the documented type (YAML 1.1 and 1.2 read it alike),
 * hardware only shipped profiles. (The service's own manifest reader, once fleet mode lands,
 * can take over the field checks.)
 */
function checkManifest(text: string, where: string): Obj[] {
  const manifest = parse(text) as unknown;
  assert.deepEqual(parse(text, { version: '1.1' }), manifest, `${where}: the same in YAML 1.1 (quote On/Off)`);
  assert.ok(manifest && typeof manifest === 'object' && !Array.isArray(manifest), `${where}: an object`);
  assert.deepEqual(Object.keys(manifest), ['groups'], `${where}: one key, groups`);
  const groups = (manifest as Obj).groups as unknown;
  assert.ok(Array.isArray(groups) && groups.length > 0, `${where}: a list of groups`);
  const shipped = shippedProfileNames();
  for (const [i, g] of (groups as Obj[]).entries()) {
    const at = `${where} group ${i}`;
    for (const k of Object.keys(g)) assert.ok(GROUP_FIELDS.includes(k), `${at}: field ${k}`);
    assert.ok(Number.isInteger(g.count) && g.count > 0, `${at}: count a positive whole number`);
    if (g.hardware !== undefined) assert.ok(shipped.includes(g.hardware), `${at}: hardware ${g.hardware} is in profiles/`);
    if (g.firmware !== undefined) {
      assert.equal(typeof g.firmware, 'object', `${at}: firmware a map`);
      for (const [cls, version] of Object.entries(g.firmware as Obj)) {
        assert.ok(DEVICE_CLASSES.has(cls), `${at}: firmware device class ${cls}`);
        assert.equal(typeof version, 'string', `${at}: firmware ${cls} version a string`);
      }
    }
    if (g.power !== undefined) assert.ok(['On', 'Off'].includes(g.power), `${at}: power ${g.power}`);
    if (g.license !== undefined) assert.ok((LICENSE_TIERS as readonly string[]).includes(g.license), `${at}: license ${g.license}`);
  }
  return groups as Obj[];
}

describe('examples/fleet.yaml', () => {
  const read = () => checkManifest(readFileSync(join(ROOT, 'examples', 'fleet.yaml'), 'utf8'), 'examples/fleet.yaml');

  it('is a list of groups with the documented fields and types, naming shipped hardware profiles', () => {
    assert.equal(read().length, 2);
  });

  it('models 40 old 1U servers with outdated BMC firmware and 10 new 2U ones', () => {
    const groups = read();
    assert.deepEqual(
      groups.map((g) => [g.count, loadHardwareProfile(g.hardware).chassis.heightU]),
      [
        [40, 1],
        [10, 2],
      ],
    );
    const [old, fresh] = groups.map((g) => Number(g.firmware.BMC));
    assert.ok(old! < fresh!, 'the 1U servers run an older BMC firmware');
  });
});
