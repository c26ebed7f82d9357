// BIOS: the read-only current area, the pending area behind SettingsObject,
// Bios.ResetBios and Bios.ChangePassword; the vendor BIOS resources it links are
// bios-vendor-settings.ts. Attributes are described by the attribute registry (platform/bios-attributes.ts).
import { BIOS_PASSWORDS, BIOS_PASSWORD_ALIASES, type BiosPasswordAlias, type BiosPasswordName } from '../../domain/bios/bios.js';
import { pendingTypeFits } from '../../domain/bios/validate.js';
import { Priv } from '../../lib/privileges.js';
import { vendorMessage } from '../../messages/errors.js';
import { baseError, combinedError, vendorError, type RedfishError } from '../../protocol/errors.js';
import { BIOS_REGISTRY_ID } from '../../platform/bios-attributes.js';
import { toIso } from '../../platform/clock.js';
import { defineAction, defineType, oem, ro, t, commonProps, type Props } from '../../protocol/description.js';
import { messages, success } from '../../protocol/reply.js';
import { Representations } from '../../lib/memo.js';
import { action, type ActionContext, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import { argText } from '../../messages/args.js';
import type { Services } from '../services.js';
import { vendorBiosLinks } from './bios-vendor-settings.js';
import { VendorBiosExtType, settingsAnnotation } from './bios-vendor-types.js';
import { OEM } from '../../protocol/naming.js';

export const BiosType = defineType({
  name: 'Bios',
  version: '1.2.3',
  owner: 'DMTF',
  description: 'BIOS attributes of the system: the current area is read-only; its SettingsObject is the pending area.',
  properties: {
    ...commonProps,
    AttributeRegistry: ro(t.string()),
    Attributes: t.object(
      {},
      { additionalProperties: true, typeName: 'Attributes', description: 'Attribute names and values; see the attribute registry.' },
    ),
    ResetBiosToDefaultsPending: ro(t.boolean()),
    Oem: oem(VendorBiosExtType, { readOnly: true }),
  },
});

const RESET_BIOS = defineAction({
  name: 'Bios.ResetBios',
  description: 'Restores the BIOS attributes to their defaults at the next server reset.',
  // iLO's parameter (ilorest biosdefaults sends it): the factory defaults; user defaults are not kept.
  parameters: { ResetType: t.enum(['default'] as const) },
});
const CHANGE_PASSWORD = defineAction({
  name: 'Bios.ChangePassword',
  description: 'Changes a BIOS password. An empty NewPassword removes it; OldPassword is empty while none is set.',
  parameters: {
    // The Redfish attribute names, or iLO's names for the same passwords.
    PasswordName: t.enum([...BIOS_PASSWORDS, ...(Object.keys(BIOS_PASSWORD_ALIASES) as BiosPasswordAlias[])], { required: true }),
    OldPassword: t.string({ required: true, secret: true, maxLength: 31 }),
    NewPassword: t.string({ required: true, secret: true, maxLength: 31, pattern: '^[\\x20-\\x7E]*$' }),
  },
});

/** What a PATCH of the pending area takes: Attributes alone. */
const PendingBody = { Attributes: BiosType.properties.Attributes } satisfies Props;

/** What the BIOS area uses. */
export type BiosDeps = Pick<Services, 'config' | 'naming' | 'dialect' | 'uris' | 'bios'>;

// Handlers' paths (the routes below spell them out in full).
type BiosPath = '/redfish/v1/Systems/{SystemId}/Bios/';

function handlers(d: BiosDeps) {
  const { bios } = d;
  const views = new Representations();
  // The names the representations are kept under, made once (a fresh string is hashed at every lookup).
  const currentName = `current ${d.uris.system()}`;
  const links = vendorBiosLinks(d);
  const pendingName = `pending ${d.uris.system()}`;
  return { getBios, postResetBios, postChangePassword, getPending, patchPending };

  function getBios() {
    const uri = d.uris.system();
    const st = bios.state();
    const attributes = bios.currentAttributes();
    // Rebuilt only when the stored state or what the ROM reports changes.
    return views.get(currentName, [st, attributes], () => ({
      Id: 'Bios',
      Name: 'BIOS Current Settings',
      Description: 'The BIOS settings the server runs with',
      AttributeRegistry: BIOS_REGISTRY_ID,
      Attributes: attributes,
      ResetBiosToDefaultsPending: st.resetToDefaults,
      '@Redfish.Settings': {
        ...settingsAnnotation(d.naming.listedUri(`${uri}Bios/Settings/`)),
        ...(st.appliedAt !== null ? { Time: toIso(st.appliedAt) } : {}),
        Messages: st.messages,
      },
      Oem: { [OEM]: { Links: links } },
    }));
  }

  function postResetBios() {
    bios.requestResetToDefaults();
    return success(vendorMessage('SystemResetRequired'));
  }

  async function postChangePassword(ctx: ActionContext<BiosPath, typeof CHANGE_PASSWORD>): Promise<void> {
    const { PasswordName, OldPassword, NewPassword } = ctx.body;
    const name: BiosPasswordName =
      PasswordName in BIOS_PASSWORD_ALIASES ? BIOS_PASSWORD_ALIASES[PasswordName as BiosPasswordAlias] : (PasswordName as BiosPasswordName);
    if (!(await bios.changePassword(name, OldPassword, NewPassword))) {
      throw baseError('ActionParameterValueError', 'OldPassword', CHANGE_PASSWORD.name).about('OldPassword');
    }
  }

  function getPending() {
    const attributes = bios.pendingAttributes();
    return views.get(pendingName, [attributes], () => ({
      Id: 'Settings',
      Name: 'BIOS Pending Settings',
      Description: 'BIOS settings applied at the next server reset',
      AttributeRegistry: BIOS_REGISTRY_ID,
      Attributes: attributes,
    }));
  }

  function patchPending(ctx: PatchContext<`${BiosPath}Settings/`, typeof PendingBody>) {
    const attrs: Record<string, unknown> = { ...ctx.body.Attributes };
    const refused: RedfishError[] = [];
    for (const name of BIOS_PASSWORDS) {
      if (!(name in attrs)) continue;
      delete attrs[name];
      refused.push(
        baseError('PropertyNotWritable', `Attributes/${name}`).about(`Attributes/${name}`),
        vendorError('BiosPasswordNotSettable', name, CHANGE_PASSWORD.name),
      );
    }
    for (const [name, value] of Object.entries(attrs)) {
      if (pendingTypeFits(name, value)) continue;
      delete attrs[name];
      refused.push(baseError('PropertyValueTypeError', argText(value), `Attributes/${name}`).about(`Attributes/${name}`));
    }
    if (refused.length && Object.keys(attrs).length === 0) throw combinedError(refused);
    if (Object.keys(attrs).length) bios.setPending(attrs);
    return messages(vendorMessage('SystemResetRequired'), ...ctx.problems, ...refused.flatMap((e) => e.infos));
  }
}

export function registerBiosRoutes(routes: RouteTable, d: BiosDeps): void {
  const h = handlers(d);

  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/',
    type: BiosType,
    get: { privilege: Priv.login, handler: h.getBios },
    actions: [action(RESET_BIOS, Priv.hostBios, h.postResetBios), action(CHANGE_PASSWORD, Priv.hostBios, h.postChangePassword)],
  });
  routes.add({
    path: d.naming.listedUri('/redfish/v1/Systems/{SystemId}/Bios/Settings/'),
    type: BiosType,
    get: { privilege: Priv.login, handler: h.getPending },
    patch: { privilege: Priv.hostBios, body: PendingBody, handler: h.patchPending },
  });
}
