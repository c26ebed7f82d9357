// The installed license: verified on installation, kept in the store, and
// counted only while it has not expired on the controller clock.
import type { KeyObject } from 'node:crypto';
import { vendorRefusal } from '../../messages/refusal.js';
import { resourceEvent } from '../../messages/event-messages.js';
import type { Clock, TimerHandle } from '../../platform/clock.js';
import type { DocumentStore } from '../../store/documents.js';
import { Secrets } from '../../store/secrets.js';
import type { EventBus } from '../events/bus.js';
import { LicenseKeyError, maskLicenseKey, verifyLicenseKey, type LicensePayload } from './license-keys.js';
import type { LicenseState, LicenseTier } from './tiers.js';

/** The installed license as stored. */
export interface LicenseRecord {
  Id: string;
  /** The full key, kept to re-verify; never served. Sealed at rest (store/secrets.ts). */
  key: string;
  payload: LicensePayload;
  installedAt: number;
}

export const LICENSE_ID = '1';

/** The installed license (one at most): install, remove, and the tier it grants while it has not expired. */
export class InstalledLicense implements LicenseState {
  private readonly setting;
  private readonly secrets: Secrets;
  private expiryTimer?: TimerHandle;

  constructor(
    store: DocumentStore,
    private readonly clock: Clock,
    private readonly publicKey: KeyObject,
    private readonly events: EventBus,
    /** URI of the installed license, for events. */
    private readonly uri: string,
  ) {
    this.setting = store.setting<LicenseRecord | null>('license.installed', null);
    this.secrets = store.secrets;
    // A key an older version stored in plain text is sealed now.
    const stored = this.setting.peek();
    if (stored && !Secrets.isSealed(stored.key)) this.setting.set({ ...stored, key: this.secrets.seal(stored.key) });
    this.armExpiry();
  }

  installed(): LicenseRecord | undefined {
    const l = this.setting.get();
    return l ? { ...l, key: this.secrets.open(l.key) } : undefined;
  }

  expired(l: LicenseRecord): boolean {
    return l.payload.expires !== undefined && Date.parse(l.payload.expires) <= this.clock.now();
  }

  tier(): LicenseTier {
    // The payload is enough: the key stays sealed.
    const l = this.setting.peek();
    return l && !this.expired(l) ? l.payload.tier : 'None';
  }

  /** Verify and install a key, replacing any installed one; a bad key is refused naming the reason. */
  install(key: string): LicenseRecord {
    let payload: LicensePayload;
    try {
      payload = verifyLicenseKey(this.publicKey, key);
    } catch (e) {
      if (e instanceof LicenseKeyError) throw vendorRefusal('LicenseKeyInvalid', e.message);
      throw e;
    }
    if (payload.expires && Date.parse(payload.expires) <= this.clock.now()) {
      throw vendorRefusal('LicenseKeyExpired', payload.expires);
    }
    const replaced = this.installed();
    const record: LicenseRecord = { Id: LICENSE_ID, key: key.trim(), payload, installedAt: this.clock.now() };
    this.setting.set({ ...record, key: this.secrets.seal(record.key) });
    this.armExpiry();
    const text = `${payload.tier} license ${maskLicenseKey(record.key)} installed`;
    if (replaced) this.events.publish(resourceEvent('LicenseChanged', payload.tier, text), this.uri, 'ResourceUpdated');
    else this.events.publish(resourceEvent('LicenseAdded', payload.tier, text), this.uri, 'ResourceAdded');
    return record;
  }

  remove(): boolean {
    const l = this.installed();
    if (!l) return false;
    this.setting.set(null);
    this.expiryTimer?.cancel();
    this.events.publish(resourceEvent('LicenseChanged', l.payload.tier, 'License removed'), this.uri, 'ResourceRemoved');
    return true;
  }

  /** Cancel the expiry timer (service shutdown). */
  stop(): void {
    this.expiryTimer?.cancel();
  }

  /** Announce the expiry when it happens, on the controller clock. */
  private armExpiry(): void {
    this.expiryTimer?.cancel();
    const l = this.installed();
    if (!l?.payload.expires || this.expired(l)) return;
    const tier = l.payload.tier;
    this.expiryTimer = this.clock.setTimer(Date.parse(l.payload.expires) - this.clock.now(), () => {
      this.events.publish(resourceEvent('LicenseExpired', tier, `${tier} license expired`), this.uri, 'Alert');
    });
  }
}
