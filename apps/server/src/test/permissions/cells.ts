import type { ClientFrame, ErrorCode } from '@teltlk/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { type Actor, ACTORS, type Caller, type Cast } from '../cast.js';

/**
 * Who may do what, for every route the app registers and every socket frame, tried by each
 * actor of the cast against the owner's things (see cast.ts), and by a caller with no
 * token. A route with no row here fails the suite: a new endpoint gets its place in the
 * table the day it lands.
 *
 * The matrix is three suites on one set-up (app.ts): the routes (routes.test.ts, their rows
 * in rows-*.ts by topic), the sensitive column (sensitive.test.ts) and the socket frames
 * (frames.test.ts). This file holds what their tables are written in: the cells.
 */

/** `ok`: 2xx. Otherwise the error the call must answer. */
export type Want = 'ok' | ErrorCode;
/**
 * A cell whose fix belongs to another change: skipped until it lands, with the behaviour
 * it waits for. Turn it on by writing the `want` in its place.
 */
export interface Todo {
  want: Want;
  todo: string;
}
export type Cell<W = Want> = W | Todo;
export type Cells<W = Want> = Record<Actor, Cell<W>>;

export interface Row {
  /** `METHOD /url` as registered (HEAD runs the GET route's hooks and handler). */
  route: string;
  /** What the row tries, where a route has several rows. */
  on?: string;
  cells: Cells;
  run(w: Cast, as: Caller): Promise<LightMyRequestResponse>;
  /** Further checks after the call (every signed-in actor, whatever the answer). */
  check?(w: Cast, as: Actor, response: LightMyRequestResponse): Promise<void>;
  /** Puts back what a successful call changed and later rows rely on. */
  restore?(w: Cast, as: Actor): Promise<void>;
}

export const OK = 'ok';
const NO_GROUP = 'GROUP_NOT_FOUND' satisfies ErrorCode;
export const NO_CHAT = 'CONVERSATION_NOT_FOUND' satisfies ErrorCode;
export const STAFF_ONLY = 'GROUP_ROLE_REQUIRED' satisfies ErrorCode;
const OWNER_ONLY = 'GROUP_OWNER_REQUIRED' satisfies ErrorCode;

/** Routes on the caller's own account or open to anyone signed in. */
export const SIGNED_IN: Cells = {
  owner: OK,
  admin: OK,
  member: OK,
  blocked: OK,
  removed: OK,
  stranger: OK,
};
/** The group's members; a block between members changes nothing here; outsiders see no group. */
export const GROUP_MEMBERS: Cells = {
  owner: OK,
  admin: OK,
  member: OK,
  blocked: OK,
  removed: NO_GROUP,
  stranger: NO_GROUP,
};
export const GROUP_STAFF: Cells = { ...GROUP_MEMBERS, member: STAFF_ONLY, blocked: STAFF_ONLY };
export const GROUP_OWNER: Cells = {
  ...GROUP_MEMBERS,
  admin: OWNER_ONLY,
  member: OWNER_ONLY,
  blocked: OWNER_ONLY,
};
/** The group's conversation: its members; to anyone else it does not exist. */
export const GROUP_CHAT: Cells = { ...GROUP_MEMBERS, removed: NO_CHAT, stranger: NO_CHAT };
/**
 * A one-to-one chat: the owner and the member are its two people, and the blocked user
 * acts on their own chat with the owner; to anyone else the owner's chat does not exist.
 */
export const SINGLE_CHAT: Cells = {
  owner: OK,
  admin: NO_CHAT,
  member: OK,
  blocked: OK,
  removed: NO_CHAT,
  stranger: NO_CHAT,
};

export const groupChat = (w: Cast) => `sg_${w.group.id}`;

/** Media in the group chat: its members see it; to anyone else it does not exist. */
export const GROUP_MEDIA: Cells = {
  ...GROUP_MEMBERS,
  removed: 'MEDIA_NOT_FOUND',
  stranger: 'MEDIA_NOT_FOUND',
};
/** The owner's alone (a session, an unfinished upload); to anyone else it does not exist. */
export const OWNER_ONLY_THING: Cells = {
  owner: OK,
  admin: 'NOT_FOUND',
  member: 'NOT_FOUND',
  blocked: 'NOT_FOUND',
  removed: 'NOT_FOUND',
  stranger: 'NOT_FOUND',
};
/** Routes of a Pi account's own money: only the owner here is bound to Pi. */
export const PI_USERS_ONLY: Cells = {
  owner: OK,
  admin: 'PI_ONLY',
  member: 'PI_ONLY',
  blocked: 'PI_ONLY',
  removed: 'PI_ONLY',
  stranger: 'PI_ONLY',
};
/** A payment password route: the caller's own password is checked, never the owner's. */
export const NO_PASSWORD_OF_THEIR_OWN: Cells = {
  owner: OK,
  admin: 'PAYMENT_PASSWORD_NOT_SET',
  member: 'PAYMENT_PASSWORD_NOT_SET',
  blocked: 'PAYMENT_PASSWORD_NOT_SET',
  removed: 'PAYMENT_PASSWORD_NOT_SET',
  stranger: 'PAYMENT_PASSWORD_NOT_SET',
};

/** The one-to-one chat an actor acts on. */
export const chatOf = (w: Cast, as: Caller) => (as === 'blocked' ? w.blockedChat : w.single);

export const rowName = (row: { route: string; on?: string }) =>
  row.on ? `${row.route} (${row.on})` : row.route;
/** Every cell of a table, with the anonymous caller's. */
export function cases<R extends { cells: Cells<W> }, W>(rows: readonly R[], anonymous: W) {
  return rows.flatMap((row) =>
    [...ACTORS, 'anonymous' as const].map((as) => {
      const cell: Cell<W> = as === 'anonymous' ? anonymous : row.cells[as];
      const todo = typeof cell === 'object' && cell !== null && 'todo' in cell ? cell : null;
      return { row, as, want: todo ? todo.want : (cell as W), todo: todo?.todo ?? null };
    }),
  );
}

/**
 * How a socket frame may come out: answered, refused with a code (an error frame), dropped
 * in silence, or (before the auth frame) the socket closed.
 */
export type FrameWant = Want | 'dropped' | 'closed';
export interface FrameRow {
  frame: ClientFrame['t'];
  on?: 'group' | 'one-to-one';
  cells: Cells<FrameWant>;
}
