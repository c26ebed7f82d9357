// A collection and its members, declared once: both routes, the member id's
// resolver (from the store, so member handlers never look ids up), the
// collection body, 201 Created with Location on create, PATCH and DELETE of a
// member. Areas with a plain CRUD collection use this instead of two blocks.
import { Representations } from '../lib/memo.js';
import { sometimesLate } from '../lib/self-check.js';
import type { PrivilegeRule } from '../lib/privileges.js';
import { collectionOf, type Props, type ResourceType } from './description.js';
import { collection, created } from './reply.js';
import {
  paramNamesOf,
  present,
  type ActionRoute,
  type Context,
  type ParamResolver,
  type PatchContext,
  type PathParams,
  type PostContext,
  type RouteTable,
} from './routes.js';

type Maybe<T> = T | Promise<T>;

/** Where a collection's members come from, given the collection's path parameters. */
export interface MemberStore<R, Params> {
  /** Every member, in the order the collection shows them. */
  list(params: Params): Maybe<readonly R[]>;
  /** The member with this id, if any (also answers the member id's resolver). */
  get(id: string, params: Params): Maybe<R | undefined>;
  /** The member's id, as its URI shows it. */
  id(member: R): string;
  /**
   * The member as stored, shared and frozen: the same object until it changes. With it a
   * member's GET is built once per change (and per `moving` key), not once per request.
   */
  peek?(id: string, params: Params): Maybe<R | undefined>;
}

/** What `show` knows of the member it shows: its collection's parameters and its own URI. */
export interface MemberAt<C extends string> {
  params: PathParams<C>;
  uri: string;
}

export interface CollectionSpec<
  C extends string,
  M extends string,
  R,
  T extends ResourceType<Props, undefined>,
  CB extends Props,
  UB extends Props,
> {
  // C and M are inferred from the two paths alone (NoInfer elsewhere), so a
  // callback's declared context can only be checked against them, never widen them.
  /** The collection's literal path, e.g. '/redfish/v1/.../Certificates/'. */
  collection: C;
  /** The member's literal path: the collection's plus '{MemberId}/'. */
  member: M;
  /** The member type; the collection's is `collectionOf(type)` unless given. */
  type: T;
  collectionType?: ResourceType<Props, T>;
  /** The collection's Name. */
  name: string;
  /** Properties the collection shows besides Name and Members (Description...). */
  extra?: (params: PathParams<NoInfer<C>>) => Record<string, unknown>;
  store: MemberStore<R, PathParams<NoInfer<C>>>;
  /** A member's representation. */
  show(member: R, at: MemberAt<NoInfer<C>>): Record<string, unknown>;
  /** What a member's representation shows besides the stored member (values moving with the clock); needs store.peek. */
  moving?(member: R): readonly unknown[];
  /** Who reads the collection and its members, and who creates, changes and removes them (needed with any of those). */
  privileges: { read: PrivilegeRule; write?: PrivilegeRule };
  /** POST to the collection: makes the member, answered 201 with Location and its body. */
  create?: { body?: CB; handler(ctx: PostContext<NoInfer<C>, CB>): Maybe<R> };
  /** PATCH of a member; answers what the handler returns (nothing: a Success message). */
  update?: { body?: UB; handler(member: R, ctx: PatchContext<NoInfer<M>, UB>): unknown };
  /** DELETE of a member. */
  remove?(member: R, ctx: Context<NoInfer<M>>): unknown;
  /** Collections (and their members) that only allow reading, by their parameters. */
  readOnlyFor?(params: PathParams<NoInfer<C>>): boolean;
  /** Resolvers of the collection's own parameters, unless the table's shared ones cover them. */
  params?: Readonly<Record<string, ParamResolver>>;
  collectionActions?: readonly ActionRoute<NoInfer<C>, any>[];
  memberActions?: readonly ActionRoute<NoInfer<M>, any>[];
}

/** Registers a collection and its members (two routes); the member's last {Param} is its id. */
export function addCollection<
  const C extends string,
  const M extends `${C}{${string}}/`,
  R,
  T extends ResourceType<Props, undefined>,
  CB extends Props = T['properties'],
  UB extends Props = T['properties'],
>(routes: RouteTable, spec: CollectionSpec<C, M, R, T, CB, UB>): void {
  const { store, privileges, create, update, remove } = spec;
  // Asked only when a write is declared.
  const write = (): PrivilegeRule => {
    if (!privileges.write) throw new Error(`${spec.collection}: writes need privileges.write`);
    return privileges.write;
  };
  const names = paramNamesOf(spec.member);
  const idName = names[names.length - 1] as string;
  if (names.length !== paramNamesOf(spec.collection).length + 1)
    throw new Error(`member ${spec.member} must add one {Param} to ${spec.collection}`);

  const memberUri = (params: Readonly<Record<string, string>>, id: string): string =>
    spec.member.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(name === idName ? id : (params[name] ?? '')));
  // A member's path holds every {Param} of its collection's, and one more (checked above).
  const outer = (params: Readonly<Record<string, string>>): PathParams<C> => params as PathParams<C>;
  const show = (member: R, params: Readonly<Record<string, string>>): Record<string, unknown> =>
    spec.show(member, { params: outer(params), uri: memberUri(params, store.id(member)) });
  // The pipeline resolved the id before the handler: it is gone only if removed since.
  const find = async (ctx: Context<M>): Promise<R> => {
    const params: Readonly<Record<string, string>> = ctx.params;
    return present(await store.get(params[idName] ?? '', outer(params)), ctx);
  };
  const peek = store.peek && spec.moving && sometimesLate(store.peek.bind(store));
  const views = new Representations();
  /** A member's GET from its stored (frozen) self: rebuilt only when it or what moves changes. */
  const showKept = (ctx: Context<M>): Maybe<Record<string, unknown>> => {
    const params: Readonly<Record<string, string>> = ctx.params;
    const kept = (found: R | undefined) => {
      const member = present(found, ctx);
      return views.get(ctx.uri, [member, ...(spec.moving?.(member) ?? [])], () => show(member, params));
    };
    const found = peek?.(params[idName] ?? '', outer(params));
    return found instanceof Promise ? found.then(kept) : kept(found);
  };
  const exists: ParamResolver = (id, params) => {
    // Asked on every request under the member: the stored (frozen) member, not a copy, when there is one.
    const found = peek ? peek(id, outer(params)) : store.get(id, outer(params));
    return found instanceof Promise ? found.then((m) => m !== undefined) : found !== undefined;
  };
  const readOnlyFor = spec.readOnlyFor && ((params: Readonly<Record<string, string>>) => spec.readOnlyFor?.(outer(params)) ?? false);

  routes.add({
    path: spec.collection,
    type: spec.collectionType ?? collectionOf(spec.type),
    params: spec.params,
    readOnlyFor,
    get: {
      privilege: privileges.read,
      handler: async (ctx) => {
        const members = await store.list(ctx.params);
        return collection(
          spec.name,
          members.map((m) => memberUri(ctx.params, store.id(m))),
          spec.extra?.(ctx.params),
        );
      },
    },
    post: create && {
      privilege: write(),
      body: create.body,
      handler: async (ctx: PostContext<C, CB>) => {
        const member = await create.handler(ctx);
        return created(memberUri(ctx.params, store.id(member)), show(member, ctx.params));
      },
    },
    actions: spec.collectionActions,
  });

  routes.add({
    path: spec.member,
    type: spec.type,
    params: { ...spec.params, [idName]: exists },
    readOnlyFor,
    get: { privilege: privileges.read, handler: peek ? (ctx) => showKept(ctx) : async (ctx) => show(await find(ctx), ctx.params) },
    patch: update && {
      privilege: write(),
      body: update.body,
      handler: async (ctx: PatchContext<M, UB>) => update.handler(await find(ctx), ctx),
    },
    delete: remove && { privilege: write(), handler: async (ctx) => remove(await find(ctx), ctx) },
    actions: spec.memberActions,
  });
}
