// Generators of hostile input: values of every wrong type, keys that reach
// Object.prototype, deep nesting, huge and odd unicode strings, broken JSON
// text, junk multipart forms, bad query options and odd paths.
import fc from 'fast-check';

export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupSetter__',
];

/** Strings that trip text handling: lone surrogates, bidi overrides, NUL and controls, combining marks, very long runs. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\ud800',
    'a\udfffb',
    '\u202eexe.txt',
    '\u2066x\u2069',
    '\u0000',
    'a\u0000b',
    '\u001b[31m',
    '\uffff',
    '\ufeff',
    'e\u0301\u0301\u0301',
    '../../etc/passwd',
    '%00',
    '%2F..%2F',
    '${jndi:x}',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    'null',
    'true',
    '-1',
    '1e309',
    'NaN',
    '',
  ),
  fc.string({ minLength: 0, maxLength: 8 }).map((s) => s.repeat(1 + (s.length ? Math.floor(5000 / s.length) : 0))),
  fc.integer({ min: 1, max: 300_000 }).map((n) => 'x'.repeat(n)),
);

const oddNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 32, 2 ** 53 + 2, -(2 ** 63), 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Arrays or objects nested depth levels (depth may exceed the service's limit). */
const deep: fc.Arbitrary<unknown> = fc.tuple(fc.integer({ min: 2, max: 64 }), fc.boolean()).map(([depth, arrays]) => {
  let v: unknown = arrays ? [] : {};
  for (let i = 1; i < depth; i++) v = arrays ? [v] : { a: v };
  return v;
});

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: oddString },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [{}], { '@odata.id': '/redfish/v1/' }, { '@odata.id': 5 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) },
);

/** A body shaped for one write: mostly the names its description knows (some nested by path), with hostile values. */
export function hostileBody(names: readonly string[]): fc.Arbitrary<unknown> {
  const key = names.length
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...names) },
        { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      )
    : fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 }));
  const object = fc.array(fc.tuple(key, hostileValue), { maxLength: 6 }).map((entries) => {
    const out: Record<string, unknown> = Object.create(null);
    for (const [k, v] of entries) setPath(out, k.split('/'), v);
    return out;
  });
  return fc.oneof({ weight: 8, arbitrary: object }, { weight: 1, arbitrary: hostileValue });
}

/** Objects setPath made; anything else came from a generator and may be shared (constantFrom), so it is never written to. */
const made = new WeakSet<object>();

function setPath(obj: Record<string, unknown>, path: string[], v: unknown): void {
  made.add(obj);
  let cur = obj;
  for (const seg of path.slice(0, -1)) {
    const next = Object.hasOwn(cur, seg) ? cur[seg] : undefined;
    if (typeof next !== 'object' || next === null || !made.has(next)) {
      const fresh: Record<string, unknown> = Object.create(null);
      made.add(fresh);
      Object.defineProperty(cur, seg, { value: fresh, enumerable: true, writable: true, configurable: true });
      cur = fresh;
    } else cur = next as Record<string, unknown>;
  }
  Object.defineProperty(cur, path[path.length - 1] as string, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Request body text that is not (or not quite) JSON. */
export const brokenJsonText: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).chain((v) => {
    const text = JSON.stringify(v) ?? 'null';
    return fc.integer({ min: 0, max: text.length }).map((n) => text.slice(0, n));
  }),
  fc.integer({ min: 30, max: 200_000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 30, max: 50_000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.constantFrom(
    '\ufeff{}',
    '{"a":1}{"b":2}',
    '{"a":1,}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":1e999}',
    '{"\\ud800":1}',
    '{"a":"\\u00"}',
    '[',
    ']',
    'null',
    '""',
  ),
  fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)),
);

export const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/json; boundary=x',
  '',
  'application/jsonx',
);

const QUERY_KEYS = [
  '$select',
  '$expand',
  '$top',
  '$skip',
  '$filter',
  'only',
  'excerpt',
  '$levels',
  '$count',
  '$orderby',
  '$search',
  '$format',
  '$rpvunknown',
  'x',
  '',
  '$',
];
const queryValue = fc.oneof(
  fc.constantFrom(
    '.',
    '*',
    '~',
    '.($levels=2)',
    '.($levels=99)',
    '($levels=1)',
    '-1',
    '0',
    '999999999999999999999',
    'Name',
    'Members/Name',
    'Attributes/ProcTurbo',
    '@Redfish.Settings/Messages',
    'Id eq 1',
    "Severity eq 'OK' and (",
    '((((((((((',
    '%',
    '%zz',
    '%00',
    ',',
  ),
  fc.string({ maxLength: 30 }),
);

/** A query string of hostile options. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.option(queryValue, { nil: undefined }), fc.boolean()), { minLength: 1, maxLength: 4 })
  .map((pairs) =>
    pairs
      .map(([k, v, encode]) => {
        const value = v === undefined ? '' : `=${encode ? encodeURIComponent(v) : v.replace(/[#\s]/g, '')}`;
        return `${k}${value}`;
      })
      .join('&'),
  );

const segment = fc.oneof(
  fc.constantFrom(
    'redfish',
    'v1',
    'Systems',
    '1',
    'Bios',
    'Settings',
    'Actions',
    'Oem',
    'Vendor',
    'Members',
    '..',
    '.',
    '%2e%2e',
    '%2F',
    '%00',
    '%ZZ',
    '%',
    '%c0%af',
    '%ed%a0%80',
    'a%20b',
    '~',
    '$metadata',
    'odata',
    'rest',
    'UpdateService',
    'upload',
  ),
  fc.string({ maxLength: 10 }).map((s) => encodeURIComponent(s)),
  fc.integer({ min: 200, max: 9000 }).map((n) => 'a'.repeat(n)),
);

/** An odd path: a real URI with a twist, or segments put together. */
export function oddPath(real: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(...real), fc.array(segment, { maxLength: 3 })).map(([base, extra]) => base + extra.join('/')),
    fc.array(segment, { minLength: 1, maxLength: 8 }).map((segs) => `/${segs.join('/')}`),
    fc
      .tuple(fc.constantFrom(...real), fc.constantFrom('//', '/./', '/../', '%2f', ';x=1', '\\'))
      .map(([base, twist]) => base.replace(/\/$/, twist)),
  );
}

/** A multipart/form-data body that is broken in some way (or merely odd), with the boundary it claims. */
export const junkMultipart: fc.Arbitrary<{ boundary: string; body: Buffer }> = fc
  .record({
    boundary: fc.constantFrom('b', 'xyz', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a'.repeat(70)),
    parts: fc.array(
      fc.record({
        name: fc.constantFrom('file', 'compsig', 'parameters', 'sessionKey', '__proto__', '', 'x"y'),
        filename: fc.option(
          fc.oneof(
            fc.constantFrom('a.fwpkg', '', '..', '...', '\u202efile.bin', 'a\u0000b', 'x'.repeat(300), '__proto__', 'constructor', 'ü.bin'),
            fc.string({ maxLength: 20 }),
          ),
          { nil: undefined },
        ),
        contentType: fc.constantFrom('application/octet-stream', 'application/json', 'text/plain', ''),
        data: fc.oneof(
          fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
          fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
        ),
        truncate: fc.boolean(),
      }),
      { minLength: 0, maxLength: 3 },
    ),
    closing: fc.constantFrom('--\r\n', '--', '', '\r\n', '-'),
  })
  .map(({ boundary, parts, closing }) => {
    const chunks: Buffer[] = [];
    for (const p of parts) {
      const disp = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
      const head = `--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.contentType ? `Content-Type: ${p.contentType}\r\n` : ''}\r\n`;
      chunks.push(Buffer.from(head, 'utf8'), p.data);
      if (p.truncate) return { boundary, body: Buffer.concat(chunks) };
      chunks.push(Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}${closing}`));
    return { boundary, body: Buffer.concat(chunks) };
  });
