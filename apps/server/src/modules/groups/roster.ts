import {
  GROUP_READERS_DETAIL_MAX,
  GROUP_ROLE_RANK,
  MENTIONS_MAX,
  groupConversationId,
  groupRoleSchema,
  mayInGroup,
  type FriendRequest,
  type GroupMember,
  type GroupMembersResult,
  type GroupRole,
  type MessageReadsResult,
  type UserCard,
} from '@teltlk/protocol';
import { AppError, invalidField } from '../../errors.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { MemberCursor, MemberListRow } from '../messages/membership.js';
import { must, type GroupCore } from './core.js';

/** Roles in the order the member list shows them. */
const ROLE_ORDER: readonly GroupRole[] = ['owner', 'admin', 'member'];

/**
 * A group's members: listing them, inviting, removing, roles and mutes, handing the group
 * on, quitting, and who has read a message. Who may act on whom comes from
 * GROUP_PERMISSIONS and GROUP_ROLE_RANK.
 */
export class GroupRoster {
  constructor(private readonly core: GroupCore) {}

  /**
   * For a call in a group: whether the member may start one (the group's call policy
   * against their role; any member may join a running one), and the other members to
   * ring, unless there are more than `ringMax` of them (a large group sees the call in its
   * chat and joins from there). Throws GROUP_NOT_FOUND for a non-member.
   */
  async callRoster(
    userId: string,
    groupId: string,
    ringMax: number,
  ): Promise<{ mayStart: boolean; ringIds: string[] }> {
    const { group, role } = await this.core.memberOf(this.core.deps, groupId, userId);
    const mayStart = group.call_policy !== 'admins' || role === 'owner' || role === 'admin';
    if (Number(group.member_count) - 1 > ringMax) return { mayStart, ringIds: [] };
    const conversationId = groupConversationId(groupId);
    const ringIds: string[] = [];
    for (const memberRole of ROLE_ORDER) {
      const rows = await this.core.deps.members.memberPage(
        conversationId,
        memberRole,
        null,
        undefined,
        ringMax + 1,
      );
      for (const row of rows) if (row.user_id !== userId) ringIds.push(row.user_id);
    }
    return { mayStart, ringIds: ringIds.slice(0, ringMax) };
  }

  /**
   * Owner, admins, then members by joining time; `q` searches. The cursor is the last
   * member of the page, so every page is an index range whatever the group's size.
   */
  async members(
    userId: string,
    groupId: string,
    query: { q?: string | undefined; cursor?: string | undefined; limit: number },
  ): Promise<GroupMembersResult> {
    const { members } = this.core.deps;
    await this.core.memberOf(this.core.deps, groupId, userId);
    const cursor = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const conversationId = groupConversationId(groupId);
    const q = query.q === undefined || query.q === '' ? undefined : query.q;
    const rows: MemberListRow[] = [];
    // One more than the page tells whether another follows.
    const wanted = query.limit + 1;
    const startAt = cursor ? ROLE_ORDER.indexOf(cursor.role as GroupRole) : 0;
    for (let index = Math.max(0, startAt); index < ROLE_ORDER.length; index += 1) {
      const role = ROLE_ORDER[index]!;
      const after = cursor && cursor.role === role ? cursor : null;
      rows.push(
        ...(await members.memberPage(conversationId, role, after, q, wanted - rows.length)),
      );
      if (rows.length >= wanted) break;
    }
    const page = rows.slice(0, query.limit);
    const cards = await this.core.deps.contacts.cards(page.map((row) => row.user_id));
    const last = page.at(-1);
    return {
      members: page.flatMap((row) => {
        const card = cards.get(row.user_id);
        return card ? [toMember(row, card, this.core.deps.clock.now())] : [];
      }),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({
              role: last.role!,
              joinedAt: Number(last.joined_at),
              userId: last.user_id,
            })
          : null,
    };
  }

  /** Members invite their friends; they join at once, with history from now on. */
  async invite(userId: string, groupId: string, userIds: readonly string[]): Promise<number> {
    return this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'invite');
      const candidates = userIds.filter((id) => id !== userId);
      await this.core.checkFriends(tx, userId, candidates);
      const present = new Set(
        await this.core.deps.messages.membersAmong(
          groupConversationId(groupId),
          candidates,
          tx.trx,
        ),
      );
      const added = candidates.filter((id) => !present.has(id));
      if (added.length === 0) return 0;
      await this.core.checkNotBlocked(tx, userId, added);
      await this.core.addMembers(tx, groupId, added);
      await this.core.notice(tx, groupId, {
        event: 'invited',
        actorId: userId,
        targetIds: added.slice(0, MENTIONS_MAX),
      });
      return added.length;
    });
  }

  /**
   * A friend application to another member, made through the group (its member list):
   * while the group's private chat is off only its owner and admins may, so members
   * reach each other in the group itself. Otherwise it is an ordinary application.
   */
  async requestFriend(
    auth: AuthInfo,
    groupId: string,
    targetId: string,
    greeting: string | undefined,
  ): Promise<FriendRequest> {
    const { contacts, members } = this.core.deps;
    const { group, role } = await this.core.memberOf(this.core.deps, groupId, auth.userId);
    if (
      targetId === auth.userId ||
      !(await members.findMember(groupConversationId(groupId), targetId))
    ) {
      throw invalidField('userId', 'groupMembers');
    }
    if (group.private_chat !== 1 && !mayInGroup(role, 'setPrivateChat')) {
      throw new AppError('GROUP_PRIVATE_CHAT_OFF');
    }
    return contacts.sendRequest(auth, { userId: targetId, ...(greeting ? { greeting } : {}) });
  }

  /** Removes a member of lower rank; they stop receiving at once, on every device. */
  async remove(userId: string, groupId: string, targetId: string): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'removeMember');
      await this.core.target(tx, groupId, role, userId, targetId);
      await this.core.leave(tx, groupId, targetId, 'removed');
      await this.core.notice(tx, groupId, {
        event: 'removed',
        actorId: userId,
        targetIds: [targetId],
      });
    });
  }

  async setRole(
    userId: string,
    groupId: string,
    targetId: string,
    newRole: 'admin' | 'member',
  ): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'setRole');
      const target = await this.core.target(tx, groupId, role, userId, targetId);
      if (target.role === newRole) return;
      await tx.members.updateMember(groupConversationId(groupId), targetId, {
        role: newRole,
        updated_at: tx.now,
      });
      await this.core.notice(tx, groupId, {
        event: newRole === 'admin' ? 'adminAdded' : 'adminRemoved',
        actorId: userId,
        targetIds: [targetId],
      });
    });
  }

  /** Mutes a member of lower rank for `seconds` (0 lifts the mute). */
  async mute(userId: string, groupId: string, targetId: string, seconds: number): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'muteMember');
      await this.core.target(tx, groupId, role, userId, targetId);
      await tx.members.updateMember(groupConversationId(groupId), targetId, {
        muted_until: seconds === 0 ? null : tx.now + seconds * 1000,
        updated_at: tx.now,
      });
      await this.core.notice(tx, groupId, {
        event: seconds === 0 ? 'unmuted' : 'muted',
        actorId: userId,
        targetIds: [targetId],
        ...(seconds === 0 ? {} : { seconds }),
      });
    });
  }

  /** Hands the group to another member; the old owner stays as an admin. */
  async transfer(userId: string, groupId: string, targetId: string): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'transferOwnership');
      await this.core.target(tx, groupId, role, userId, targetId);
      const conversationId = groupConversationId(groupId);
      await tx.members.updateMember(conversationId, userId, { role: 'admin', updated_at: tx.now });
      await tx.members.updateMember(conversationId, targetId, {
        role: 'owner',
        updated_at: tx.now,
      });
      await tx.repo.updateGroup(groupId, { owner_id: targetId, updated_at: tx.now });
      await this.core.notice(tx, groupId, {
        event: 'ownerChanged',
        actorId: userId,
        targetIds: [targetId],
      });
    });
  }

  async quit(userId: string, groupId: string): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      if (role === 'owner') throw new AppError('OWNER_CANNOT_QUIT');
      must(role, 'quit');
      await this.core.leave(tx, groupId, userId, 'quit');
      await this.core.notice(tx, groupId, { event: 'left', actorId: userId, targetIds: [] });
    });
  }
  /**
   * How many members have read a message, from their read seqs (no row per reader), and
   * who in small groups. For its sender, and the group's owner and admins, while the
   * message lies within their own history (an admin who joined later, or cleared it, has
   * no such message). Counts leave out the sender and members who joined after it was sent.
   */
  async reads(userId: string, groupId: string, seq: number): Promise<MessageReadsResult> {
    const { members } = this.core.deps;
    const { group, role, member } = await this.core.memberOf(this.core.deps, groupId, userId);
    if (seq <= Number(member.min_seq)) throw new AppError('MESSAGE_NOT_FOUND');
    const conversationId = groupConversationId(groupId);
    const message = await members.messageMeta(conversationId, seq);
    if (!message) throw new AppError('MESSAGE_NOT_FOUND');
    if (message.sender_id !== userId && GROUP_ROLE_RANK[role] < GROUP_ROLE_RANK.admin) {
      throw new AppError('GROUP_ROLE_REQUIRED');
    }
    const sentAt = Number(message.created_at);
    const senderIn = await members.findMember(conversationId, message.sender_id);
    const memberCount = Number(group.member_count) - (senderIn ? 1 : 0);
    if (group.member_count > GROUP_READERS_DETAIL_MAX) {
      const readCount = await members.readCount(conversationId, seq, sentAt, message.sender_id);
      return { readCount, memberCount, readers: null };
    }
    const ids = await members.readerIds(conversationId, seq, sentAt, message.sender_id);
    const cards = await this.core.deps.contacts.cards(ids);
    const readers = ids.flatMap((id) => cards.get(id) ?? []);
    return { readCount: ids.length, memberCount, readers };
  }
}

function toMember(row: MemberListRow, user: UserCard, now: number): GroupMember {
  return {
    user,
    role: row.role as GroupRole,
    nickname: row.group_nickname,
    // A mute that has run out is no mute.
    mutedUntil:
      row.muted_until !== null && Number(row.muted_until) > now ? Number(row.muted_until) : null,
    joinedAt: Number(row.joined_at),
  };
}

function encodeCursor(cursor: MemberCursor): string {
  return Buffer.from(JSON.stringify([cursor.role, cursor.joinedAt, cursor.userId])).toString(
    'base64url',
  );
}

function decodeCursor(value: string): MemberCursor {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3) {
      const [role, joinedAt, userId] = parsed as unknown[];
      if (
        groupRoleSchema.safeParse(role).success &&
        typeof joinedAt === 'number' &&
        Number.isInteger(joinedAt) &&
        typeof userId === 'string'
      ) {
        return { role: role as string, joinedAt, userId };
      }
    }
  } catch {
    // Falls through to the validation error.
  }
  throw invalidField('cursor', 'invalid');
}
