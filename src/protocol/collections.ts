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

/**
 * What a collection's handlers share, in one object: helpers here take it rather than each
 * being a closure of its own (a fleet holds every controller's, about 50 collections each).
 */
interface Held<R> {
  /** The spec as declared (its callbacks called on it), seen with any collection's parameters. */
  spec: {
    member: string;
    name: string;
    store: MemberStore<R, Readonly<Record<string, string>>>;
    show(member: R, at: { params: Readonly<Record<string, string>>; uri: string }): Record<string, unknown>;
    moving?(member: R): readonly unknown[];
    extra?(params: Readonly<Record<string, string>>): Record<string, unknown>;
    readOnlyFor?(params: Readonly<Record<string, string>>): boolean;
  };
  idName: string;
  /** The store's peek, when the member's GET is kept between changes (`moving` declared). */
  peek?: (id: string, params: Readonly<Record<string, string>>) => Maybe<R | undefined>;
  /** The members' kept GETs, made at the first (most of a fleet's collections never have one). */
  views?: Representations;
}

function memberUri(c: Held<unknown>, params: Readonly<Record<string, string>>, id: string): string {
  return c.spec.member.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(name === c.idName ? id : (params[name] ?? '')));
}

// A member's path holds every {Param} of its collection's, and one more (checked as it is added).
function show<R>(c: Held<R>, member: R, params: Readonly<Record<string, string>>): Record<string, unknown> {
  return c.spec.show(member, { params, uri: memberUri(c, params, c.spec.store.id(member)) });
}

/** The member a handler serves: the pipeline resolved its id, so it is gone only if removed since. */
async function find<R>(c: Held<R>, ctx: { params: Readonly<Record<string, string>>; uri: string }): Promise<R> {
  return present(await c.spec.store.get(ctx.params[c.idName] ?? '', ctx.params), ctx);
}

/** A member's GET from its stored (frozen) self: rebuilt only when it or what moves changes. */
function showKept<R>(c: Held<R>, ctx: { params: Readonly<Record<string, string>>; uri: string }): Maybe<Record<string, unknown>> {
  const { params } = ctx;
  const kept = (found: R | undefined) => {
    const member = present(found, ctx);
    return (c.views ??= new Representations()).get(ctx.uri, [member, ...(c.spec.moving?.(member) ?? [])], () => show(c, member, params));
  };
  const found = c.peek!(params[c.idName] ?? '', params);
  return found instanceof Promise ? found.then(kept) : kept(found);
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

  const c: Held<R> = {
    spec,
    idName,
    peek: store.peek && spec.moving && sometimesLate(store.peek.bind(store) as Held<R>['peek'] & {}),
  };
  const exists: ParamResolver = (id, params) => {
    // Asked on every request under the member: the stored (frozen) member, not a copy, when there is one.
    const found = c.peek ? c.peek(id, params) : c.spec.store.get(id, params);
    return found instanceof Promise ? found.then((m) => m !== undefined) : found !== undefined;
  };
  const readOnlyFor = spec.readOnlyFor && ((params: Readonly<Record<string, string>>) => c.spec.readOnlyFor?.(params) ?? false);

  routes.add({
    path: spec.collection,
    type: spec.collectionType ?? collectionOf(spec.type),
    params: spec.params,
    readOnlyFor,
    get: {
      privilege: privileges.read,
      handler: async (ctx) => {
        const members = await c.spec.store.list(ctx.params);
        return collection(
          c.spec.name,
          members.map((m) => memberUri(c, ctx.params, c.spec.store.id(m))),
          c.spec.extra?.(ctx.params),
        );
      },
    },
    post: create && {
      privilege: write(),
      body: create.body,
      handler: async (ctx: PostContext<C, CB>) => {
        const member = await create.handler(ctx);
        return created(memberUri(c, ctx.params, c.spec.store.id(member)), show(c, member, ctx.params));
      },
    },
    actions: spec.collectionActions,
  });

  routes.add({
    path: spec.member,
    type: spec.type,
    params: { ...spec.params, [idName]: exists },
    readOnlyFor,
    get: {
      privilege: privileges.read,
      handler: c.peek ? (ctx) => showKept(c, ctx) : async (ctx) => show(c, await find(c, ctx), ctx.params),
    },
    patch: update && {
      privilege: write(),
      body: update.body,
      handler: async (ctx: PatchContext<M, UB>) => update.handler(await find(c, ctx), ctx),
    },
    delete: remove && { privilege: write(), handler: async (ctx) => remove(await find(c, ctx), ctx) },
    actions: spec.memberActions,
  });
}
