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

export const ANONYMOUS: Principal = {
  userName: '',
  accountId: '',
  roleId: 'ReadOnly',
  privileges: new Set(),
  method: 'none',
};
