// VirtualMedia of the manager: a floppy/USB key device (1) and a CD/DVD device
// (2), as the vendor numbers them. VirtualMedia.InsertMedia and EjectMedia, and
// the PATCH older clients send (Image to insert, Image null to eject, Inserted,
// WriteProtected, Oem/Vendor/BootOnNextServerReset). An insert answers once the
// controller has read the image through (../../domain/manager/virtual-media.ts);
// only http and https images are taken.
import { parseImageUri } from '../../domain/firmware/download.js';
import {
  MEDIA_SLOTS,
  MEDIA_TYPES,
  TRANSFER_PROTOCOLS,
  type InsertRequest,
  type MediaSlot,
  type TransferProtocol,
} from '../../domain/manager/virtual-media.js';
import { Priv } from '../../lib/privileges.js';
import { splitCredentials, withoutCredentials } from '../../lib/uri-credentials.js';
import { Refusal } from '../../messages/refusal.js';
import { RedfishError, baseError } from '../../protocol/errors.js';
import { resourceEvent } from '../../messages/event-messages.js';
import { addCollection } from '../../protocol/collections.js';
import { commonProps, defineAction, defineType, odataType, oem, ro, statusProp, t, type ActionDef } from '../../protocol/description.js';
import { success } from '../../protocol/reply.js';
import { action, resourceOfAction, type ActionContext, type PatchContext, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';
import { OEM, controllerType } from '../../protocol/naming.js';

export type VirtualMediaDeps = Pick<Services, 'virtualMedia' | 'events'>;

// The device's paths (under the manager and under the system), for its handlers' contexts.
type MediaPath =
  '/redfish/v1/Managers/{ManagerId}/VirtualMedia/{VirtualMediaId}/' | '/redfish/v1/Systems/{SystemId}/VirtualMedia/{VirtualMediaId}/';
type OnMedia<D extends ActionDef> = MediaPath extends infer P ? (P extends MediaPath ? ActionContext<P, D> : never) : never;
type PatchOnMedia = MediaPath extends infer P ? (P extends MediaPath ? PatchContext<P, typeof VirtualMediaType.properties> : never) : never;

const IMAGE_MAX = 2048;

export const VendorVirtualMediaType = defineType({
  name: controllerType('VirtualMedia'),
  version: '2.2.0',
  owner: OEM,
  description: 'Vendor extension of a virtual media device.',
  properties: {
    BootOnNextServerReset: t.boolean({
      description: 'Boot from this media once, at the next server reset, ahead of the boot order (a boot override still comes first).',
    }),
  },
});

const InsertMediaAction = defineAction({
  name: 'VirtualMedia.InsertMedia',
  description: 'Connect an image read from an http or https URI; the controller reads it through before it answers.',
  parameters: {
    Image: t.string({ required: true, minLength: 1, maxLength: IMAGE_MAX, description: 'URI of the image: http or https.' }),
    Inserted: t.boolean({ description: 'Present the media to the host (default true).' }),
    WriteProtected: t.boolean({ description: 'Present the media write-protected (default true).' }),
    TransferProtocolType: t.enum(TRANSFER_PROTOCOLS, { description: "The URI's protocol; it must match the URI's scheme." }),
    TransferMethod: t.enum(['Stream']),
    UserName: t.string({ maxLength: 256, description: 'User name for the image server (HTTP Basic).' }),
    Password: t.string({ maxLength: 256, secret: true, description: 'Password for the image server; used for the read, not kept.' }),
  },
});

const EjectMediaAction = defineAction({
  name: 'VirtualMedia.EjectMedia',
  description: 'Disconnect the image.',
  parameters: {},
});

// The vendor's own insert and eject, as its clients (ilorest virtualmedia) call them: the same as DMTF's.
const InsertVirtualMediaAction = defineAction({
  name: `${controllerType('VirtualMedia')}.InsertVirtualMedia`,
  oem: true,
  description: InsertMediaAction.description,
  parameters: InsertMediaAction.parameters,
});

const EjectVirtualMediaAction = defineAction({
  name: `${controllerType('VirtualMedia')}.EjectVirtualMedia`,
  oem: true,
  description: EjectMediaAction.description,
  parameters: {},
});

export const VirtualMediaType = defineType({
  name: 'VirtualMedia',
  version: '1.6.5',
  owner: 'DMTF',
  description: 'A virtual media device of the management controller.',
  properties: {
    ...commonProps,
    Image: t.string({
      nullable: true,
      minLength: 1,
      maxLength: IMAGE_MAX,
      description: 'URI of the connected image (http or https); a PATCH with a URI inserts it, null ejects.',
    }),
    ImageName: ro(t.string({ nullable: true })),
    Inserted: t.boolean({ description: 'Whether the host sees the media; needs a connected image.' }),
    WriteProtected: t.boolean({ description: 'Whether the host may write the media; needs a connected image.' }),
    ConnectedVia: ro(t.enum(['NotConnected', 'URI', 'Applet', 'Oem'])),
    MediaTypes: ro(t.array(t.enum(MEDIA_TYPES))),
    TransferProtocolType: t.enum(TRANSFER_PROTOCOLS, { nullable: true, description: 'With Image in a PATCH: must match its scheme.' }),
    TransferMethod: t.enum(['Stream'], { nullable: true }),
    UserName: t.string({ nullable: true, maxLength: 256, description: 'With Image in a PATCH: user name for the image server.' }),
    Password: t.string({ nullable: true, maxLength: 256, writeOnly: true, secret: true, description: 'With Image in a PATCH; not kept.' }),
    EjectPolicy: ro(t.enum(['OnPowerOff', 'Session', 'Timed', 'AfterUse', 'Persistent'])),
    Status: statusProp,
    Oem: oem(VendorVirtualMediaType),
  },
  actions: [InsertMediaAction, EjectMediaAction, InsertVirtualMediaAction, EjectVirtualMediaAction],
});

interface ImageParams {
  Image: string;
  TransferProtocolType?: TransferProtocol | null;
  UserName?: string | null;
  Password?: string | null;
}

/**
 * The insert request of an Image and its companions, or the error naming the bad one:
 * the Image must be an absolute http(s) URI whose scheme matches TransferProtocolType.
 * Credentials in the URI move to the request, so the Image shown carries none.
 */
function insertRequest(p: ImageParams, errors: { format(): RedfishError; conflict(): RedfishError }): InsertRequest {
  const parsed = parseImageUri(p.Image);
  if (!parsed) throw errors.format();
  const { url, userName, password } = splitCredentials(parsed);
  const protocol = url.protocol === 'https:' ? 'HTTPS' : 'HTTP';
  if (p.TransferProtocolType && p.TransferProtocolType !== protocol) throw errors.conflict();
  return { image: url, userName: p.UserName ?? userName, password: p.Password ?? password };
}

/**
 * An image that cannot be read is answered 400, not the table's 502: the client
 * named it for the controller to connect, so the request was wrong, not this service.
 */
function imageRefused(e: unknown): never {
  throw e instanceof Refusal && e.rule === 'ImageDownloadFailed' ? new RedfishError(400, e.infos) : e;
}

/**
 * A device as one view shows it. The system's view numbers the devices after the manager's (3 and
 * 4 for 1 and 2): one device has one Id in each view, and no Id stands for two resources, which
 * the vendor's clients require (ilorest virtualmedia indexes every VirtualMedia resource by Id).
 */
interface MediaView {
  slot: MediaSlot;
  id: string;
}

const SYSTEM_VIEW_OFFSET = MEDIA_SLOTS.length;

/** The device a request addresses, from its path parameters (the system's view or the manager's). */
function slotIdOf(params: { VirtualMediaId: string; SystemId?: string }): string {
  return params.SystemId === undefined ? params.VirtualMediaId : String(Number(params.VirtualMediaId) - SYSTEM_VIEW_OFFSET);
}

function viewsOf(vm: VirtualMediaDeps['virtualMedia'], offset: number) {
  const view = (slot: MediaSlot): MediaView => ({ slot, id: String(Number(slot.id) + offset) });
  return {
    list: () => vm.slots().map(view),
    get: (id: string) =>
      vm
        .slots()
        .map(view)
        .find((v) => v.id === id),
    id: (v: MediaView) => v.id,
  };
}

function handlers(d: VirtualMediaDeps) {
  const vm = d.virtualMedia;
  // The dispatcher announces a PATCH of the device; an action announces its own change, once.
  const announce = (ctx: { uri: string }) =>
    d.events.publish(resourceEvent('ResourceChanged'), resourceOfAction(ctx.uri), 'ResourceUpdated');

  function show({ slot, id }: MediaView) {
    const m = vm.media(slot.id);
    return {
      Id: id,
      Name: 'Virtual Removable Media',
      Description: `Virtual ${slot.label} device of the management controller`,
      MediaTypes: [...slot.mediaTypes],
      Image: m?.Image ?? null,
      ImageName: m?.ImageName ?? null,
      ConnectedVia: m ? 'URI' : 'NotConnected',
      Inserted: m?.Inserted ?? false,
      WriteProtected: m?.WriteProtected ?? true,
      TransferProtocolType: m?.TransferProtocolType ?? null,
      TransferMethod: m ? 'Stream' : null,
      UserName: m?.UserName ?? null,
      Password: null,
      EjectPolicy: 'Persistent',
      Status: { State: 'Enabled', Health: 'OK' },
      Oem: { [OEM]: { '@odata.type': odataType(VendorVirtualMediaType), BootOnNextServerReset: m?.BootOnNextServerReset ?? false } },
    };
  }

  async function postInsert(ctx: OnMedia<typeof InsertMediaAction>) {
    const id = slotIdOf(ctx.params);
    const b = ctx.body;
    const act = InsertMediaAction.name;
    const req = insertRequest(b, {
      format: () => baseError('ActionParameterValueFormatError', withoutCredentials(b.Image), 'Image', act).about('Image'),
      conflict: () =>
        baseError('ActionParameterValueConflict', 'TransferProtocolType', String(b.TransferProtocolType)).about('TransferProtocolType'),
    });
    // DSP2046: eject before inserting another image.
    if (vm.media(id)) throw baseError('ResourceInUse');
    await vm.insert(id, { ...req, inserted: b.Inserted, writeProtected: b.WriteProtected }, ctx.principal.userName).catch(imageRefused);
    announce(ctx);
    return success();
  }

  function postEject(ctx: OnMedia<typeof EjectMediaAction>) {
    if (vm.eject(slotIdOf(ctx.params), ctx.principal.userName)) announce(ctx);
    return success();
  }

  async function patchMedia({ slot }: MediaView, ctx: PatchOnMedia): Promise<void> {
    const b = ctx.body;
    const id = slot.id;
    const user = ctx.principal.userName;
    const conflict = (prop: string) => baseError('PropertyValueConflict', prop, 'Image').about(prop);
    const vendor = b.Oem?.[OEM];
    if (b.Image === null) {
      vm.eject(id, user);
    } else if (b.Image !== undefined) {
      const image = b.Image;
      const req = insertRequest(
        { ...b, Image: image },
        {
          format: () => baseError('PropertyValueFormatError', withoutCredentials(image), 'Image').about('Image'),
          conflict: () => conflict('TransferProtocolType'),
        },
      );
      await vm
        .insert(id, { ...req, inserted: b.Inserted ?? undefined, writeProtected: b.WriteProtected ?? undefined }, user)
        .catch(imageRefused);
      if (vendor?.BootOnNextServerReset !== undefined) vm.update(id, { BootOnNextServerReset: vendor.BootOnNextServerReset });
      return;
    }
    // Without an Image, only what shows a connected one may change.
    const credentials = (['TransferProtocolType', 'TransferMethod', 'UserName', 'Password'] as const).filter((k) => b[k] !== undefined);
    if (credentials.length) throw conflict(credentials[0] as string);
    const change = {
      ...(b.Inserted !== undefined ? { Inserted: b.Inserted } : {}),
      ...(b.WriteProtected !== undefined ? { WriteProtected: b.WriteProtected } : {}),
      ...(vendor?.BootOnNextServerReset !== undefined ? { BootOnNextServerReset: vendor.BootOnNextServerReset } : {}),
    };
    const keys = Object.keys(change);
    if (!keys.length) return;
    if (!vm.media(id)) throw conflict(keys[0] === 'BootOnNextServerReset' ? `Oem/${OEM}/BootOnNextServerReset` : (keys[0] as string));
    vm.update(id, change);
  }

  return { show, postInsert, postEject, patchMedia };
}

/**
 * The same devices under the manager (iLO's place) and under the system (DMTF's current
 * place; Manager.VirtualMedia is deprecated): one state behind both.
 */
export function registerVirtualMediaRoutes(routes: RouteTable, d: VirtualMediaDeps): void {
  const h = handlers(d);
  const common = {
    type: VirtualMediaType,
    name: 'Virtual Media Services',
    extra: () => ({ Description: 'Virtual media devices of the management controller' }),
    show: h.show,
    privileges: { read: Priv.login, write: Priv.virtualMedia },
    update: { handler: h.patchMedia },
  };
  const actions = () => [
    action(InsertMediaAction, Priv.virtualMedia, h.postInsert),
    action(EjectMediaAction, Priv.virtualMedia, h.postEject),
    action(InsertVirtualMediaAction, Priv.virtualMedia, h.postInsert),
    action(EjectVirtualMediaAction, Priv.virtualMedia, h.postEject),
  ];
  addCollection(routes, {
    ...common,
    collection: '/redfish/v1/Managers/{ManagerId}/VirtualMedia/',
    member: '/redfish/v1/Managers/{ManagerId}/VirtualMedia/{VirtualMediaId}/',
    store: viewsOf(d.virtualMedia, 0),
    memberActions: actions(),
  });
  addCollection(routes, {
    ...common,
    collection: '/redfish/v1/Systems/{SystemId}/VirtualMedia/',
    member: '/redfish/v1/Systems/{SystemId}/VirtualMedia/{VirtualMediaId}/',
    store: viewsOf(d.virtualMedia, SYSTEM_VIEW_OFFSET),
    memberActions: actions(),
  });
}
