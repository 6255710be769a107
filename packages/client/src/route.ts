import type { Endpoint, Endpoints } from '@teltlk/protocol';

/** What an answer is read as: JSON, nothing (204), or the bytes themselves. */
export type ResultKind = 'json' | 'bytes' | null;

declare const declared: unique symbol;

/**
 * What the client needs of an endpoint to call it, without its schemas: the schemas
 * would bring zod into every screen that calls the API, while the server already checks
 * what comes in and what goes out. The declaration stays in the type, so a call's input
 * and result are the declaration's own.
 */
export interface Route<E extends Endpoint = Endpoint> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly result: ResultKindOf<E>;
  /** Never set: carries the declaration's type to the call. */
  readonly [declared]?: E;
}

export type ResultKindOf<E extends Endpoint> = KindOf<E['result']>;

type KindOf<R> = R extends null ? null : R extends 'bytes' ? 'bytes' : 'json';

/** The declaration a route stands for (each one's, for a choice of routes). */
export type EndpointOf<R extends Route> = R extends Route<infer E> ? E : never;

/** A route for each declaration of each group. */
export type RoutesOf<G extends Record<string, Endpoints>> = {
  readonly [Group in keyof G]: { readonly [Name in keyof G[Group]]: Route<G[Group][Name]> };
};
