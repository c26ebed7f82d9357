// Secrets at rest (store/secrets.ts) and the modes of the data dir (store/data-dir.ts).
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { saveTlsMaterial } from '../../src/http/tls.js';
import { openDatabase } from '../../src/store/database.js';
import { prepareDataDir, tightenDataDir } from '../../src/store/data-dir.js';
import { DocumentStore } from '../../src/store/documents.js';
import { SECRETS_KEY_FILE, Secrets, SecretsError } from '../../src/store/secrets.js';

const root = mkdtempSync(join(tmpdir(), 'bmc-secrets-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const newDir = () => {
  const d = join(root, String(++n));
  mkdirSync(d);
  return d;
};
const mode = (p: string) => statSync(p).mode & 0o777;
const now = () => Date.parse('2026-01-01T00:00:00Z');

describe('Secrets', () => {
  it('makes a 32-byte key file (0600) on first use and reads the same key afterwards', () => {
    const dir = newDir();
    const a = Secrets.loadOrCreate(dir);
    const file = join(dir, SECRETS_KEY_FILE);
    assert.equal(mode(file), 0o600);
    assert.equal(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').length, 32);
    assert.ok(!existsSync(`${file}.tmp`));
    const sealed = a.seal('hello, listener');
    assert.equal(Secrets.loadOrCreate(dir).open(sealed), 'hello, listener');
  });

  it('seals with AES-256-GCM: a prefix, a fresh IV each time, no plain text; tampering and a foreign key are refused', () => {
    const s = Secrets.ephemeral();
    const a = s.seal('Bearer s3cret');
    const b = s.seal('Bearer s3cret');
    assert.match(a, /^enc:v1:[A-Za-z0-9+/]+=*$/);
    assert.notEqual(a, b);
    assert.ok(!Buffer.from(a.slice(7), 'base64').includes('s3cret'));
    assert.equal(s.open(a), 'Bearer s3cret');
    assert.equal(s.open(s.seal('')), '');
    assert.deepEqual(s.openJson(s.sealJson([{ Authorization: 'x' }])), [{ Authorization: 'x' }]);
    const raw = Buffer.from(a.slice(7), 'base64');
    raw[raw.length - 1]! ^= 1;
    assert.throws(() => s.open(`enc:v1:${raw.toString('base64')}`), SecretsError);
    assert.throws(() => Secrets.ephemeral().open(a), SecretsError);
    assert.throws(() => s.open('enc:v1:AAAA'), SecretsError);
  });

  it('reads a value without the prefix as plain text (written by an older version)', () => {
    assert.equal(Secrets.ephemeral().open('Bearer older'), 'Bearer older');
    assert.equal(Secrets.isSealed('Bearer older'), false);
  });

  it('refuses a key file that holds no 32-byte key', () => {
    const dir = newDir();
    writeFileSync(join(dir, SECRETS_KEY_FILE), 'c2hvcnQ=\n');
    assert.throws(() => Secrets.loadOrCreate(dir), /32-byte/);
  });

  it('is part of the document store: its own for an in-memory database, none given for a file', () => {
    assert.ok(new DocumentStore(openDatabase(':memory:', now)).secrets instanceof Secrets);
    const store = new DocumentStore(openDatabase(join(newDir(), 'x.sqlite'), now));
    assert.throws(() => store.secrets, /without a secrets key/);
  });
});

describe('data dir modes', () => {
  it('creates the data dir 0700 and narrows an existing one', () => {
    const fresh = join(root, 'fresh', 'data');
    prepareDataDir(fresh);
    assert.equal(mode(fresh), 0o700);
    const old = newDir();
    chmodSync(old, 0o755);
    prepareDataDir(old);
    assert.equal(mode(old), 0o700);
  });

  it('narrows what the service owns (directories all the way down) and leaves anything else alone', () => {
    const dir = newDir();
    const write = (name: string, m: number) => {
      writeFileSync(join(dir, name), 'x');
      chmodSync(join(dir, name), m);
    };
    write('owned.pem', 0o644);
    write('readonly.key', 0o400);
    write('users-notes.txt', 0o644);
    mkdirSync(join(dir, 'repository', '.incoming'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'repository', 'component'), 'x', { mode: 0o644 });
    tightenDataDir(dir, ['owned.pem', 'readonly.key', 'missing.pem', join(dir, 'repository')]);
    assert.equal(mode(join(dir, 'owned.pem')), 0o600);
    assert.equal(mode(join(dir, 'readonly.key')), 0o400);
    assert.equal(mode(join(dir, 'users-notes.txt')), 0o644);
    assert.equal(mode(join(dir, 'repository')), 0o700);
    assert.equal(mode(join(dir, 'repository', '.incoming')), 0o700);
    assert.equal(mode(join(dir, 'repository', 'component')), 0o600);
  });

  it('makes the database and its -wal and -shm 0600, and narrows those of an older version', () => {
    const dir = newDir();
    const path = join(dir, 'bmc.sqlite');
    const db = openDatabase(path, now);
    db.exec("INSERT INTO setting (key, value) VALUES ('k', '1')");
    for (const f of [path, `${path}-wal`, `${path}-shm`]) assert.equal(mode(f), 0o600, f);
    db.close();
    chmodSync(path, 0o644);
    openDatabase(path, now).close();
    assert.equal(mode(path), 0o600);
  });

  it("makes a fleet controller's database, a copy of the template, 0600 with its -wal and -shm", () => {
    const dir = newDir();
    const template = join(dir, 'template.sqlite');
    openDatabase(template, now).close();
    const path = join(dir, 'controllers', '0', 'bmc.sqlite');
    const db = openDatabase(path, now, [], 'crash', template);
    db.exec("INSERT INTO setting (key, value) VALUES ('k', '1')");
    for (const f of [template, path, `${path}-wal`, `${path}-shm`]) assert.equal(mode(f), 0o600, f);
    db.close();
  });

  it('writes a replaced HTTPS identity 0600, certificate included', () => {
    const dir = newDir();
    saveTlsMaterial(dir, 'CERT', 'KEY');
    assert.equal(mode(join(dir, 'https-cert.pem')), 0o600);
    assert.equal(mode(join(dir, 'https-key.pem')), 0o600);
  });
});
