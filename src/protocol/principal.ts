// Who a request acts as, once authenticated.
import type { Privilege, RoleId } from '../lib/privileges.js';

export type AuthMethod = 'session' | 'basic' | 'certificate' | 'none';

export interface Principal {
  userName: string;
  accountId: string;
  roleId: RoleId;
  privileges: ReadonlySet<Privilege>;
  method: AuthMethod;
  sessionId?: string;
  /** The account must change its password before doing anything else (DSP0266). */
  passwordChangeRequired?: boolean;
}

/** Who a request without credentials to an open resource acts as: one value, shared by them all. */
export const ANONYMOUS: Principal = Object.freeze({
  userName: '',
  accountId: '',
  roleId: 'ReadOnly',
  privileges: new Set<never>(),
  method: 'none',
});
