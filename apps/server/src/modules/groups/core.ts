import {
  GROUP_MAX_MEMBERS,
  GROUP_PERMISSIONS,
  GROUP_ROLE_RANK,
  groupConversationId,
  groupRoleSchema,
  mayInGroup,
  type Group,
  type GroupAction,
  type GroupRole,
  type GroupSummary,
  type MyGroup,
  type SystemContent,
} from '@teltlk/protocol';
import type { Insertable } from 'kysely';
import type { ConversationMembersTable, Db, GroupRow, MemberRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import type { Clock } from '../../lib/clock.js';
import type { ContactService } from '../contacts/service.js';
import type { EventService, PendingEvent } from '../events/service.js';
import type { FileStore } from '../files/store.js';
import type { GroupMembership } from '../messages/membership.js';
import type { MessageService } from '../messages/service.js';
import type { GroupRepo } from './repo.js';

/** What the groups module is built on. */
export interface GroupDeps {
  db: Db;
  repo: GroupRepo;
  members: GroupMembership;
  clock: Clock;
  events: EventService;
  messages: MessageService;
  contacts: ContactService;
  files: FileStore;
}

/** Work inside a group transaction: events to publish and pushes to run after commit. */
export interface Tx {
  trx: Db;
  repo: GroupRepo;
  members: GroupMembership;
  events: PendingEvent[];
  after: (() => void)[];
  now: number;
}

/**
 * What the parts of the groups module share: the transaction that publishes its events
 * and runs its pushes after commit, the membership check (a non-member sees no group at
 * all, GROUP_NOT_FOUND), joining and leaving with their events and member_count, the
 * system notices members see in the group's seq stream, and the views of a group.
 */
export class GroupCore {
  constructor(readonly deps: GroupDeps) {}

  /** The group and the caller's membership; to anyone else the group does not exist. */
  async memberOf(
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
  async target(
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
  async addMembers(tx: Tx, groupId: string, userIds: readonly string[]): Promise<void> {
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
  async leave(tx: Tx, groupId: string, userId: string, reason: 'quit' | 'removed'): Promise<void> {
    if (!(await tx.members.deleteMember(groupConversationId(groupId), userId))) return;
    await tx.repo.addMemberCount(groupId, -1, tx.now);
    await this.event(tx, userId, { type: 'groupLeft', groupId, reason });
  }

  async notice(tx: Tx, groupId: string, content: Omit<SystemContent, 'kind'>): Promise<void> {
    await this.deps.messages.appendNotice(
      tx.trx,
      groupConversationId(groupId),
      { kind: 'system', ...content },
      tx.after,
    );
  }

  async event(tx: Tx, userId: string, data: Parameters<EventService['append']>[2]): Promise<void> {
    tx.events.push(await this.deps.events.append(tx.trx, userId, data));
  }

  /** Groups are made from and grow by the acting member's friends. */
  async checkFriends(tx: Tx, userId: string, ids: readonly string[]): Promise<void> {
    const friends = await this.deps.contacts.friendsAmong(userId, ids, tx.trx);
    if (ids.some((id) => !friends.has(id))) throw new AppError('NOT_FRIENDS');
  }

  /**
   * A block holds in groups: nobody is added to a group (created or invited) by someone
   * they blocked. Who refused is not named.
   */
  async checkNotBlocked(tx: Tx, userId: string, ids: readonly string[]): Promise<void> {
    const blockers = await this.deps.contacts.blockersOf(userId, ids, tx.trx);
    if (blockers.size > 0) throw new AppError('GROUP_ADD_REFUSED');
  }

  async transact<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
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

  toGroup(row: GroupRow): Group {
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

  toMyGroup(group: GroupRow, member: MemberRow): MyGroup {
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

  toSummary(group: GroupRow, joined: boolean): GroupSummary {
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
}

/** Refuses an action the caller's role may not take, naming who may. */
export function must(role: GroupRole, action: GroupAction): void {
  if (mayInGroup(role, action)) return;
  const allowed: readonly GroupRole[] = GROUP_PERMISSIONS[action];
  throw new AppError(
    allowed.length === 1 && allowed[0] === 'owner' ? 'GROUP_OWNER_REQUIRED' : 'GROUP_ROLE_REQUIRED',
  );
}

export function roleOf(member: MemberRow): GroupRole {
  const parsed = groupRoleSchema.safeParse(member.role);
  if (!parsed.success) throw new Error(`member ${member.user_id} has no group role`);
  return parsed.data;
}

export function memberRow(
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
