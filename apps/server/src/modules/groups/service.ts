import {
  GROUP_MAX_MEMBERS,
  GROUP_NAME_MAX_LENGTH,
  GROUP_PERMISSIONS,
  GROUP_READERS_DETAIL_MAX,
  GROUP_ROLE_RANK,
  MENTIONS_MAX,
  groupRoleSchema,
  mayInGroup,
  type CreateGroupBody,
  type FriendRequest,
  type Group,
  type GroupAction,
  type GroupApplication,
  type GroupApplicationListResult,
  type GroupMember,
  type GroupMembersResult,
  type GroupRole,
  type GroupSummary,
  type MessageReadsResult,
  type MyGroup,
  type SystemContent,
  type UpdateGroupBody,
  type UpdateMyGroupBody,
  type UserCard,
  groupConversationId,
  groupIdOf,
  GROUP_MESSAGE_KINDS,
} from '@teltlk/protocol';
import { randomInt } from 'node:crypto';
import type { Insertable } from 'kysely';
import type {
  ConversationMembersTable,
  Db,
  GroupApplicationRow,
  GroupRow,
  MemberRow,
} from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import { newId, randomDigits } from '../../lib/random.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { FileStore } from '../files/store.js';
import type { MessageService } from '../messages/service.js';
import { toAvatarWebp } from '../users/avatar.js';
import type { GroupRepo } from './repo.js';
import type { GroupMembership, MemberCursor, MemberListRow } from '../messages/membership.js';

/** Roles in the order the member list shows them. */
const ROLE_ORDER: readonly GroupRole[] = ['owner', 'admin', 'member'];
/** Applications listed at once, each side. */
const APPLICATIONS_MAX = 200;
/** Members' names that make a default group name. */
const DEFAULT_NAME_MEMBERS = 3;

/** Which permission each field of a group settings change needs (GROUP_PERMISSIONS). */
const SETTING_ACTIONS: Record<keyof UpdateGroupBody, GroupAction> = {
  name: 'rename',
  notice: 'setNotice',
  verification: 'setVerification',
  privateChat: 'setPrivateChat',
  allowedKinds: 'setMessageKinds',
  allMuted: 'muteAll',
  callPolicy: 'setCallPolicy',
};

/** Work inside a group transaction: events to publish and pushes to run after commit. */
interface Tx {
  trx: Db;
  repo: GroupRepo;
  members: GroupMembership;
  events: PendingEvent[];
  after: (() => void)[];
  now: number;
}

/**
 * Groups: creation, settings, members and roles, joining and applications, read counts.
 * Every rule of who may do what comes from GROUP_PERMISSIONS and GROUP_ROLE_RANK; a
 * non-member sees no group at all (GROUP_NOT_FOUND). Membership is the conversation's
 * member rows; member_count moves in the same transaction. Changes members should see are
 * system notices in the group's seq stream, written through the message service.
 */
export class GroupService {
  constructor(
    private readonly deps: {
      db: Db;
      repo: GroupRepo;
      members: GroupMembership;
      clock: Clock;
      events: EventService;
      messages: MessageService;
      contacts: ContactService;
      files: FileStore;
    },
  ) {}

  // -------------------------------------------------------------------------- groups

  async create(userId: string, body: CreateGroupBody): Promise<MyGroup> {
    const memberIds = body.memberIds.filter((id) => id !== userId);
    if (memberIds.length === 0) throw invalidField('memberIds', 'groupMembers');
    return this.transact(async (tx) => {
      await this.checkFriends(tx, userId, memberIds);
      await this.checkNotBlocked(tx, userId, memberIds);
      const cards = await this.deps.contacts.cards([userId, ...memberIds], tx.trx);
      if (cards.size !== memberIds.length + 1) throw new AppError('USER_NOT_FOUND');
      const id = newId();
      const conversationId = groupConversationId(id);
      await tx.repo.insertGroup({
        id,
        group_no: await this.newGroupNo(tx.repo),
        name: body.name ?? defaultName([userId, ...memberIds].map((m) => cards.get(m)!)),
        avatar_path: null,
        notice: '',
        notice_at: null,
        owner_id: userId,
        member_count: memberIds.length + 1,
        verification: 'approval',
        private_chat: 1,
        allowed_kinds: JSON.stringify(GROUP_MESSAGE_KINDS),
        all_muted: 0,
        created_at: tx.now,
        updated_at: tx.now,
        dismissed_at: null,
      });
      await tx.members.createConversation(conversationId, tx.now);
      await tx.members.insertMembers([
        memberRow(conversationId, userId, 'owner', 0, tx.now),
        ...memberIds.map((m) => memberRow(conversationId, m, 'member', 0, tx.now)),
      ]);
      await this.notice(tx, id, { event: 'created', actorId: userId, targetIds: memberIds });
      for (const member of [userId, ...memberIds]) {
        await this.event(tx, member, { type: 'groupJoined', groupId: id });
      }
      return this.myGroupIn(tx, id, userId);
    });
  }

  async list(userId: string): Promise<{ groups: MyGroup[] }> {
    const { repo, members } = this.deps;
    const memberships = await members.memberships(userId);
    const groups = new Map(
      (await repo.groupsByIds(memberships.flatMap((m) => groupIdOf(m.conversation_id) ?? []))).map(
        (g) => [g.id, g],
      ),
    );
    return {
      groups: memberships.flatMap((member) => {
        const groupId = groupIdOf(member.conversation_id);
        const group = groupId === null ? undefined : groups.get(groupId);
        return group ? [this.toMyGroup(group, member)] : [];
      }),
    };
  }

  async get(userId: string, groupId: string): Promise<MyGroup> {
    const { group, member } = await this.memberOf(this.deps, groupId, userId);
    return this.toMyGroup(group, member);
  }

  /** What anyone may see of a group, by its number. */
  async search(userId: string, groupNo: string): Promise<{ group: GroupSummary }> {
    const { repo, members } = this.deps;
    const group = await repo.findGroupByNo(groupNo);
    if (!group) throw new AppError('GROUP_NOT_FOUND');
    const member = await members.findMember(groupConversationId(group.id), userId);
    return { group: this.toSummary(group, member !== undefined) };
  }

  /** Settings: each field needs its own permission; members learn of changes by notices. */
  async update(userId: string, groupId: string, body: UpdateGroupBody): Promise<Group> {
    const fields = Object.keys(body) as (keyof UpdateGroupBody)[];
    if (fields.length === 0) throw invalidField('', 'required');
    return this.transact(async (tx) => {
      const { group, role } = await this.memberOf(tx, groupId, userId);
      for (const field of fields) must(role, SETTING_ACTIONS[field]);
      const updated = await tx.repo.updateGroup(groupId, {
        ...(body.name === undefined ? {} : { name: body.name }),
        ...(body.notice === undefined ? {} : { notice: body.notice, notice_at: tx.now }),
        ...(body.verification === undefined ? {} : { verification: body.verification }),
        ...(body.privateChat === undefined ? {} : { private_chat: body.privateChat ? 1 : 0 }),
        ...(body.allowedKinds === undefined
          ? {}
          : { allowed_kinds: JSON.stringify([...new Set(body.allowedKinds)]) }),
        ...(body.allMuted === undefined ? {} : { all_muted: body.allMuted ? 1 : 0 }),
        ...(body.callPolicy === undefined ? {} : { call_policy: body.callPolicy }),
        updated_at: tx.now,
      });
      const actor = { actorId: userId, targetIds: [] };
      if (body.name !== undefined && body.name !== group.name) {
        await this.notice(tx, groupId, { event: 'renamed', ...actor, text: body.name });
      }
      if (body.notice !== undefined && body.notice !== group.notice) {
        await this.notice(tx, groupId, { event: 'noticeChanged', ...actor, text: body.notice });
      }
      if (body.allMuted !== undefined && body.allMuted !== (group.all_muted === 1)) {
        await this.notice(tx, groupId, {
          event: body.allMuted ? 'allMuted' : 'allUnmuted',
          ...actor,
        });
      }
      return this.toGroup(updated);
    });
  }

  /** A new group avatar (owner and admins); the old file goes once the new one is in. */
  async setAvatar(userId: string, groupId: string, image: Buffer): Promise<Group> {
    const { files } = this.deps;
    must((await this.memberOf(this.deps, groupId, userId)).role, 'setAvatar');
    const webp = await toAvatarWebp(image);
    const key = `group-avatars/${newId()}.webp`;
    await files.put(key, webp);
    let previous: string | null = null;
    let updated: GroupRow;
    try {
      updated = await this.transact(async (tx) => {
        const { group, role } = await this.memberOf(tx, groupId, userId);
        must(role, 'setAvatar');
        previous = group.avatar_path;
        return tx.repo.updateGroup(groupId, { avatar_path: key, updated_at: tx.now });
      });
    } catch (error) {
      await files.remove(key);
      throw error;
    }
    if (previous) await files.remove(previous);
    return this.toGroup(updated);
  }

  /** My nickname in the group and my private remark for it. */
  async updateMine(userId: string, groupId: string, body: UpdateMyGroupBody): Promise<MyGroup> {
    if (body.nickname === undefined && body.remark === undefined) {
      throw invalidField('', 'required');
    }
    return this.transact(async (tx) => {
      const { group } = await this.memberOf(tx, groupId, userId);
      const member = await tx.members.updateMember(groupConversationId(groupId), userId, {
        ...(body.nickname === undefined ? {} : { group_nickname: body.nickname || null }),
        ...(body.remark === undefined ? {} : { group_remark: body.remark || null }),
        updated_at: tx.now,
      });
      return this.toMyGroup(group, member);
    });
  }

  /** Dismisses the group: every member leaves, and each is told. */
  async dismiss(userId: string, groupId: string): Promise<void> {
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'dismiss');
      const memberIds = await tx.members.deleteAllMembers(groupConversationId(groupId));
      await tx.repo.updateGroup(groupId, { dismissed_at: tx.now, updated_at: tx.now });
      await tx.repo.addMemberCount(groupId, -memberIds.length, tx.now);
      const left = await this.deps.events.appendToMany(tx.trx, memberIds, {
        type: 'groupLeft',
        groupId,
        reason: 'dismissed',
      });
      for (const event of left) tx.events.push(event);
    });
  }

  // -------------------------------------------------------------------------- members

  /**
   * Owner, admins, then members by joining time; `q` searches. The cursor is the last
   * member of the page, so every page is an index range whatever the group's size.
   */
  async members(
    userId: string,
    groupId: string,
    query: { q?: string | undefined; cursor?: string | undefined; limit: number },
  ): Promise<GroupMembersResult> {
    const { members } = this.deps;
    await this.memberOf(this.deps, groupId, userId);
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
    const cards = await this.deps.contacts.cards(page.map((row) => row.user_id));
    const last = page.at(-1);
    return {
      members: page.flatMap((row) => {
        const card = cards.get(row.user_id);
        return card ? [toMember(row, card, this.deps.clock.now())] : [];
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
    return this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'invite');
      const candidates = userIds.filter((id) => id !== userId);
      await this.checkFriends(tx, userId, candidates);
      const present = new Set(
        await this.deps.messages.membersAmong(groupConversationId(groupId), candidates, tx.trx),
      );
      const added = candidates.filter((id) => !present.has(id));
      if (added.length === 0) return 0;
      await this.checkNotBlocked(tx, userId, added);
      await this.addMembers(tx, groupId, added);
      await this.notice(tx, groupId, {
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
    const { contacts, members } = this.deps;
    const { group, role } = await this.memberOf(this.deps, groupId, auth.userId);
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
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'removeMember');
      await this.target(tx, groupId, role, userId, targetId);
      await this.leave(tx, groupId, targetId, 'removed');
      await this.notice(tx, groupId, { event: 'removed', actorId: userId, targetIds: [targetId] });
    });
  }

  async setRole(
    userId: string,
    groupId: string,
    targetId: string,
    newRole: 'admin' | 'member',
  ): Promise<void> {
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'setRole');
      const target = await this.target(tx, groupId, role, userId, targetId);
      if (target.role === newRole) return;
      await tx.members.updateMember(groupConversationId(groupId), targetId, {
        role: newRole,
        updated_at: tx.now,
      });
      await this.notice(tx, groupId, {
        event: newRole === 'admin' ? 'adminAdded' : 'adminRemoved',
        actorId: userId,
        targetIds: [targetId],
      });
    });
  }

  /** Mutes a member of lower rank for `seconds` (0 lifts the mute). */
  async mute(userId: string, groupId: string, targetId: string, seconds: number): Promise<void> {
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'muteMember');
      await this.target(tx, groupId, role, userId, targetId);
      await tx.members.updateMember(groupConversationId(groupId), targetId, {
        muted_until: seconds === 0 ? null : tx.now + seconds * 1000,
        updated_at: tx.now,
      });
      await this.notice(tx, groupId, {
        event: seconds === 0 ? 'unmuted' : 'muted',
        actorId: userId,
        targetIds: [targetId],
        ...(seconds === 0 ? {} : { seconds }),
      });
    });
  }

  /** Hands the group to another member; the old owner stays as an admin. */
  async transfer(userId: string, groupId: string, targetId: string): Promise<void> {
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'transferOwnership');
      await this.target(tx, groupId, role, userId, targetId);
      const conversationId = groupConversationId(groupId);
      await tx.members.updateMember(conversationId, userId, { role: 'admin', updated_at: tx.now });
      await tx.members.updateMember(conversationId, targetId, {
        role: 'owner',
        updated_at: tx.now,
      });
      await tx.repo.updateGroup(groupId, { owner_id: targetId, updated_at: tx.now });
      await this.notice(tx, groupId, {
        event: 'ownerChanged',
        actorId: userId,
        targetIds: [targetId],
      });
    });
  }

  async quit(userId: string, groupId: string): Promise<void> {
    await this.transact(async (tx) => {
      const { role } = await this.memberOf(tx, groupId, userId);
      if (role === 'owner') throw new AppError('OWNER_CANNOT_QUIT');
      must(role, 'quit');
      await this.leave(tx, groupId, userId, 'quit');
      await this.notice(tx, groupId, { event: 'left', actorId: userId, targetIds: [] });
    });
  }

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
    const { group, role } = await this.memberOf(this.deps, groupId, userId);
    const mayStart = group.call_policy !== 'admins' || role === 'owner' || role === 'admin';
    if (Number(group.member_count) - 1 > ringMax) return { mayStart, ringIds: [] };
    const conversationId = groupConversationId(groupId);
    const ringIds: string[] = [];
    for (const memberRole of groupRoleSchema.options) {
      const rows = await this.deps.members.memberPage(
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

  // -------------------------------------------------------------------------- joining

  /**
   * Joins by the group's number or QR code: at once in an open group, by an application
   * in an approval group; an invitation-only group refuses.
   */
  async join(
    userId: string,
    groupId: string,
    message: string | undefined,
  ): Promise<{ status: 'joined' | 'pending' }> {
    return this.transact(async (tx) => {
      const group = await tx.repo.findGroup(groupId);
      if (!group) throw new AppError('GROUP_NOT_FOUND');
      if (await tx.members.findMember(groupConversationId(groupId), userId)) {
        throw new AppError('ALREADY_IN_GROUP');
      }
      if (group.verification === 'invite') throw new AppError('GROUP_INVITE_ONLY');
      if (group.verification === 'open') {
        await this.addMembers(tx, groupId, [userId]);
        await this.notice(tx, groupId, { event: 'joined', actorId: userId, targetIds: [] });
        return { status: 'joined' as const };
      }
      if (group.member_count >= GROUP_MAX_MEMBERS) {
        throw new AppError('GROUP_FULL', { max: GROUP_MAX_MEMBERS });
      }
      const existing = await tx.repo.findApplicationOf(groupId, userId);
      let applicationId: string;
      const fields = {
        message: message ?? '',
        status: 'pending',
        created_at: tx.now,
        handled_at: null,
        handled_by: null,
      };
      if (existing) {
        applicationId = existing.id;
        await tx.repo.updateApplication(existing.id, fields);
      } else {
        applicationId = newId();
        await tx.repo.insertApplication({
          id: applicationId,
          group_id: groupId,
          user_id: userId,
          ...fields,
        });
      }
      await this.applicationEvents(tx, groupId, userId, applicationId);
      return { status: 'pending' as const };
    });
  }

  async applications(userId: string): Promise<GroupApplicationListResult> {
    const { repo, members } = this.deps;
    const memberships = await members.memberships(userId);
    const joined = new Set(memberships.flatMap((m) => groupIdOf(m.conversation_id) ?? []));
    const reviewed = memberships
      .filter((m) => mayInGroup(roleOf(m), 'reviewApplications'))
      .flatMap((m) => groupIdOf(m.conversation_id) ?? []);
    const [toReview, mine] = await Promise.all([
      repo.applicationsTo(reviewed, APPLICATIONS_MAX),
      repo.applicationsBy(userId, APPLICATIONS_MAX),
    ]);
    const all = [...toReview, ...mine];
    const [groups, cards] = await Promise.all([
      repo.groupsByIds([...new Set(all.map((row) => row.group_id))]),
      this.deps.contacts.cards(all.map((row) => row.user_id)),
    ]);
    const byId = new Map(groups.map((group) => [group.id, group]));
    const view = (rows: GroupApplicationRow[]) =>
      rows.flatMap((row) => {
        const group = byId.get(row.group_id);
        const card = cards.get(row.user_id);
        return group && card ? [this.toApplication(row, group, card, joined.has(group.id))] : [];
      });
    return { toReview: view(toReview), mine: view(mine) };
  }

  /** Accepts or rejects an application (owner and admins of its group). */
  async review(userId: string, applicationId: string, accept: boolean): Promise<void> {
    await this.transact(async (tx) => {
      const application = await tx.repo.findApplication(applicationId);
      if (!application) throw new AppError('GROUP_NOT_FOUND');
      const groupId = application.group_id;
      const { role } = await this.memberOf(tx, groupId, userId);
      must(role, 'reviewApplications');
      if (application.status !== 'pending') throw new AppError('GROUP_APPLICATION_HANDLED');
      await tx.repo.updateApplication(applicationId, {
        status: accept ? 'accepted' : 'rejected',
        handled_at: tx.now,
        handled_by: userId,
      });
      const applicant = application.user_id;
      if (accept && !(await tx.members.findMember(groupConversationId(groupId), applicant))) {
        await this.addMembers(tx, groupId, [applicant]);
        await this.notice(tx, groupId, { event: 'joined', actorId: applicant, targetIds: [] });
      }
      await this.applicationEvents(tx, groupId, applicant, applicationId);
    });
  }

  // -------------------------------------------------------------------------- read state

  /**
   * How many members have read a message, from their read seqs (no row per reader), and
   * who in small groups. For its sender, and the group's owner and admins, while the
   * message lies within their own history (an admin who joined later, or cleared it, has
   * no such message). Counts leave out the sender and members who joined after it was sent.
   */
  async reads(userId: string, groupId: string, seq: number): Promise<MessageReadsResult> {
    const { members } = this.deps;
    const { group, role, member } = await this.memberOf(this.deps, groupId, userId);
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
    const cards = await this.deps.contacts.cards(ids);
    const readers = ids.flatMap((id) => cards.get(id) ?? []);
    return { readCount: ids.length, memberCount, readers };
  }

  // -------------------------------------------------------------------------- helpers

  /** The group and the caller's membership; to anyone else the group does not exist. */
  private async memberOf(
    { repo, members }: { repo: GroupRepo; members: GroupMembership },
    groupId: string,
    userId: string,
  ): Promise<{ group: GroupRow; member: MemberRow; role: GroupRole }> {
    const group = await repo.findGroup(groupId);
    const member = group
      ? await members.findMember(groupConversationId(groupId), userId)
      : undefined;
    if (!group || !member) throw new AppError('GROUP_NOT_FOUND');
    return { group, member, role: roleOf(member) };
  }

  /**
   * The member acted on: someone else, in the group, of lower rank than the actor (an
   * admin acts on members only; the owner on everyone).
   */
  private async target(
    tx: Tx,
    groupId: string,
    actorRole: GroupRole,
    actorId: string,
    targetId: string,
  ): Promise<MemberRow> {
    if (targetId === actorId) throw invalidField('userId', 'groupMembers');
    const target = await tx.members.findMember(groupConversationId(groupId), targetId);
    if (!target) throw invalidField('userId', 'groupMembers');
    if (GROUP_ROLE_RANK[roleOf(target)] >= GROUP_ROLE_RANK[actorRole]) {
      throw new AppError('GROUP_OWNER_REQUIRED');
    }
    return target;
  }

  /** Adds members (history from now on) within the group's size limit, and tells each. */
  private async addMembers(tx: Tx, groupId: string, userIds: readonly string[]): Promise<void> {
    const count = await tx.repo.addMemberCount(groupId, userIds.length, tx.now);
    if (count > GROUP_MAX_MEMBERS) throw new AppError('GROUP_FULL', { max: GROUP_MAX_MEMBERS });
    const conversationId = groupConversationId(groupId);
    const joinSeq = await tx.members.maxSeq(conversationId);
    await tx.members.insertMembers(
      userIds.map((id) => memberRow(conversationId, id, 'member', joinSeq, tx.now)),
    );
    for (const id of userIds) await this.event(tx, id, { type: 'groupJoined', groupId });
  }

  /**
   * Takes a member out in the caller's transaction: their row goes, so the group's pushes
   * (which read membership after each commit) skip them from then on, and every device of
   * theirs learns it from the groupLeft event.
   */
  private async leave(
    tx: Tx,
    groupId: string,
    userId: string,
    reason: 'quit' | 'removed',
  ): Promise<void> {
    if (!(await tx.members.deleteMember(groupConversationId(groupId), userId))) return;
    await tx.repo.addMemberCount(groupId, -1, tx.now);
    await this.event(tx, userId, { type: 'groupLeft', groupId, reason });
  }

  /** An application changed: its applicant and the group's reviewers are told. */
  private async applicationEvents(
    tx: Tx,
    groupId: string,
    applicantId: string,
    applicationId: string,
  ): Promise<void> {
    const staff = await tx.members.staffIds(groupConversationId(groupId));
    for (const id of new Set([applicantId, ...staff])) {
      await this.event(tx, id, { type: 'groupApplication', applicationId });
    }
  }

  private async notice(
    tx: Tx,
    groupId: string,
    content: Omit<SystemContent, 'kind'>,
  ): Promise<void> {
    await this.deps.messages.appendNotice(
      tx.trx,
      groupConversationId(groupId),
      { kind: 'system', ...content },
      tx.after,
    );
  }

  private async event(
    tx: Tx,
    userId: string,
    data: Parameters<EventService['append']>[2],
  ): Promise<void> {
    tx.events.push(await this.deps.events.append(tx.trx, userId, data));
  }

  /** Groups are made from and grow by the acting member's friends. */
  private async checkFriends(tx: Tx, userId: string, ids: readonly string[]): Promise<void> {
    const friends = await this.deps.contacts.friendsAmong(userId, ids, tx.trx);
    if (ids.some((id) => !friends.has(id))) throw new AppError('NOT_FRIENDS');
  }

  /**
   * A block holds in groups: nobody is added to a group (created or invited) by someone
   * they blocked. Who refused is not named.
   */
  private async checkNotBlocked(tx: Tx, userId: string, ids: readonly string[]): Promise<void> {
    const blockers = await this.deps.contacts.blockersOf(userId, ids, tx.trx);
    if (blockers.size > 0) throw new AppError('GROUP_ADD_REFUSED');
  }

  private async newGroupNo(repo: GroupRepo): Promise<string> {
    for (;;) {
      // 8 to 10 digits, never starting with 0.
      const groupNo = String(randomInt(1, 10)) + randomDigits(randomInt(7, 10));
      if (!(await repo.groupNoTaken(groupNo))) return groupNo;
    }
  }

  private async myGroupIn(tx: Tx, groupId: string, userId: string): Promise<MyGroup> {
    const { group, member } = await this.memberOf(tx, groupId, userId);
    return this.toMyGroup(group, member);
  }

  private async transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const events: PendingEvent[] = [];
    const after: (() => void)[] = [];
    const result = await this.deps.db.transaction().execute((trx) =>
      work({
        trx,
        repo: this.deps.repo.in(trx),
        members: this.deps.members.in(trx),
        events,
        after,
        now: this.deps.clock.now(),
      }),
    );
    this.deps.events.publish(events);
    for (const run of after) run();
    return result;
  }

  private toGroup(row: GroupRow): Group {
    return {
      id: row.id,
      groupNo: row.group_no,
      name: row.name,
      avatarUrl: row.avatar_path ? this.deps.files.urlOf(row.avatar_path) : null,
      notice: row.notice,
      noticeAt: row.notice_at === null ? null : Number(row.notice_at),
      ownerId: row.owner_id,
      memberCount: Number(row.member_count),
      verification: row.verification as Group['verification'],
      privateChat: row.private_chat === 1,
      allowedKinds: JSON.parse(row.allowed_kinds) as Group['allowedKinds'],
      allMuted: row.all_muted === 1,
      callPolicy: row.call_policy === 'admins' ? 'admins' : 'all',
      createdAt: Number(row.created_at),
    };
  }

  private toMyGroup(group: GroupRow, member: MemberRow): MyGroup {
    return {
      ...this.toGroup(group),
      me: {
        role: roleOf(member),
        nickname: member.group_nickname,
        remark: member.group_remark,
        mutedUntil:
          member.muted_until !== null && Number(member.muted_until) > this.deps.clock.now()
            ? Number(member.muted_until)
            : null,
        joinedAt: Number(member.joined_at),
      },
    };
  }

  private toSummary(group: GroupRow, joined: boolean): GroupSummary {
    return {
      id: group.id,
      name: group.name,
      avatarUrl: group.avatar_path ? this.deps.files.urlOf(group.avatar_path) : null,
      memberCount: Number(group.member_count),
      groupNo: group.group_no,
      verification: group.verification as GroupSummary['verification'],
      joined,
    };
  }

  private toApplication(
    row: GroupApplicationRow,
    group: GroupRow,
    user: UserCard,
    joined: boolean,
  ): GroupApplication {
    return {
      id: row.id,
      group: this.toSummary(group, joined),
      user,
      message: row.message,
      status: row.status as GroupApplication['status'],
      createdAt: Number(row.created_at),
      handledAt: row.handled_at === null ? null : Number(row.handled_at),
    };
  }
}

/** Refuses an action the caller's role may not take, naming who may. */
function must(role: GroupRole, action: GroupAction): void {
  if (mayInGroup(role, action)) return;
  const allowed: readonly GroupRole[] = GROUP_PERMISSIONS[action];
  throw new AppError(
    allowed.length === 1 && allowed[0] === 'owner' ? 'GROUP_OWNER_REQUIRED' : 'GROUP_ROLE_REQUIRED',
  );
}

function roleOf(member: MemberRow): GroupRole {
  const parsed = groupRoleSchema.safeParse(member.role);
  if (!parsed.success) throw new Error(`member ${member.user_id} has no group role`);
  return parsed.data;
}

function memberRow(
  conversationId: string,
  userId: string,
  role: GroupRole,
  joinSeq: number,
  now: number,
): Insertable<ConversationMembersTable> {
  return {
    conversation_id: conversationId,
    user_id: userId,
    role,
    // History from the joining point: nothing before it is shown or counted as unread.
    min_seq: joinSeq,
    read_seq: joinSeq,
    joined_at: now,
    updated_at: now,
    group_nickname: null,
    group_remark: null,
    muted_until: null,
  };
}

/** The first members' names, as long as a group name may be. */
function defaultName(cards: readonly UserCard[]): string {
  return [...cards.slice(0, DEFAULT_NAME_MEMBERS).map((card) => card.nickname)]
    .join(', ')
    .slice(0, GROUP_NAME_MAX_LENGTH);
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
