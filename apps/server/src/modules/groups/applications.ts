import {
  GROUP_MAX_MEMBERS,
  groupConversationId,
  groupIdOf,
  mayInGroup,
  type GroupApplication,
  type GroupApplicationListResult,
  type UserCard,
} from '@teltlk/protocol';
import type { GroupApplicationRow, GroupRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { newId } from '../../lib/random.js';
import { must, roleOf, type GroupCore, type Tx } from './core.js';

/** Applications listed at once, each side. */
const APPLICATIONS_MAX = 200;

/**
 * Joining a group by its number or QR code, and the applications an approval group takes
 * instead: the applicant's own, and those its owner and admins review.
 */
export class GroupApplications {
  constructor(private readonly core: GroupCore) {}

  /**
   * Joins by the group's number or QR code: at once in an open group, by an application
   * in an approval group; an invitation-only group refuses.
   */
  async join(
    userId: string,
    groupId: string,
    message: string | undefined,
  ): Promise<{ status: 'joined' | 'pending' }> {
    return this.core.transact(async (tx) => {
      const group = await tx.repo.findGroup(groupId);
      if (!group) throw new AppError('GROUP_NOT_FOUND');
      if (await tx.members.findMember(groupConversationId(groupId), userId)) {
        throw new AppError('ALREADY_IN_GROUP');
      }
      if (group.verification === 'invite') throw new AppError('GROUP_INVITE_ONLY');
      if (group.verification === 'open') {
        await this.core.addMembers(tx, groupId, [userId]);
        await this.core.notice(tx, groupId, { event: 'joined', actorId: userId, targetIds: [] });
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

  async list(userId: string): Promise<GroupApplicationListResult> {
    const { repo, members } = this.core.deps;
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
      this.core.deps.contacts.cards(all.map((row) => row.user_id)),
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
    await this.core.transact(async (tx) => {
      const application = await tx.repo.findApplication(applicationId);
      if (!application) throw new AppError('GROUP_NOT_FOUND');
      const groupId = application.group_id;
      const { role } = await this.core.memberOf(tx, groupId, userId);
      must(role, 'reviewApplications');
      if (application.status !== 'pending') throw new AppError('GROUP_APPLICATION_HANDLED');
      await tx.repo.updateApplication(applicationId, {
        status: accept ? 'accepted' : 'rejected',
        handled_at: tx.now,
        handled_by: userId,
      });
      const applicant = application.user_id;
      if (accept && !(await tx.members.findMember(groupConversationId(groupId), applicant))) {
        await this.core.addMembers(tx, groupId, [applicant]);
        await this.core.notice(tx, groupId, { event: 'joined', actorId: applicant, targetIds: [] });
      }
      await this.applicationEvents(tx, groupId, applicant, applicationId);
    });
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
      await this.core.event(tx, id, { type: 'groupApplication', applicationId });
    }
  }
  private toApplication(
    row: GroupApplicationRow,
    group: GroupRow,
    user: UserCard,
    joined: boolean,
  ): GroupApplication {
    return {
      id: row.id,
      group: this.core.toSummary(group, joined),
      user,
      message: row.message,
      status: row.status as GroupApplication['status'],
      createdAt: Number(row.created_at),
      handledAt: row.handled_at === null ? null : Number(row.handled_at),
    };
  }
}
