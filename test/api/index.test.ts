// Registering the API's routes only adds routes: every part an area is handed is built and
// wired by the composition root (src/app.ts), so an area that subscribes to a hook, writes a
// setting or fills a shared map while it registers breaks this. And every area has the same
// shape (docs/ARCHITECTURE.md, "Adding a resource"), and is registered in src/api/index.ts.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { registerAllRoutes } from '../../src/api/index.js';
import type { Services } from '../../src/api/services.js';
import { RouteTable } from '../../src/protocol/routes.js';
import { startTestService, type TestService } from '../support/service.js';

/** Calls that change a part or subscribe to it: none of them may happen while routes are registered. */
const CHANGES =
  /^(on|add|register|set|start|stop|install|arm|publish|write|save|create|delete|remove|update|declare|seal|kick|clear|reset|append)(?![a-z])/;

/**
 * The services, every part behind a proxy that records what is done to it: each method called
 * (by name, with the part it was reached through) and each property written. What a call returns
 * is watched too (a setting handle's set() is a write).
 */
function watched(services: Services): { services: Services; calls: string[]; writes: string[] } {
  const calls: string[] = [];
  const writes: string[] = [];
  const proxies = new WeakMap<object, unknown>();
  const unwrap = new WeakMap<object, object>();
  const watch = (value: unknown, path: string): unknown => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return value;
    const known = proxies.get(value);
    if (known) return known;
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver === proxy ? target : receiver);
        return typeof key === 'symbol' ? v : watch(v, `${path}.${key}`);
      },
      set(target, key, v) {
        writes.push(`${path}.${String(key)}`);
        return Reflect.set(target, key, v);
      },
      defineProperty(target, key, d) {
        writes.push(`${path}.${String(key)}`);
        return Reflect.defineProperty(target, key, d);
      },
      apply(target, self, args) {
        calls.push(path);
        const real = (typeof self === 'object' || typeof self === 'function') && self !== null ? (unwrap.get(self) ?? self) : self;
        return watch(Reflect.apply(target as (...a: unknown[]) => unknown, real, args), `${path}()`);
      },
    });
    proxies.set(value, proxy);
    unwrap.set(proxy, value);
    return proxy;
  };
  const parts = Object.fromEntries(Object.entries(services).map(([k, v]) => [k, watch(v, k)])) as unknown as Services;
  return { services: parts, calls, writes };
}

for (const dialect of ['spec', 'dmtf'] as const) {
  describe(`registering the routes (${dialect} dialect)`, () => {
    let svc: TestService;
    before(async () => {
      svc = await startTestService({ config: { dialect, enableControl: true } });
    });
    after(() => svc.close());

    it('adds the routes and changes nothing else', () => {
      const real = svc.running.services;
      const generation = real.store.generation;
      const routes = new RouteTable(dialect);
      const w = watched(real);
      registerAllRoutes({ ...w.services, routes });
      assert.deepEqual(
        w.calls.filter((c) => CHANGES.test(c.split('.').at(-1) ?? '')),
        [],
        'what the areas did to the parts while registering',
      );
      assert.deepEqual(w.writes, [], 'properties the areas wrote while registering');
      assert.equal(real.store.generation, generation, 'the store was written while registering');
      // The same routes as the service's own table: the registration is complete.
      assert.deepEqual(
        routes.routes().map((r) => r.path),
        real.routes.routes().map((r) => r.path),
      );
    });
  });
}

const API = join(import.meta.dirname, '../../src/api');

/** The files of src/api/ that register routes, with their text. */
function areaFiles(): { file: string; text: string }[] {
  return readdirSync(API, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => ({ file: relative(API, join(API, f)), text: readFileSync(join(API, f), 'utf8') }))
    .filter((a) => /^export function register\w+Routes\(/m.test(a.text));
}

describe('API areas', () => {
  const areas = areaFiles();

  it('each declare what they use, build their handlers from it, and register one table', () => {
    assert.ok(areas.length > 30, 'the areas are found');
    const misshapen = areas.flatMap(({ file, text }) => {
      const all = [...text.matchAll(/^export function register\w+Routes\(/gm)];
      const registers = [...text.matchAll(/^export function (register\w+Routes)\(routes: RouteTable, d: (\w+Deps)\): void \{$/gm)];
      if (all.length !== 1 || registers.length !== 1) return [`${file}: not one registerXRoutes(routes: RouteTable, d: XDeps)`];
      const deps = registers[0]![2]!;
      const problems: string[] = [];
      if (!new RegExp(`^(export )?type ${deps} = Pick<\\s*Services,`, 'm').test(text))
        problems.push(`${file}: ${deps} is not a Pick of Services`);
      if (!new RegExp(`^function handlers\\(d: ${deps}\\b`, 'm').test(text)) problems.push(`${file}: no handlers(d: ${deps})`);
      return problems;
    });
    assert.deepEqual(misshapen, []);
  });

  it('are all registered in src/api/index.ts', () => {
    const index = readFileSync(join(API, 'index.ts'), 'utf8');
    const registered = new Set([...index.matchAll(/^ {2}(register\w+Routes)\(r, s\);$/gm)].map((m) => m[1]));
    const missing = areas.flatMap(({ file, text }) => {
      const name = /^export function (register\w+Routes)\(/m.exec(text)?.[1];
      return name && registered.has(name) ? [] : [`${file}: ${name}`];
    });
    assert.deepEqual(missing, []);
  });
});
