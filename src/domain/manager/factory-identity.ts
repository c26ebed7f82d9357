// The controller's factory identity (IEEE 802.1AR): its initial device identity (IDevID) and
// attestation key (IAK) certificates, and the manufacturer's issuing CA both chain to. A
// controller of a release that carries them (iLO 6 does, iLO 5 does not) has them from its first
// start; they are made when first read (three key pairs per controller would cost a fleet of 10,000
// half a minute of its first start) and kept from then on, through restarts and factory resets, as a
// factory-provisioned identity is. The private keys are not kept: the controller never uses them here.
import type { Clock } from '../../platform/clock.js';
import { issueNative } from '../../platform/x509.js';
import type { DocumentStore } from '../../store/documents.js';

/** PEM certificates of each identity. */
export interface FactoryIdentity {
  /** The manufacturer's issuing CA (the IDevID's "PCA"). */
  issuingCa: string;
  idevid: string;
  iak: string;
}

const FACTORY_IDENTITY_SETTING = 'manager.factoryIdentity';
const DAY = 86_400_000;
/** Valid for the controller's life, as manufacturers' device identities are. */
const LIFETIME_DAYS = 365 * 25;

/** The identity, made and stored at its first read; concurrent first reads share one making. */
export interface FactoryIdentitySource {
  read(): Promise<FactoryIdentity>;
}

export function factoryIdentitySource(store: DocumentStore, clock: Pick<Clock, 'now'>, controllerId: string): FactoryIdentitySource {
  let making: Promise<FactoryIdentity> | undefined;
  return {
    read() {
      making ??= factoryIdentity(store, clock, controllerId).catch((e: unknown) => {
        making = undefined;
        throw e;
      });
      return making;
    },
  };
}

/** The stored identity, or a new one made and stored now. */
async function factoryIdentity(store: DocumentStore, clock: Pick<Clock, 'now'>, controllerId: string): Promise<FactoryIdentity> {
  const setting = store.setting<FactoryIdentity | null>(FACTORY_IDENTITY_SETTING, null);
  const kept = setting.get();
  if (kept) return kept;
  // Made when the controller left the factory: a while before its first start.
  const notBefore = new Date(clock.now() - 30 * DAY);
  const ca = await issueNative({
    subject: 'CN=Management Controller IDevID Issuing CA, OU=Manufacturing',
    ca: true,
    notBefore,
    days: LIFETIME_DAYS,
  });
  const leaf = (role: string) =>
    issueNative({ subject: `CN=${controllerId}, OU=Management Controller ${role}`, issuer: ca.issuer, notBefore, days: LIFETIME_DAYS });
  const [idevid, iak] = await Promise.all([leaf('IDevID'), leaf('IAK')]);
  const made = { issuingCa: ca.certPem, idevid: idevid.certPem, iak: iak.certPem };
  setting.set(made);
  return made;
}
