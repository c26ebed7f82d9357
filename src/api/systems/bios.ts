// BIOS: the read-only current area, the pending area behind SettingsObject,
// Bios.ResetBios and Bios.ChangePassword, and the vendor Boot and iSCSI
// resources. Attributes are described by the attribute registry (platform/bios-attributes.ts).
import { BIOS_PASSWORDS } from '../../domain/bios/bios.js';
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
import { mergePatch } from '../../lib/json-merge.js';
import type { Services } from '../services.js';
import { VendorSettingsLinks, vendorSettingsLinks } from './bios-vendor-settings.js';
import { IscsiType, VendorServerBootSettingsType, settingsAnnotation } from './bios-vendor-types.js';
import { OEM, oemType } from '../../protocol/naming.js';

const VendorBiosType = defineType({
  name: oemType('Bios'),
  version: '1.0.0',
  owner: OEM,
  description: 'Vendor extension of the Bios resource: links to the vendor BIOS resources.',
  properties: {
    Links: ro(
      t.object({ Boot: t.link({ readOnly: true }), iScsi: t.link({ readOnly: true }), ...VendorSettingsLinks }, { typeName: 'Links' }),
    ),
  },
});

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
    Oem: oem(VendorBiosType, { readOnly: true }),
  },
});

const RESET_BIOS = defineAction({
  name: 'Bios.ResetBios',
  description: 'Restores the BIOS attributes to their defaults at the next server reset.',
  parameters: {},
});
const CHANGE_PASSWORD = defineAction({
  name: 'Bios.ChangePassword',
  description: 'Changes a BIOS password. An empty NewPassword removes it; OldPassword is empty while none is set.',
  parameters: {
    PasswordName: t.enum(BIOS_PASSWORDS, { required: true }),
    OldPassword: t.string({ required: true, secret: true, maxLength: 31 }),
    NewPassword: t.string({ required: true, secret: true, maxLength: 31, pattern: '^[\\x20-\\x7E]*$' }),
  },
});

/** What a PATCH of the pending area takes: Attributes alone. */
const PendingBody = { Attributes: BiosType.properties.Attributes } satisfies Props;

/** What the BIOS area uses. */
export type BiosDeps = Pick<Services, 'uris' | 'bios' | 'boot' | 'iscsi'>;

// Handlers' paths (the routes below spell them out in full).
type BiosPath = '/redfish/v1/Systems/{SystemId}/Bios/';

function handlers(d: BiosDeps) {
  const { bios, boot, iscsi } = d;
  const views = new Representations();
  // The names the representations are kept under, made once (a fresh string is hashed at every lookup).
  const currentName = `current ${d.uris.system()}`;
  const pendingName = `pending ${d.uris.system()}`;
  return { getBios, postResetBios, postChangePassword, getPending, patchPending, getBootSettings, getIscsi, patchIscsi };

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
        ...settingsAnnotation(`${uri}Bios/Settings/`),
        ...(st.appliedAt !== null ? { Time: toIso(st.appliedAt) } : {}),
        Messages: st.messages,
      },
      Oem: {
        [OEM]: {
          Links: { Boot: { '@odata.id': `${uri}Bios/Boot/` }, iScsi: { '@odata.id': `${uri}Bios/iScsi/` }, ...vendorSettingsLinks(uri) },
        },
      },
    }));
  }

  function postResetBios() {
    bios.requestResetToDefaults();
    return success(vendorMessage('SystemResetRequired'));
  }

  async function postChangePassword(ctx: ActionContext<BiosPath, typeof CHANGE_PASSWORD>): Promise<void> {
    const { PasswordName, OldPassword, NewPassword } = ctx.body;
    if (!(await bios.changePassword(PasswordName, OldPassword, NewPassword))) {
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

  function getBootSettings() {
    const order = boot.get().BootOrder;
    const byId = new Map(boot.options.map((o) => [o.id, o]));
    return {
      Id: 'Boot',
      Name: 'Boot Order Current Settings',
      Description: 'The UEFI boot sources and the persistent boot order of the system ROM',
      BootSources: boot.options.map((o, i) => ({
        BootOptionReference: o.id,
        BootString: o.displayName,
        CorrelatableID: o.uefiDevicePath,
        StructuredBootString: o.structured,
        UEFIDevicePath: o.uefiDevicePath,
        Index: i,
      })),
      PersistentBootConfigOrder: order.map((id) => byId.get(id)?.structured ?? id),
      DefaultBootOrder: ['Cd', 'Usb', 'EmbeddedStorage', 'PcieSlotStorage', 'EmbeddedFlexLOM', 'PcieSlotNic', 'UefiShell'],
    };
  }

  function getIscsi() {
    const st = iscsi.get();
    return {
      Id: 'iScsi',
      Name: 'iSCSI Software Initiator Settings',
      Description: 'UEFI iSCSI boot initiator and its boot attempts',
      iSCSIInitiatorName: st.iSCSIInitiatorName,
      // CHAP secrets are write-only.
      iSCSISources: st.iSCSISources.map((x) => ({ ...x, iSCSIChapSecret: null })),
    };
  }

  function patchIscsi(ctx: PatchContext<`${BiosPath}iScsi/`, typeof IscsiType.properties>) {
    iscsi.set(mergePatch(iscsi.get(), ctx.body));
    // The ROM's iSCSI initiator reads its configuration at POST.
    return messages(vendorMessage('SystemResetRequired'), ...ctx.problems);
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
    path: '/redfish/v1/Systems/{SystemId}/Bios/Settings/',
    type: BiosType,
    get: { privilege: Priv.login, handler: h.getPending },
    patch: { privilege: Priv.hostBios, body: PendingBody, handler: h.patchPending },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/Boot/',
    type: VendorServerBootSettingsType,
    get: { privilege: Priv.login, handler: h.getBootSettings },
  });
  routes.add({
    path: '/redfish/v1/Systems/{SystemId}/Bios/iScsi/',
    type: IscsiType,
    get: { privilege: Priv.login, handler: h.getIscsi },
    patch: { privilege: Priv.hostBios, handler: h.patchIscsi },
  });
}
