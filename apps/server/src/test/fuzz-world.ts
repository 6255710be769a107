import { randomBytes } from 'node:crypto';
import {
  BURN_DURATIONS,
  singleConversationId,
  type AuthResult,
  type FriendRequest,
  type GroupApplicationListResult,
  type MyGroup,
  type SessionListResult,
  groupConversationId,
} from '@teltlk/protocol';
import pino from 'pino';
import { expect } from 'vitest';
import type { AppError } from '../errors.js';
import type { IgnoredColumns } from './db-digest.js';
import type { ValuePool } from './fuzz.js';
import { PASSWORD, uniqueEmail, type RegisteredUser, type TestApp } from './harness.js';

/**
 * Columns a refused request writes on purpose, so a refusal may change them. Nothing
 * else may change.
 */
export const WRITTEN_BY_REFUSALS: IgnoredColumns = {
  // A wrong password counts against the account and, after a few, locks it for a while.
  users: ['failed_logins', 'login_locked_until'],
  // A wrong code counts against it, and burns it after CODE_MAX_ATTEMPTS.
  verification_codes: ['attempts', 'consumed_at'],
};

/**
 * Warnings and errors the server logs: an input that became an unexpected error, or
 * background work (a translation) that failed, logs one; the fuzz suites expect none.
 */
export function warningLog(lines: string[]) {
  return pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
}

/** Whose token a fuzzed request carries. */
export type Caller = 'owner' | 'friend' | 'stranger' | 'revoked' | 'none';

/**
 * The data a fuzzed request may touch, made through the public API: an owner with a
 * friend, a chat and a group with messages, a second session, a pending friend request
 * and group application from a stranger, and fresh codes and a registration ticket.
 * Its ids, codes and numbers are the pool valid-looking inputs are drawn from.
 */
export class FuzzWorld {
  private constructor(
    private readonly t: TestApp,
    readonly users: { owner: RegisteredUser; friend: RegisteredUser; stranger: RegisteredUser },
    private readonly tokens: Record<Caller, string | null>,
    readonly pool: ValuePool,
    /** Conversation ids: the owner's chat with the friend, and their group's. */
    readonly conversations: { single: string; group: string },
  ) {}

  static async create(t: TestApp): Promise<FuzzWorld> {
    const [owner, friend, stranger] = await Promise.all([
      t.register({ nickname: 'Owner' }),
      t.register({ nickname: 'Friend', motherTongue: 'es' }),
      t.register({ channel: 'phone', nickname: 'Stranger', motherTongue: 'ar', country: 'EG' }),
    ]);
    const call = async <T>(
      user: RegisteredUser | null,
      method: 'GET' | 'POST' | 'PATCH',
      url: string,
      body?: unknown,
    ): Promise<T> => {
      const response = await t.call(method, `/api/v1${url}`, {
        ...(user ? { token: user.token } : {}),
        body,
      });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return (response.body ? response.json() : undefined) as T;
    };
    const send = (user: RegisteredUser, conversationId: string, text: string) =>
      call(user, 'POST', '/messages', {
        conversationId,
        clientMsgId: `fuzz-${randomBytes(6).toString('hex')}`,
        content: { kind: 'text', text },
      });

    const request = await call<FriendRequest>(owner, 'POST', '/friend-requests', {
      userId: friend.user.id,
      greeting: 'Hi',
    });
    await call(friend, 'POST', `/friend-requests/${request.id}/accept`);
    const pending = await call<FriendRequest>(stranger, 'POST', '/friend-requests', {
      userId: owner.user.id,
      greeting: 'Hello',
    });
    const single = singleConversationId(owner.user.id, friend.user.id);
    await send(owner, single, 'Good morning, shall we meet at the station today?');
    await send(friend, single, 'Buenos días, ¿nos vemos hoy en la estación?');
    await send(owner, single, '👋');

    const group = await call<MyGroup>(owner, 'POST', '/groups', {
      name: 'Fuzzers',
      memberIds: [friend.user.id],
    });
    const groupConversation = groupConversationId(group.id);
    await call(owner, 'PATCH', `/groups/${group.id}`, { verification: 'approval' });
    await call(stranger, 'POST', `/groups/${group.id}/join`, { message: 'Let me in' });
    const { toReview } = await call<GroupApplicationListResult>(
      owner,
      'GET',
      '/group-applications',
    );
    await send(owner, groupConversation, 'Welcome to the group, everyone.');
    await send(friend, groupConversation, 'Gracias!');
    // A group call that rings, for the call frames and routes to find.
    const { sessionId } = await t.ctx.services.sessions.authenticate(owner.token);
    const ringing = await t.ctx.services.calls.invite(
      { userId: owner.user.id, sessionId },
      { clientCallId: 'fuzz-call-1', conversationId: groupConversation, media: 'audio' },
    );

    const login = () =>
      call<AuthResult>(null, 'POST', '/auth/login', {
        account: owner.destination,
        password: PASSWORD,
      });
    await login();
    const revoked = await login();
    await t.call('POST', '/api/v1/auth/logout', { token: revoked.token });
    const { sessions } = await call<SessionListResult>(owner, 'GET', '/sessions');

    // Codes waiting to be used, and a ticket waiting to finish a registration.
    for (const purpose of ['login', 'reset'] as const) {
      await call(null, 'POST', '/auth/codes', {
        purpose,
        channel: owner.channel,
        destination: owner.destination,
      });
    }
    const newcomer = uniqueEmail();
    await call(null, 'POST', '/auth/codes', {
      purpose: 'register',
      channel: 'email',
      destination: newcomer,
    });
    const { ticket } = await call<{ ticket: string }>(null, 'POST', '/auth/codes/verify', {
      purpose: 'register',
      channel: 'email',
      destination: newcomer,
      code: t.codeFor(newcomer, 'register'),
    });

    const ids = [owner, friend, stranger].map(({ user }) => user.id);
    const others = [friend.user.id, stranger.user.id];
    const words = ['Ada', 'Ünïcødé 名前 🎉'];
    const languages = ['en', 'es', 'zh', 'ar'];
    const codes = [t.codeFor(owner.destination, 'login'), t.codeFor(owner.destination, 'reset')];
    const named: Record<string, readonly unknown[]> = {
      id: [
        ...ids,
        group.id,
        single,
        groupConversation,
        request.id,
        pending.id,
        ...toReview.map((application) => application.id),
        ...sessions.map((session) => session.id),
      ],
      'sessions.id': sessions.map((session) => session.id),
      'users.id': ids,
      'friends.id': [friend.user.id],
      'blocks.id': others,
      'friend-requests.id': [pending.id],
      'conversations.id': [single, groupConversation],
      'groups.id': [group.id],
      'group-applications.id': toReview.map((application) => application.id),
      'members.userId': [friend.user.id],
      userId: ids,
      memberIds: others,
      userIds: others,
      mentions: others,
      senderId: ids,
      conversationId: [single, groupConversation],
      seq: [1, 2, 3],
      targetSeq: [1, 2, 3],
      seqs: [1, 2, 3],
      after: [0, 1, 2],
      before: [2, 3],
      since: [0],
      limit: [1, 10],
      q: [friend.user.teltlkId, friend.destination, stranger.destination],
      no: [group.groupNo],
      destination: [owner.destination, stranger.destination, newcomer],
      account: [owner.destination, owner.user.teltlkId],
      code: codes,
      ticket: [ticket],
      nickname: words,
      name: words,
      remark: words,
      greeting: words,
      message: words,
      notice: words,
      text: words,
      password: [PASSWORD],
      currentPassword: [PASSWORD],
      newPassword: ['N3wPassw0rd!'],
      country: ['CN', 'US', 'EG'],
      motherTongue: languages,
      lang: languages,
      to: languages,
      translateTo: languages,
      inviteCode: [friend.user.inviteCode],
      teltlkId: [`Fz${randomBytes(4).toString('hex')}`],
      seconds: [...BURN_DURATIONS, 600],
    };
    const strings = [
      ...Object.values(named)
        .flat()
        .filter((value): value is string => typeof value === 'string'),
      owner.user.teltlkId,
      friend.user.teltlkId,
    ];
    const numbers = [0, 1, 2, 3, 4, 5, 100, 600, ...BURN_DURATIONS];
    // The call's fields by name only: left out of the strings every other input draws
    // from, so the inputs of the rest stay as they were.
    Object.assign(named, {
      'calls.id': [ringing.id],
      callId: [ringing.id],
      clientCallId: ['fuzz-call-1', 'fuzz-call-2'],
      media: ['audio', 'video'],
    });
    return new FuzzWorld(
      t,
      { owner, friend, stranger },
      {
        owner: owner.token,
        friend: friend.token,
        stranger: stranger.token,
        revoked: revoked.token,
        none: null,
      },
      { strings: [...new Set(strings)], numbers, named },
      { single, group: groupConversation },
    );
  }

  token(caller: Caller): string | null {
    return this.tokens[caller];
  }

  /**
   * Signs a user in again whose session a fuzzed request ended (sign-out, a new
   * password), so later cases still reach past authentication. True if it wrote.
   */
  async keepSignedIn(): Promise<boolean> {
    const { sessions } = this.t.ctx.services;
    let wrote = false;
    for (const caller of ['owner', 'friend', 'stranger'] as const) {
      const token = this.tokens[caller];
      if (!token) continue;
      try {
        await sessions.authenticate(token);
      } catch (error) {
        const { code } = error as AppError;
        if (code !== 'TOKEN_EXPIRED' && code !== 'UNAUTHENTICATED') throw error;
        const fresh = await sessions.create(
          this.users[caller].user.id,
          {
            ip: null,
            userAgent: null,
          },
          'password',
        );
        this.tokens[caller] = fresh.token;
        wrote = true;
      }
    }
    return wrote;
  }
}
