// SessionService and login sessions (Authentication: Session).
import { Priv } from '../../lib/privileges.js';
import { SessionLimitError, type SessionRecord } from '../../domain/accounts/sessions.js';
import { baseError, baseMessage } from '../../messages/errors.js';
import { toIso } from '../../platform/clock.js';
import { collectionOf, defineType, oem, ro, statusProp, t, commonProps } from '../../protocol/description.js';
import type { Principal } from '../../protocol/principal.js';
import { collection, created } from '../../protocol/reply.js';
import { Representations } from '../../lib/memo.js';
import { missing, present, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const SESSIONS_URI = '/redfish/v1/SessionService/Sessions/';

const VendorSessionType = defineType({
  name: 'VendorSession',
  version: '1.0.0',
  owner: 'Vendor',
  description: 'Vendor extension of a session.',
  properties: {
    MySession: ro(t.boolean({ description: 'True for the session of the caller.' })),
  },
});

export const SessionType = defineType({
  name: 'Session',
  version: '1.6.0',
  owner: 'DMTF',
  description: 'A login session.',
  properties: {
    ...commonProps,
    UserName: t.string({ required: true, createOnly: true }),
    Password: t.string({ required: true, createOnly: true, writeOnly: true, nullable: true }),
    ClientOriginIPAddress: ro(t.string()),
    CreatedTime: ro(t.dateTime()),
    SessionType: ro(t.enum(['Redfish', 'HostConsole', 'ManagerConsole', 'IPMI', 'KVMIP', 'OEM', 'WebUI'])),
    Oem: oem(VendorSessionType, { readOnly: true }),
  },
});

const VendorSessionCollectionType = defineType({
  name: 'VendorSessionCollection',
  version: '1.0.0',
  owner: 'Vendor',
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
  version: '1.1.8',
  owner: 'DMTF',
  description: 'The session service: login sessions and their time-out.',
  properties: {
    ...commonProps,
    ServiceEnabled: ro(t.boolean()),
    SessionTimeout: t.integer({ minimum: 30, maximum: 86400, units: 's', description: 'Inactivity time-out of sessions, seconds.' }),
    Sessions: t.link({ readOnly: true }),
    Status: statusProp,
  },
});

const sessionUri = (id: string) => `${SESSIONS_URI}${id}/`;

function sessionBody(s: SessionRecord, viewer: Principal) {
  return {
    Id: s.Id,
    Name: 'User Session',
    Description: 'Manager User Session',
    UserName: s.UserName,
    Password: null,
    ClientOriginIPAddress: s.ClientOriginIPAddress,
    CreatedTime: toIso(s.CreatedTime),
    SessionType: 'Redfish',
    Oem: { Vendor: { MySession: viewer.sessionId === s.Id } },
  };
}

export function registerSessionServiceRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.SessionService = '/redfish/v1/SessionService/';
  const views = new Representations();

  routes.add({
    path: '/redfish/v1/SessionService/',
    type: SessionServiceType,
    get: {
      privilege: Priv.login,
      handler: () => ({
        Id: 'SessionService',
        Name: 'Session Service',
        Description: 'Session Service',
        ServiceEnabled: true,
        SessionTimeout: s.settings.get().sessionTimeout,
        Sessions: { '@odata.id': SESSIONS_URI },
        Status: { State: 'Enabled', Health: 'OK' },
      }),
    },
    patch: {
      privilege: Priv.configureManager,
      handler: (ctx) => {
        const timeout = ctx.body.SessionTimeout as number | undefined;
        if (timeout !== undefined) s.settings.set({ ...s.settings.get(), sessionTimeout: timeout });
      },
    },
  });

  routes.add({
    path: SESSIONS_URI,
    type: SessionCollectionType,
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const mine = ctx.principal.sessionId;
        const list = s.sessions.list();
        // One view per viewing session (MySession), rebuilt when a session starts or ends.
        return views.get(mine ?? '', [s.sessions.version], () =>
          collection('Sessions', list.map((x) => sessionUri(x.Id)), {
            Description: 'Manager User Sessions',
            Oem: { Vendor: { Links: mine ? { MySession: { '@odata.id': sessionUri(mine) } } : {} } },
          }),
        );
      },
    },
    post: {
      privilege: Priv.none,
      open: true,
      handler: async (ctx) => {
        const { UserName, Password } = ctx.body as { UserName: string; Password: string };
        const req = { headers: ctx.headers, clientIp: ctx.clientIp, socket: ctx.socket };
        const account = await s.auth.login(UserName, Password, req);
        // Its per-account cap, and room at the limit (an administrator evicts a lesser-role holder).
        s.auth.makeRoom(account, req);
        try {
          const { session, token } = s.sessions.create(account, ctx.clientIp);
          const viewer = s.auth.principalOf(account, 'session', session.Id);
          const body: Record<string, unknown> = sessionBody(session, viewer);
          // The account may log in, but must change its password first (DSP0266).
          if (account.PasswordChangeRequired) {
            body['@Message.ExtendedInfo'] = [baseMessage('PasswordChangeRequired', `/redfish/v1/AccountService/Accounts/${account.Id}/`)];
          }
          return created(sessionUri(session.Id), body, { 'X-Auth-Token': token });
        } catch (e) {
          if (e instanceof SessionLimitError) throw baseError('SessionLimitExceeded');
          throw e;
        }
      },
    },
  });

  routes.add({
    path: `${SESSIONS_URI}{SessionId}/`,
    type: SessionType,
    params: { SessionId: (id) => s.sessions.get(id) !== undefined },
    ownedBy: (p, params) => p.sessionId !== undefined && p.sessionId === params.SessionId,
    get: {
      privilege: Priv.login,
      handler: (ctx) => sessionBody(present(s.sessions.get(ctx.params.SessionId ?? ''), ctx), ctx.principal),
    },
    delete: {
      privilege: [['ConfigureManager'], ['ConfigureSelf']],
      handler: (ctx) => {
        if (!s.sessions.delete(ctx.params.SessionId ?? '')) throw missing(ctx);
      },
    },
  });
}
