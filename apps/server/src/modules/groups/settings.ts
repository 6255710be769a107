import {
  GROUP_MESSAGE_KINDS,
  GROUP_NAME_MAX_LENGTH,
  groupConversationId,
  groupIdOf,
  type CreateGroupBody,
  type Group,
  type GroupAction,
  type GroupSummary,
  type MyGroup,
  type UpdateGroupBody,
  type UpdateMyGroupBody,
  type UserCard,
} from '@teltlk/protocol';
import { randomInt } from 'node:crypto';
import type { GroupRow } from '../../db/schema.js';
import { AppError, invalidField } from '../../errors.js';
import { newId, randomDigits } from '../../lib/random.js';
import { toAvatarWebp } from '../users/avatar.js';
import { memberRow, must, type GroupCore, type Tx } from './core.js';
import type { GroupRepo } from './repo.js';

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

/**
 * A group itself: creating it, finding it, its settings and avatar, the caller's own
 * nickname and remark in it, and dismissing it. Each settings field needs its own
 * permission (GROUP_PERMISSIONS); members learn of changes by notices.
 */
export class GroupSettings {
  constructor(private readonly core: GroupCore) {}

  async create(userId: string, body: CreateGroupBody): Promise<MyGroup> {
    const memberIds = body.memberIds.filter((id) => id !== userId);
    if (memberIds.length === 0) throw invalidField('memberIds', 'groupMembers');
    return this.core.transact(async (tx) => {
      await this.core.checkFriends(tx, userId, memberIds);
      await this.core.checkNotBlocked(tx, userId, memberIds);
      const cards = await this.core.deps.contacts.cards([userId, ...memberIds], tx.trx);
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
      await this.core.notice(tx, id, { event: 'created', actorId: userId, targetIds: memberIds });
      for (const member of [userId, ...memberIds]) {
        await this.core.event(tx, member, { type: 'groupJoined', groupId: id });
      }
      return this.myGroupIn(tx, id, userId);
    });
  }

  async list(userId: string): Promise<{ groups: MyGroup[] }> {
    const { repo, members } = this.core.deps;
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
        return group ? [this.core.toMyGroup(group, member)] : [];
      }),
    };
  }

  async get(userId: string, groupId: string): Promise<MyGroup> {
    const { group, member } = await this.core.memberOf(this.core.deps, groupId, userId);
    return this.core.toMyGroup(group, member);
  }

  /** What anyone may see of a group, by its number. */
  async search(userId: string, groupNo: string): Promise<{ group: GroupSummary }> {
    const { repo, members } = this.core.deps;
    const group = await repo.findGroupByNo(groupNo);
    if (!group) throw new AppError('GROUP_NOT_FOUND');
    const member = await members.findMember(groupConversationId(group.id), userId);
    return { group: this.core.toSummary(group, member !== undefined) };
  }

  /** Settings: each field needs its own permission; members learn of changes by notices. */
  async update(userId: string, groupId: string, body: UpdateGroupBody): Promise<Group> {
    const fields = Object.keys(body) as (keyof UpdateGroupBody)[];
    if (fields.length === 0) throw invalidField('', 'required');
    return this.core.transact(async (tx) => {
      const { group, role } = await this.core.memberOf(tx, groupId, userId);
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
        await this.core.notice(tx, groupId, { event: 'renamed', ...actor, text: body.name });
      }
      if (body.notice !== undefined && body.notice !== group.notice) {
        await this.core.notice(tx, groupId, {
          event: 'noticeChanged',
          ...actor,
          text: body.notice,
        });
      }
      if (body.allMuted !== undefined && body.allMuted !== (group.all_muted === 1)) {
        await this.core.notice(tx, groupId, {
          event: body.allMuted ? 'allMuted' : 'allUnmuted',
          ...actor,
        });
      }
      return this.core.toGroup(updated);
    });
  }

  /** A new group avatar (owner and admins); the old file goes once the new one is in. */
  async setAvatar(userId: string, groupId: string, image: Buffer): Promise<Group> {
    const { files } = this.core.deps;
    must((await this.core.memberOf(this.core.deps, groupId, userId)).role, 'setAvatar');
    const webp = await toAvatarWebp(image);
    const key = `group-avatars/${newId()}.webp`;
    await files.put(key, webp);
    let previous: string | null = null;
    let updated: GroupRow;
    try {
      updated = await this.core.transact(async (tx) => {
        const { group, role } = await this.core.memberOf(tx, groupId, userId);
        must(role, 'setAvatar');
        previous = group.avatar_path;
        return tx.repo.updateGroup(groupId, { avatar_path: key, updated_at: tx.now });
      });
    } catch (error) {
      await files.remove(key);
      throw error;
    }
    if (previous) await files.remove(previous);
    return this.core.toGroup(updated);
  }

  /** My nickname in the group and my private remark for it. */
  async updateMine(userId: string, groupId: string, body: UpdateMyGroupBody): Promise<MyGroup> {
    if (body.nickname === undefined && body.remark === undefined) {
      throw invalidField('', 'required');
    }
    return this.core.transact(async (tx) => {
      const { group } = await this.core.memberOf(tx, groupId, userId);
      const member = await tx.members.updateMember(groupConversationId(groupId), userId, {
        ...(body.nickname === undefined ? {} : { group_nickname: body.nickname || null }),
        ...(body.remark === undefined ? {} : { group_remark: body.remark || null }),
        updated_at: tx.now,
      });
      return this.core.toMyGroup(group, member);
    });
  }

  /** Dismisses the group: every member leaves, and each is told. */
  async dismiss(userId: string, groupId: string): Promise<void> {
    await this.core.transact(async (tx) => {
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'dismiss');
      const memberIds = await tx.members.deleteAllMembers(groupConversationId(groupId));
      await tx.repo.updateGroup(groupId, { dismissed_at: tx.now, updated_at: tx.now });
      await tx.repo.addMemberCount(groupId, -memberIds.length, tx.now);
      const left = await this.core.deps.events.appendToMany(tx.trx, memberIds, {
        type: 'groupLeft',
        groupId,
        reason: 'dismissed',
      });
      for (const event of left) tx.events.push(event);
    });
  }

  private async newGroupNo(repo: GroupRepo): Promise<string> {
    for (;;) {
      // 8 to 10 digits, never starting with 0.
      const groupNo = String(randomInt(1, 10)) + randomDigits(randomInt(7, 10));
      if (!(await repo.groupNoTaken(groupNo))) return groupNo;
    }
  }

  private async myGroupIn(tx: Tx, groupId: string, userId: string): Promise<MyGroup> {
    const { group, member } = await this.core.memberOf(tx, groupId, userId);
    return this.core.toMyGroup(group, member);
  }
}

/** The first members' names, as long as a group name may be. */
function defaultName(cards: readonly UserCard[]): string {
  return [...cards.slice(0, DEFAULT_NAME_MEMBERS).map((card) => card.nickname)]
    .join(', ')
    .slice(0, GROUP_NAME_MAX_LENGTH);
}
