// SessionService and login sessions (Authentication: Session).
import { Priv } from '../../lib/privileges.js';
import { DEFAULT_ABSOLUTE_SESSION_TIMEOUT, SessionLimitError, type SessionRecord } from '../../domain/accounts/sessions.js';
import { baseMessage } from '../../messages/errors.js';
import { baseError } from '../../protocol/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import type { Principal } from '../../protocol/principal.js';
import { collection, created } from '../../protocol/reply.js';
import { Representations } from '../../lib/memo.js';
import { missing, present, type Context, type PatchContext, type PostContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, oemType } from '../../protocol/naming.js';

export type SessionServiceDeps = Pick<Services, 'settings' | 'sessions' | 'auth'>;

/** DMTF's bounds of AbsoluteSessionTimeout, seconds. */
const ABSOLUTE_TIMEOUT_RANGE = { minimum: 30, maximum: 86400 } as const;

type SessionsPath = '/redfish/v1/SessionService/Sessions/';
type SessionPath = '/redfish/v1/SessionService/Sessions/{SessionId}/';

const VendorSessionType = defineType({
  name: oemType('Session'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of a session.',
  properties: {
    MySession: ro(t.boolean({ description: 'True for the session of the caller.' })),
  },
});

export const SessionType = defineType({
  name: 'Session',
  version: '1.8.0',
  owner: 'DMTF',
  description: 'A login session.',
  properties: {
    ...commonProps,
    UserName: t.string({ required: true, createOnly: true }),
    Password: t.string({ required: true, createOnly: true, writeOnly: true, nullable: true }),
    ClientOriginIPAddress: ro(t.string()),
    CreatedTime: ro(t.dateTime()),
    ExpirationTime: ro(
      t.dateTime({
        onlyIn: 'dmtf',
        description: 'When the session ends whatever its activity: CreatedTime plus AbsoluteSessionTimeout, while that is enabled.',
      }),
    ),
    SessionType: ro(t.enum(['Redfish', 'HostConsole', 'ManagerConsole', 'IPMI', 'KVMIP', 'OEM', 'WebUI'])),
    Oem: oem(VendorSessionType, { readOnly: true }),
  },
});

const VendorSessionCollectionType = defineType({
  name: oemType('SessionCollection'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the session collection.',
  properties: {
    Links: t.object({ MySession: t.link({ readOnly: true }) }, { readOnly: true, typeName: 'Links' }),
  },
});

export const SessionCollectionType = defineType({
  ...collectionOf(SessionType),
  properties: { ...collectionOf(SessionType).properties, Oem: oem(VendorSessionCollectionType, { readOnly: true }) },
});

export const SessionServiceType = defineType({
  name: 'SessionService',
  version: '1.2.0',
  owner: 'DMTF',
  description: 'The session service: login sessions and their time-out.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    SessionTimeout: t.integer({ minimum: 30, maximum: 86400, units: 's', description: 'Inactivity time-out of sessions, seconds.' }),
    AbsoluteSessionTimeout: t.integer({
      ...ABSOLUTE_TIMEOUT_RANGE,
      units: 's',
      onlyIn: 'dmtf',
      description: 'Lifetime of a session from its creation, whatever its activity, while AbsoluteSessionTimeoutEnabled.',
    }),
    AbsoluteSessionTimeoutEnabled: t.boolean({ onlyIn: 'dmtf' }),
    Sessions: t.link({ readOnly: true }),
    Status: statusProp,
  },
});

const sessionUri = (id: string) => `/redfish/v1/SessionService/Sessions/${id}/`;

function sessionBody(s: SessionRecord, viewer: Principal, expiresAt: number | undefined) {
  return {
    Id: s.Id,
    Name: 'User Session',
    Description: 'Manager User Session',
    UserName: s.UserName,
    Password: null,
    ClientOriginIPAddress: s.ClientOriginIPAddress,
    CreatedTime: toIso(s.CreatedTime),
    ...(expiresAt !== undefined ? { ExpirationTime: toIso(expiresAt) } : {}),
    SessionType: 'Redfish',
    Oem: { [OEM]: { MySession: viewer.sessionId === s.Id } },
  };
}

function handlers(d: SessionServiceDeps) {
  const views = new Representations();

  function getSessionService() {
    return views.get('/redfish/v1/SessionService/', [d.settings.peek()], () => ({
      Id: 'SessionService',
      Name: 'Session Service',
      Description: 'Session Service',
      ServiceEnabled: true,
      SessionTimeout: d.settings.peek().sessionTimeout,
      AbsoluteSessionTimeout: d.settings.peek().absoluteSessionTimeout ?? DEFAULT_ABSOLUTE_SESSION_TIMEOUT,
      AbsoluteSessionTimeoutEnabled: d.settings.peek().absoluteSessionTimeoutEnabled ?? false,
      Sessions: { '@odata.id': '/redfish/v1/SessionService/Sessions/' },
      Status: { State: 'Enabled', Health: 'OK' },
    }));
  }

  function patchSessionService(ctx: PatchContext<'/redfish/v1/SessionService/', typeof SessionServiceType.properties>): void {
    const b = ctx.body;
    const now = d.settings.get();
    d.settings.set({
      ...now,
      ...(b.SessionTimeout !== undefined ? { sessionTimeout: b.SessionTimeout } : {}),
      ...(b.AbsoluteSessionTimeout !== undefined ? { absoluteSessionTimeout: b.AbsoluteSessionTimeout } : {}),
      ...(b.AbsoluteSessionTimeoutEnabled !== undefined ? { absoluteSessionTimeoutEnabled: b.AbsoluteSessionTimeoutEnabled } : {}),
    });
  }

  function getSessions(ctx: Context<SessionsPath>) {
    const mine = ctx.principal.sessionId;
    const list = d.sessions.list();
    // One view per viewing session (MySession), rebuilt when a session starts or ends; '' for callers without one.
    return views.get(mine ?? '', [d.sessions.version], () =>
      collection(
        'Sessions',
        list.map((x) => sessionUri(x.Id)),
        {
          Description: 'Manager User Sessions',
          Oem: { [OEM]: { Links: mine ? { MySession: { '@odata.id': sessionUri(mine) } } : {} } },
        },
      ),
    );
  }

  /** Log in: the session and its token, or the error that says why not. */
  async function postSession(ctx: PostContext<SessionsPath, typeof SessionType.properties>) {
    const req = { headers: ctx.headers, clientIp: ctx.clientIp, socket: ctx.socket };
    const account = await d.auth.login(ctx.body.UserName, ctx.body.Password, req);
    // Its per-account cap, and room at the limit (an administrator evicts a lesser-role holder).
    d.auth.makeRoom(account, req);
    try {
      const { session, token } = d.sessions.create(account, ctx.clientIp);
      const viewer = d.auth.principalOf(account, 'session', session.Id);
      const body: Record<string, unknown> = sessionBody(session, viewer, d.sessions.expiresAt(session));
      // The account may log in, but must change its password first (DSP0266).
      if (account.PasswordChangeRequired) {
        body['@Message.ExtendedInfo'] = [baseMessage('PasswordChangeRequired', `/redfish/v1/AccountService/Accounts/${account.Id}/`)];
      }
      return created(sessionUri(session.Id), body, { 'X-Auth-Token': token });
    } catch (e) {
      if (e instanceof SessionLimitError) throw baseError('SessionLimitExceeded');
      throw e;
    }
  }

  function getSession(ctx: Context<SessionPath>) {
    const session = present(d.sessions.get(ctx.params.SessionId), ctx);
    return sessionBody(session, ctx.principal, d.sessions.expiresAt(session));
  }

  function deleteSession(ctx: Context<SessionPath>): void {
    if (!d.sessions.delete(ctx.params.SessionId)) throw missing(ctx);
  }

  return { getSessionService, patchSessionService, getSessions, postSession, getSession, deleteSession };
}

export function registerSessionServiceRoutes(routes: RouteTable, d: SessionServiceDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/SessionService/',
    type: SessionServiceType,
    get: { privilege: Priv.login, handler: h.getSessionService },
    patch: { privilege: Priv.configureManager, handler: h.patchSessionService },
  });
  routes.add({
    path: '/redfish/v1/SessionService/Sessions/',
    type: SessionCollectionType,
    get: { privilege: Priv.login, handler: h.getSessions },
    post: { privilege: Priv.none, open: true, handler: h.postSession },
  });
  routes.add({
    path: '/redfish/v1/SessionService/Sessions/{SessionId}/',
    type: SessionType,
    params: { SessionId: (id) => d.sessions.get(id) !== undefined },
    ownedBy: (p, params) => p.sessionId !== undefined && p.sessionId === params.SessionId,
    get: { privilege: Priv.login, handler: h.getSession },
    delete: { privilege: [['ConfigureManager'], ['ConfigureSelf']], handler: h.deleteSession },
  });
}
