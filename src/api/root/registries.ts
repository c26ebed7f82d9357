// Message registries and the registry file store.
import { Priv } from '../../lib/privileges.js';
import type { RegistryFile } from '../../domain/registry-files.js';
import { addCollection } from '../../protocol/collections.js';
import { defineType, ro, t, commonProps } from '../../protocol/description.js';
import { RawReply } from '../../protocol/reply.js';
import { present, type Context, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const REGISTRY_STORE_URI = '/redfish/v1/RegistryStore/registries/en/';

export const MessageRegistryFileType = defineType({
  name: 'MessageRegistryFile',
  version: '1.1.5',
  owner: 'DMTF',
  description: 'Where a registry can be read, per language.',
  properties: {
    ...commonProps,
    Languages: ro(t.array(t.string())),
    Registry: ro(t.string()),
    Location: ro(
      t.array(
        t.object(
          { Language: ro(t.string()), Uri: ro(t.string({ format: 'uri-reference' })), PublicationUri: ro(t.string({ format: 'uri' })) },
          { typeName: 'Location' },
        ),
      ),
    ),
  },
});

/** What the registries area uses. */
export type RegistryDeps = Pick<Services, 'registries'>;

function registryFileBody(f: RegistryFile): Record<string, unknown> {
  return {
    Id: f.id,
    Name: `${f.id} Registry File`,
    Description: f.description,
    Languages: ['en'],
    Registry: f.registry,
    Location: [
      { Language: 'en', Uri: `${REGISTRY_STORE_URI}${f.fileName}`, ...(f.publicationUri ? { PublicationUri: f.publicationUri } : {}) },
    ],
  };
}

function handlers(d: RegistryDeps) {
  return { getRegistryFile };

  function getRegistryFile(ctx: Context<'/redfish/v1/RegistryStore/registries/en/{File}'>) {
    const f = present(d.registries.byFileName(ctx.params.File), ctx);
    return new RawReply(200, 'application/json; charset=utf-8', f.gz, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
  }
}

export function registerRegistryRoutes(routes: RouteTable, d: RegistryDeps): void {
  const h = handlers(d);

  addCollection(routes, {
    collection: '/redfish/v1/Registries/',
    member: '/redfish/v1/Registries/{RegistryId}/',
    type: MessageRegistryFileType,
    name: 'Registry File Collection',
    extra: () => ({ Description: 'Registry Repository' }),
    store: { list: () => d.registries.list(), get: (id) => d.registries.get(id), id: (f) => f.id },
    show: registryFileBody,
    privileges: { read: Priv.login },
  });
  routes.add({
    path: '/redfish/v1/RegistryStore/registries/en/{File}',
    file: true,
    params: { File: (name) => d.registries.byFileName(name) !== undefined },
    get: { privilege: Priv.login, handler: h.getRegistryFile },
  });
}
