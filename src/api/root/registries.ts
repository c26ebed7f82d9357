// Message registries (Errors 7, Events 7) and the registry file store (G11).
import { Priv } from '../../lib/privileges.js';
import { baseError } from '../../messages/errors.js';
import { collectionOf, defineType, ro, t, commonProps } from '../../protocol/description.js';
import { RawReply, collection } from '../../protocol/reply.js';
import { present, type RouteTable } from '../../protocol/routes.js';
import type { Services } from '../services.js';

export const REGISTRIES_URI = '/redfish/v1/Registries/';
export const REGISTRY_STORE_URI = '/redfish/v1/RegistryStore/registries/en/';

export const MessageRegistryFileType = defineType({
  name: 'MessageRegistryFile',
  version: '1.1.3',
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

export function registerRegistryRoutes(routes: RouteTable, s: Services): void {
  s.rootLinks.Registries = REGISTRIES_URI;

  routes.add({
    path: REGISTRIES_URI,
    type: collectionOf(MessageRegistryFileType),
    get: {
      privilege: Priv.login,
      handler: () =>
        collection('Registry File Collection', s.registries.list().map((f) => `${REGISTRIES_URI}${f.id}/`), {
          Description: 'Registry Repository',
        }),
    },
  });

  routes.add({
    path: `${REGISTRIES_URI}{RegistryId}/`,
    type: MessageRegistryFileType,
    params: { RegistryId: (id) => s.registries.get(id) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const f = present(s.registries.get(ctx.params.RegistryId ?? ''), ctx);
        return {
          Id: f.id,
          Name: `${f.id} Registry File`,
          Description: f.description,
          Languages: ['en'],
          Registry: f.registry,
          Location: [
            {
              Language: 'en',
              Uri: `${REGISTRY_STORE_URI}${f.fileName}`,
              ...(f.publicationUri ? { PublicationUri: f.publicationUri } : {}),
            },
          ],
        };
      },
    },
  });

  routes.add({
    path: `${REGISTRY_STORE_URI}{File}`,
    file: true,
    params: { File: (name) => s.registries.byFileName(name) !== undefined },
    get: {
      privilege: Priv.login,
      handler: (ctx) => {
        const f = present(s.registries.byFileName(ctx.params.File ?? ''), ctx);
        return new RawReply(200, 'application/json; charset=utf-8', f.gz, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      },
    },
  });
}
