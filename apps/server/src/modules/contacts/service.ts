import {
  TELTLK_ID_PATTERN,
  isLanguageCode,
  isPlainName,
  type BlockListResult,
  type Friend,
  type FriendListResult,
  type FriendRequest,
  type FriendRequestListResult,
  type FriendRequestStatus,
  type OfficialListResult,
  type SendFriendRequestBody,
  type UserCard,
  type UserEventData,
  type UserProfile,
} from '@teltlk/protocol';
import type { Db, FriendRequestRow, UserRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { EventService, PendingEvent } from '../events/service.js';
import { isCountryCode } from '../meta/countries.js';
import { GeneratedValueCollision, type UserService } from '../users/service.js';
import type { ContactRepo, MessagingState } from './repo.js';
import { toFriend, toRequest } from './rows.js';
import { SearchLimiter } from './search-limiter.js';

export interface NewOfficialAccount {
  teltlkId: string;
  nickname: string;
  country?: string;
  language?: string;
}

export interface OfficialCreated {
  card: UserCard;
  /** False when an account with this Teltlk ID already existed (it is left unchanged). */
  created: boolean;
}

const INVITE_CODE_TRIES = 10;
const DEFAULT_OFFICIAL_COUNTRY = 'US';
const DEFAULT_OFFICIAL_LANGUAGE = 'en';

/** Friends, friend applications, blocks and official accounts, and who may message whom. */
export class ContactService {
  private readonly searches: SearchLimiter;

  constructor(
    private readonly deps: {
      db: Db;
      repo: ContactRepo;
      users: UserService;
      events: EventService;
      clock: Clock;
    },
  ) {
    this.searches = new SearchLimiter(deps.clock);
  }

  // -------------------------------------------------------------------------- for messaging

  /**
   * Throws AppError: USER_NOT_FOUND (no such user), MESSAGE_REFUSED (the recipient blocked
   * the sender), NOT_FRIENDS (neither friends nor an official account on either side).
   */
  async checkCanMessage(
    senderId: string,
    recipientId: string,
    db: Db = this.deps.db,
  ): Promise<void> {
    // One query: this runs for every message sent.
    const refused = refusal(await this.deps.repo.in(db).messagingState(senderId, recipientId));
    if (refused) throw refused;
  }

  /**
   * checkCanMessage for many (sender, recipient) pairs in one query: the error each pair
   * would throw, or null, keyed by `sender\nrecipient`.
   */
  async messagingRefusals(
    pairs: readonly (readonly [string, string])[],
    db: Db = this.deps.db,
  ): Promise<Map<string, AppError | null>> {
    const states = await this.deps.repo.in(db).messagingStates(pairs);
    const refusals = new Map<string, AppError | null>();
    for (const [senderId, recipientId] of pairs) {
      const key = `${senderId}\n${recipientId}`;
      refusals.set(key, refusal(states.get(key)));
    }
    return refusals;
  }

  /**
   * Which of these users blocked `userId`: a block holds in groups too, so they are not
   * added to a group, invited or @mentioned by them.
   */
  async blockersOf(
    userId: string,
    among: readonly string[],
    db: Db = this.deps.db,
  ): Promise<Set<string>> {
    const blocks = await this.blocksAmong(
      among.map((id) => [id, userId]),
      db,
    );
    return new Set(among.filter((id) => blocks.has(`${id}\n${userId}`)));
  }

  /** Which of these users are friends of `userId`. */
  friendsAmong(
    userId: string,
    ids: readonly string[],
    db: Db = this.deps.db,
  ): Promise<Set<string>> {
    return this.deps.repo.in(db).friendsAmong(userId, ids);
  }

  /** Which of these (blocker, blocked) pairs are blocks, as `blocker\nblocked` (one query). */
  blocksAmong(
    pairs: readonly (readonly [string, string])[],
    db: Db = this.deps.db,
  ): Promise<Set<string>> {
    return this.deps.repo.in(db).blocksAmong(pairs);
  }

  /** Card of any user (for conversation peers); unknown ids are left out. */
  async cards(userIds: readonly string[], db: Db = this.deps.db): Promise<Map<string, UserCard>> {
    const unique = [...new Set(userIds)];
    const rows = await this.deps.repo.in(db).usersByIds(unique);
    return new Map(rows.map((row) => [row.id, this.deps.users.toCard(row)]));
  }

  // -------------------------------------------------------------------------- people

  /** Exact look-up by phone, email or Teltlk ID; rate-limited against enumeration. */
  async search(auth: AuthInfo, query: string): Promise<UserProfile> {
    this.searches.take(auth.userId);
    const user = await this.deps.users.findByAccount(query);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return this.profileOf(auth.userId, user);
  }

  async profile(auth: AuthInfo, userId: string): Promise<UserProfile> {
    const user = await this.deps.repo.findUser(userId);
    if (!user) throw new AppError('USER_NOT_FOUND');
    return this.profileOf(auth.userId, user);
  }

  private async profileOf(viewerId: string, user: UserRow): Promise<UserProfile> {
    const { repo, users } = this.deps;
    const card = users.toCard(user);
    if (user.id === viewerId) return { ...card, relation: 'self', remark: null, blocked: false };
    const [friendship, blocked] = await Promise.all([
      repo.findFriendship(viewerId, user.id),
      repo.isBlocked(viewerId, user.id),
    ]);
    return {
      ...card,
      relation: friendship ? 'friend' : 'none',
      remark: friendship?.remark ?? null,
      blocked,
    };
  }

  // -------------------------------------------------------------------------- applications

  /** Received and sent applications, newest first; a blocked person's do not reach you. */
  async requests(auth: AuthInfo): Promise<FriendRequestListResult> {
    const { repo } = this.deps;
    const [received, sent, blocked] = await Promise.all([
      repo.requestsOf(auth.userId, 'received'),
      repo.requestsOf(auth.userId, 'sent'),
      repo.blockedIds(auth.userId),
    ]);
    const hidden = new Set(blocked);
    const visible = received.filter((row) => !hidden.has(row.from_user_id));
    const cards = await this.cards([
      auth.userId,
      ...visible.map((row) => row.from_user_id),
      ...sent.map((row) => row.to_user_id),
    ]);
    return {
      received: visible.map((row) => toRequest(row, cards)),
      sent: sent.map((row) => toRequest(row, cards)),
    };
  }

  /**
   * Sends an application, or renews the caller's earlier one to the same person. If that
   * person already asked the caller, this accepts their application instead.
   */
  async sendRequest(auth: AuthInfo, body: SendFriendRequestBody): Promise<FriendRequest> {
    const me = auth.userId;
    const target = body.userId;
    if (target === me) throw new AppError('CANNOT_ADD_SELF');
    const greeting = body.greeting ?? '';
    return this.transact(async (trx, events) => {
      const repo = this.deps.repo.in(trx);
      const user = await repo.findUser(target);
      if (!user) throw new AppError('USER_NOT_FOUND');
      // Anyone may message an official account without a friendship, so there is nothing to add.
      if (user.official === 1) throw invalidField('userId', 'user');
      if (await repo.findFriendship(me, target)) throw new AppError('ALREADY_FRIENDS');
      if (await repo.isBlocked(target, me)) throw new AppError('MESSAGE_REFUSED');

      const theirs = await repo.findRequestBetween(target, me);
      if (theirs?.status === 'pending') {
        return this.agree(trx, events, theirs);
      }
      const now = this.deps.clock.now();
      const row = await repo.upsertRequest({
        id: newId(),
        from_user_id: me,
        to_user_id: target,
        greeting,
        status: 'pending',
        created_at: now,
        updated_at: now,
        handled_at: null,
      });
      const request = toRequest(row, await this.cards([me, target], trx));
      await this.appendBoth(trx, events, [me, target], { type: 'friendRequest', request });
      return request;
    });
  }

  async acceptRequest(auth: AuthInfo, requestId: string): Promise<FriendRequest> {
    return this.transact(async (trx, events) => {
      const row = await this.pendingFor(trx, auth.userId, requestId);
      return this.agree(trx, events, row);
    });
  }

  async rejectRequest(auth: AuthInfo, requestId: string): Promise<FriendRequest> {
    return this.transact(async (trx, events) => {
      const row = await this.pendingFor(trx, auth.userId, requestId);
      const rejected = await this.settle(trx, row.id, 'rejected');
      const request = toRequest(
        rejected,
        await this.cards([row.from_user_id, row.to_user_id], trx),
      );
      await this.appendBoth(trx, events, [row.from_user_id, row.to_user_id], {
        type: 'friendRequest',
        request,
      });
      return request;
    });
  }

  /** A pending application the caller received; anyone else's looks absent. */
  private async pendingFor(trx: Db, userId: string, requestId: string): Promise<FriendRequestRow> {
    const row = await this.deps.repo.in(trx).findRequest(requestId);
    if (!row || row.to_user_id !== userId) throw new AppError('NOT_FOUND');
    if (row.status !== 'pending') throw new AppError('FRIEND_REQUEST_HANDLED');
    return row;
  }

  private async settle(
    trx: Db,
    id: string,
    status: FriendRequestStatus,
  ): Promise<FriendRequestRow> {
    const row = await this.deps.repo.in(trx).settleRequest(id, status, this.deps.clock.now());
    // Another call handled it between our read and this write.
    if (!row) throw new AppError('FRIEND_REQUEST_HANDLED');
    return row;
  }

  /**
   * Accepts a pending application: both sides become friends, and an application the
   * other way that is still pending is marked `added`.
   */
  private async agree(
    trx: Db,
    events: PendingEvent[],
    pending: FriendRequestRow,
  ): Promise<FriendRequest> {
    const repo = this.deps.repo.in(trx);
    const from = pending.from_user_id;
    const to = pending.to_user_id;
    const now = this.deps.clock.now();
    const agreed = await this.settle(trx, pending.id, 'agreed');
    const opposite = await repo.findRequestBetween(to, from);
    const added =
      opposite?.status === 'pending'
        ? await repo.settleRequest(opposite.id, 'added', now)
        : undefined;
    await repo.insertFriendship(from, to, now);

    const cards = await this.cards([from, to], trx);
    const request = toRequest(agreed, cards);
    await this.appendBoth(trx, events, [from, to], { type: 'friendRequest', request });
    if (added) {
      await this.appendBoth(trx, events, [from, to], {
        type: 'friendRequest',
        request: toRequest(added, cards),
      });
    }
    const sides: [string, UserEventData][] = [];
    for (const [owner, other] of [
      [from, to],
      [to, from],
    ] as const) {
      const side = await repo.findFriendship(owner, other);
      if (side) sides.push([owner, { type: 'friendAdded', friend: toFriend(side, cards) }]);
    }
    await this.appendEach(trx, events, sides);
    return request;
  }

  // -------------------------------------------------------------------------- friends

  /** Friends sorted by what the caller sees: the remark, else the nickname. */
  async friends(auth: AuthInfo): Promise<FriendListResult> {
    const rows = await this.deps.repo.friendships(auth.userId);
    const cards = await this.cards(rows.map((row) => row.friend_id));
    const friends = rows.flatMap((row) => (cards.has(row.friend_id) ? [toFriend(row, cards)] : []));
    const shown = (friend: Friend) => friend.remark ?? friend.user.nickname;
    friends.sort(
      (a, b) =>
        shown(a).localeCompare(shown(b), undefined, { sensitivity: 'base' }) ||
        a.user.id.localeCompare(b.user.id),
    );
    return { friends };
  }

  /** Sets the caller's remark for a friend; null or blank clears it. */
  async updateFriend(auth: AuthInfo, friendId: string, remark: string | null): Promise<Friend> {
    const value = remark === null || remark.trim() === '' ? null : remark.trim();
    return this.transact(async (trx, events) => {
      const row = await this.deps.repo.in(trx).setRemark(auth.userId, friendId, value);
      if (!row) throw new AppError('NOT_FOUND');
      const friend = toFriend(row, await this.cards([friendId], trx));
      events.push(
        await this.deps.events.append(trx, auth.userId, { type: 'friendUpdated', friend }),
      );
      return friend;
    });
  }

  /** Ends a friendship on both sides; ending one that does not exist changes nothing. */
  async deleteFriend(auth: AuthInfo, friendId: string): Promise<void> {
    await this.transact(async (trx, events) => {
      const removed = await this.deps.repo.in(trx).deleteFriendship(auth.userId, friendId);
      if (removed === 0) return;
      await this.appendEach(trx, events, [
        [auth.userId, { type: 'friendRemoved', userId: friendId }],
        [friendId, { type: 'friendRemoved', userId: auth.userId }],
      ]);
    });
  }

  // -------------------------------------------------------------------------- blocks

  async blocks(auth: AuthInfo): Promise<BlockListResult> {
    const ids = await this.deps.repo.blockedIds(auth.userId);
    const cards = await this.cards(ids);
    return { blocked: ids.flatMap((id) => cards.get(id) ?? []) };
  }

  /** Blocks a user (idempotent). It does not end a friendship: unblocking restores everything. */
  async block(auth: AuthInfo, userId: string): Promise<void> {
    if (userId === auth.userId) throw invalidField('id', 'user');
    await this.transact(async (trx, events) => {
      const repo = this.deps.repo.in(trx);
      const user = await repo.findUser(userId);
      if (!user) throw new AppError('USER_NOT_FOUND');
      if (!(await repo.insertBlock(auth.userId, userId, this.deps.clock.now()))) return;
      events.push(
        await this.deps.events.append(trx, auth.userId, {
          type: 'blocked',
          user: this.deps.users.toCard(user),
        }),
      );
    });
  }

  async unblock(auth: AuthInfo, userId: string): Promise<void> {
    await this.transact(async (trx, events) => {
      if (!(await this.deps.repo.in(trx).deleteBlock(auth.userId, userId))) return;
      events.push(await this.deps.events.append(trx, auth.userId, { type: 'unblocked', userId }));
    });
  }

  // -------------------------------------------------------------------------- official accounts

  async officialAccounts(): Promise<OfficialListResult> {
    const rows = await this.deps.repo.officialAccounts();
    return { accounts: rows.map((row) => this.deps.users.toCard(row)) };
  }

  /**
   * Creates a product account (operators only, from the command line). It has no email or
   * phone and a password hash no password matches, so nobody can sign in as it. An
   * existing account with this Teltlk ID is returned as it is, so the command can be rerun.
   */
  async createOfficial(input: NewOfficialAccount): Promise<OfficialCreated> {
    const { users } = this.deps;
    const teltlkId = input.teltlkId.trim();
    const nickname = input.nickname.trim();
    if (!TELTLK_ID_PATTERN.test(teltlkId)) throw invalidField('teltlkId', 'teltlkId');
    if (nickname === '') throw invalidField('nickname', 'required');
    if (!isPlainName(nickname)) throw invalidField('nickname', 'nameCharacters');
    const country = (input.country ?? DEFAULT_OFFICIAL_COUNTRY).toUpperCase();
    if (!isCountryCode(country)) throw invalidField('country', 'country');
    const language = input.language ?? DEFAULT_OFFICIAL_LANGUAGE;
    if (!isLanguageCode(language)) throw invalidField('language', 'motherTongue');

    const existing = await users.findByAccount(teltlkId);
    if (existing) {
      if (existing.official !== 1) throw new AppError('TELTLK_ID_TAKEN');
      return { card: users.toCard(existing), created: false };
    }
    for (let attempt = 1; ; attempt += 1) {
      try {
        const row = await users.createOfficial({
          teltlkId,
          nickname,
          country,
          motherTongue: language,
        });
        return { card: users.toCard(row), created: true };
      } catch (error) {
        // A generated invitation code taken between the check and the insert: draw again.
        if (!(error instanceof GeneratedValueCollision) || attempt >= INVITE_CODE_TRIES)
          throw error;
      }
    }
  }

  // -------------------------------------------------------------------------- helpers

  /** Runs `work` in a transaction, then pushes the events it appended once committed. */
  private async transact<T>(work: (trx: Db, events: PendingEvent[]) => Promise<T>): Promise<T> {
    const events: PendingEvent[] = [];
    const result = await this.deps.db.transaction().execute((trx) => work(trx, events));
    this.deps.events.publish(events);
    return result;
  }

  private appendBoth(
    trx: Db,
    events: PendingEvent[],
    userIds: readonly string[],
    data: UserEventData,
  ): Promise<void> {
    return this.appendEach(
      trx,
      events,
      userIds.map((userId) => [userId, data]),
    );
  }

  /**
   * Appending locks each user's row (its event counter) until commit; taking the locks in
   * id order keeps two transactions about the same pair from deadlocking on PostgreSQL.
   */
  private async appendEach(
    trx: Db,
    events: PendingEvent[],
    entries: readonly (readonly [string, UserEventData])[],
  ): Promise<void> {
    const ordered = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [userId, data] of ordered) {
      events.push(await this.deps.events.append(trx, userId, data));
    }
  }
}

/** Why a sender may not message a recipient in this state (undefined: a user is missing), or null. */
function refusal(state: MessagingState | undefined): AppError | null {
  if (!state) return new AppError('USER_NOT_FOUND');
  if (state.blocked) return new AppError('MESSAGE_REFUSED');
  // Official accounts need no friendship: users read and reply to them like a chat.
  if (state.senderOfficial || state.recipientOfficial) return null;
  if (!state.friends) return new AppError('NOT_FRIENDS');
  return null;
}
