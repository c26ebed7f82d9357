// Backup and restore of the controller's settings (the vendor's
// BackupRestoreService). A backup holds the controller's own settings:
// network, time, alerting, SNMP, single sign-on, key manager, federation
// groups, the password and directory policies, and the local accounts; not the
// logs, license, firmware, certificates or anything of the host. It is sealed
// with this controller's secrets key (store/secrets.ts), so it restores only
// here and any change to it is refused; an optional password is checked on
// restore. The controller keeps the last backup it made (one, as the vendor's).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { vendorRefusal } from '../../messages/refusal.js';
import { Secrets } from '../../store/secrets.js';
import type { DocumentStore } from '../../store/documents.js';
import type { Clock } from '../../platform/clock.js';
import type { ControllerLifecycle } from '../../platform/lifecycle.js';

/** Settings a backup carries, by their store names. */
const SETTINGS = [
  'manager.networkProtocol',
  'manager.ethernet',
  'manager.serialInterface',
  'manager.hostInterface',
  'manager.dateTime',
  'manager.alerting',
  'manager.snmp',
  'manager.sso',
  'manager.keyManager',
  'manager.federationGroups.seeded',
  'account.policy',
  'accounts.ldap',
  'accounts.activeDirectory',
] as const;

/** Document collections a backup carries whole. */
const COLLECTIONS = ['account', 'manager.federationGroups', 'manager.snmp.destinations'] as const;

const FORMAT = 'controller-settings-backup';
const STORED = 'manager.backup.file';

interface Payload {
  format: typeof FORMAT;
  version: 1;
  created: number;
  firmware: string;
  password?: { salt: string; digest: string };
  settings: Record<string, unknown>;
  collections: Record<string, [string, unknown][]>;
}

export interface BackupFile {
  Name: string;
  Created: number;
  FirmwareVersion: string;
  /** The file's bytes as sealed text. */
  content: string;
}

function digest(salt: string, password: string): string {
  return createHash('sha256').update(`${salt}:${password}`).digest('base64');
}

export class ControllerBackups {
  constructor(
    private readonly store: DocumentStore,
    private readonly clock: Clock,
    private readonly controller: ControllerLifecycle,
    private readonly firmwareVersion: () => string,
  ) {}

  /** The last backup made, if any. */
  stored(): Readonly<BackupFile> | undefined {
    return this.store.setting<BackupFile | null>(STORED, null).peek() ?? undefined;
  }

  deleteStored(): boolean {
    const had = this.stored() !== undefined;
    this.store.setting<BackupFile | null>(STORED, null).set(null);
    return had;
  }

  /** A backup of the settings now, kept as the stored one; its bytes are returned. */
  create(name: string, password?: string): BackupFile {
    const missing = Symbol('missing');
    const settings: Record<string, unknown> = {};
    for (const key of SETTINGS) {
      const v = this.store.setting<unknown>(key, missing).get();
      if (v !== missing) settings[key] = v;
    }
    const collections: Payload['collections'] = {};
    for (const kind of COLLECTIONS) {
      const docs = this.store.collection<unknown>(kind);
      collections[kind] = docs.ids().map((id) => [id, docs.get(id)]);
    }
    const salt = randomBytes(12).toString('base64');
    const payload: Payload = {
      format: FORMAT,
      version: 1,
      created: this.clock.now(),
      firmware: this.firmwareVersion(),
      ...(password ? { password: { salt, digest: digest(salt, password) } } : {}),
      settings,
      collections,
    };
    const file = { Name: name, Created: payload.created, FirmwareVersion: payload.firmware, content: this.store.secrets.sealJson(payload) };
    this.store.setting<BackupFile | null>(STORED, null).set(file);
    return file;
  }

  /** Restore the settings a backup holds (`restored` runs once they are in), then restart the controller: every session ends. */
  async restore(content: string, password: string | undefined, restored: () => void): Promise<void> {
    const payload = this.open(content);
    if (payload.password) {
      const given = Buffer.from(digest(payload.password.salt, password ?? ''));
      const want = Buffer.from(payload.password.digest);
      if (given.length !== want.length || !timingSafeEqual(given, want))
        throw vendorRefusal('ControllerBackupInvalid', 'the password does not match the one the backup was made with.');
    }
    this.store.transaction(() => {
      for (const key of SETTINGS) if (key in payload.settings) this.store.setting<unknown>(key, null).set(payload.settings[key]);
      for (const kind of COLLECTIONS) {
        const docs = this.store.collection<unknown>(kind);
        docs.clear();
        for (const [id, doc] of payload.collections[kind] ?? []) docs.put(id, doc);
      }
    });
    restored();
    await this.controller.reset();
  }

  private open(content: string): Payload {
    const text = content.trim();
    if (!Secrets.isSealed(text)) throw vendorRefusal('ControllerBackupInvalid', 'the file is not a backup of this controller.');
    let payload: Partial<Payload>;
    try {
      payload = this.store.secrets.openJson<Partial<Payload>>(text);
    } catch {
      throw vendorRefusal('ControllerBackupInvalid', 'the file was not made by this controller, or it was changed since.');
    }
    if (
      payload.format !== FORMAT ||
      payload.version !== 1 ||
      typeof payload.settings !== 'object' ||
      typeof payload.collections !== 'object'
    )
      throw vendorRefusal('ControllerBackupInvalid', 'the file is not a backup of this controller.');
    return payload as Payload;
  }
}
