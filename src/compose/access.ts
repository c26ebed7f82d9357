// Who may use the controller: accounts (the first administrator among them), sessions,
// authentication and the password and lockout policy; and the controller's HTTPS identity.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trustedCas, type TrustedCa } from '../platform/trusted-cas.js';
import type { Services } from '../api/services.js';
import type { Config } from '../config.js';
import { AccountPolicy } from '../domain/accounts/account-policy.js';
import { Accounts } from '../domain/accounts/accounts.js';
import { DirectorySettingsStore } from '../domain/accounts/directory-settings.js';
import { generatePassword } from '../domain/accounts/passwords.js';
import { DEFAULT_ABSOLUTE_SESSION_TIMEOUT, Sessions } from '../domain/accounts/sessions.js';
import type { HttpServer } from '../http/server.js';
import { ensureTlsMaterial, saveTlsMaterial } from '../http/tls.js';
import type { ControllerLifecycle } from '../platform/lifecycle.js';
import { isSelfSigned } from '../platform/x509-verify.js';
import { HttpsCertificate } from '../domain/manager/https-certificate.js';
import { factoryIdentitySource, type FactoryIdentitySource } from '../domain/manager/factory-identity.js';
import type { Naming } from '../protocol/naming.js';
import { Authentication } from '../protocol/auth.js';
import { INITIAL_PASSWORD_FILE, type Base } from './base.js';
import type { ControllerSeat } from './seat.js';

export type Access = Pick<Services, 'accounts' | 'sessions' | 'auth' | 'accountPolicy' | 'directories' | 'ldapCas'>;

/** The parts, and the generated first administrator password when this start made one. */
export async function buildAccess(b: Base, controller: ControllerLifecycle): Promise<{ access: Access; generatedPassword?: string }> {
  const { config, store, settings, clock, log } = b;
  const accounts = new Accounts(store, config.scryptLogN);
  const generatedPassword = await ensureAdministrator(accounts, config, b.dataDir, b.seat?.admin);
  const sessions = new Sessions(clock, {
    timeoutSeconds: () => settings.get().sessionTimeout,
    // Only the dmtf dialect offers it: a data dir that served dmtf before does not carry it into spec.
    absoluteTimeoutSeconds: () => {
      const s = settings.peek();
      return config.dialect === 'dmtf' && s.absoluteSessionTimeoutEnabled
        ? (s.absoluteSessionTimeout ?? DEFAULT_ABSOLUTE_SESSION_TIMEOUT)
        : undefined;
    },
    limit: () => config.maxSessions,
  });
  // A controller reset ends every session, as on a real controller.
  controller.onReset(() => sessions.clear('reset'));
  accounts.onChange((id) => {
    if (!accounts.get(id)) sessions.deleteForAccount(id);
  });
  const auth = new Authentication(accounts, sessions, clock, log, {
    perAccount: () => Math.min(config.maxSessionsPerAccount, config.maxSessions),
  });
  const accountPolicy = new AccountPolicy(store, accounts, clock, log);
  auth.addLoginPolicy(accountPolicy);
  const directories = new DirectorySettingsStore(store);
  const ldapCas = trustedCas(store.collection<TrustedCa>('directory.ldap.ca'), clock);
  return { access: { accounts, sessions, auth, accountPolicy, directories, ldapCas }, generatedPassword };
}

/**
 * The first administrator exists from the first start on. Its password is the
 * one given, or a generated one written once to <data-dir>/initial-admin-password.
 * A password given on a later start resets that account's password.
 */
async function ensureAdministrator(
  accounts: Accounts,
  config: Config,
  dataDir: string,
  fleet?: ControllerSeat['admin'],
): Promise<string | undefined> {
  const existing = accounts.findByUserName(config.adminUser);
  if (existing) {
    if (fleet?.reset) {
      if (existing.PasswordHash !== fleet.hash) accounts.save({ ...existing, PasswordHash: fleet.hash, PasswordChangeRequired: false });
    } else if (config.adminPassword) await accounts.setPassword(existing, config.adminPassword);
    return undefined;
  }
  // A fleet's controllers share one hash of one password: scrypt runs once, not once per controller.
  if (fleet) {
    await accounts.create({ UserName: config.adminUser, Password: fleet.password, RoleId: 'Administrator' }, undefined, fleet.hash);
    return undefined;
  }
  const password = config.adminPassword ?? generatePassword();
  await accounts.create({ UserName: config.adminUser, Password: password, RoleId: 'Administrator' });
  if (config.adminPassword) return undefined;
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  if (!existsSync(file)) writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The HTTPS identity, its management (CSR, replacement), and the listener it is served on once that exists. */
export interface HttpsPart extends Pick<Services, 'https' | 'httpsCertificate'> {
  /** The listener now serves the identity (and the trusted client CAs registered before it existed). */
  serveOn(http: HttpServer): void;
}

/**
 * The controller's HTTPS identity: its certificate and key (made on first start, or the operator's,
 * or the fleet's), replaceable at run time, and the CAs client certificates are checked against.
 */
export async function buildHttpsIdentity(b: Base): Promise<HttpsPart> {
  const { dataDir } = b;
  const tls = await ensureTlsMaterial(dataDir, b.clock, b.config.tlsCert, b.config.tlsKey, b.seat?.issueTls);
  let http: HttpServer | undefined;
  let clientCAs: string[] | undefined;
  // Decided by the certificate itself: a --tls-cert or an installed replacement counts as signed unless
  // self-signed. Parsed when first asked (certificate login asks), not at every start.
  let selfSigned: boolean | undefined;
  const https: Services['https'] = {
    cert: tls.cert,
    key: tls.key,
    get selfSigned() {
      return (selfSigned ??= isSelfSigned(https.cert));
    },
    replace(cert, key) {
      saveTlsMaterial(dataDir, cert, key);
      https.cert = cert;
      https.key = key;
      selfSigned = undefined;
      http?.setCertificate(cert, key, clientCAs);
    },
    setClientCAs(pems) {
      clientCAs = pems.length ? pems : undefined;
      http?.setCertificate(https.cert, https.key, clientCAs);
    },
  };
  return {
    https,
    httpsCertificate: new HttpsCertificate(b.store, b.clock, https),
    serveOn(listener) {
      http = listener;
      // Trusted CAs registered before the listener existed (certificate login).
      if (clientCAs) listener.setCertificate(https.cert, https.key, clientCAs);
    },
  };
}

/** The factory identity certificates of a controller whose release carries them (iLO 6's; not iLO 5's). */
export function buildFactoryIdentity(b: Base, naming: Naming): FactoryIdentitySource | undefined {
  if (naming.controller(b.hardware.system.model).release < 6) return undefined;
  return factoryIdentitySource(b.store, b.clock, b.serviceUuid);
}
