import {
  GROUP_ROLE_RANK,
  groupIdOf,
  groupRoleSchema,
  mayInGroup,
  type GroupRole,
  type SendMessageBody,
} from '@teltlk/protocol';
import type { Db, MemberRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import type { ContactService } from '../contacts/service.js';
import type { GroupReads } from './directory.js';
import { CLIENT_ID_LOOKUP_MAX, type MessageRepo } from './repo.js';
import { singlePeer } from './rows.js';

/**
 * Who may write to a conversation, and what: the authorize stage of the send pipeline
 * (send.ts), and the check of a message the server writes for a sender.
 */

/** A sender's right to write, as read in the batch's transaction. */
export interface Writer {
  readSeq: number;
  /** The seq the sender's history starts after (what they may quote). */
  minSeq: number;
  group?: { role: GroupRole; allowedKinds: readonly string[] };
}

/** Whether a sender may write to a conversation, keyed by `conversation\nuser`. */
export type WriterState = Writer | { error: AppError };

/** What the check reads: members, whether two people may message each other, groups. */
export interface WriterDeps {
  repo: MessageRepo;
  contacts: ContactService;
  groups: GroupReads;
}

/**
 * Who may write: in a single conversation both people, while the recipient has not
 * blocked the sender and they may message each other (checked on every write, so a
 * block after the conversation began still refuses); the first message creates the
 * conversation. In any other conversation, members only. Anything else looks absent.
 * The look-ups are one query each for the whole list.
 */
export async function checkWriters(
  deps: WriterDeps,
  trx: Db,
  writers: readonly { userId: string; conversationId: string }[],
  now: number,
): Promise<Map<string, WriterState>> {
  const repo = deps.repo.in(trx);
  const states = new Map<string, WriterState>();
  for (let start = 0; start < writers.length; start += CLIENT_ID_LOOKUP_MAX) {
    const chunk = writers.slice(start, start + CLIENT_ID_LOOKUP_MAX);
    const peers = chunk.map(({ userId, conversationId }) => singlePeer(conversationId, userId));
    const pairs: [string, string][] = [];
    chunk.forEach(({ userId }, position) => {
      const peerId = peers[position];
      if (peerId) pairs.push([userId, peerId]);
    });
    const refusals = await deps.contacts.messagingRefusals(pairs, trx);
    const members = await repo.findMembers(
      chunk.map(({ userId, conversationId }) => [conversationId, userId]),
    );
    const memberRows = new Map(
      members.map((member) => [writerKey(member.conversation_id, member.user_id), member]),
    );
    const groupIds = new Set(members.flatMap((member) => groupIdOf(member.conversation_id) ?? []));
    const groups = new Map(
      (await deps.groups.groupsByIds([...groupIds], trx)).map((group) => [group.id, group]),
    );
    for (const [position, { userId, conversationId }] of chunk.entries()) {
      const key = writerKey(conversationId, userId);
      const peerId = peers[position];
      const member = memberRows.get(key);
      if (!peerId) {
        const groupId = groupIdOf(conversationId);
        const group = groupId === null ? undefined : groups.get(groupId);
        if (!member) states.set(key, { error: new AppError('CONVERSATION_NOT_FOUND') });
        else if (group) states.set(key, groupWriter(member, group, now));
        else {
          states.set(key, { readSeq: Number(member.read_seq), minSeq: Number(member.min_seq) });
        }
        continue;
      }
      const refused = refusals.get(`${userId}\n${peerId}`);
      if (refused) {
        states.set(key, { error: refused });
        continue;
      }
      if (!member) await repo.createConversation(conversationId, 'single', [userId, peerId], now);
      states.set(key, {
        readSeq: Number(member?.read_seq ?? 0),
        minSeq: Number(member?.min_seq ?? 0),
      });
    }
  }
  return states;
}

export function writerKey(conversationId: string, userId: string): string {
  return `${conversationId}\n${userId}`;
}

/** A group member's right to send at all: role, a personal mute, everyone muted. */
function groupWriter(
  member: MemberRow,
  group: { all_muted: number; allowed_kinds: string },
  now: number,
): WriterState {
  const parsed = groupRoleSchema.safeParse(member.role);
  if (!parsed.success || !mayInGroup(parsed.data, 'send')) {
    return { error: new AppError('CONVERSATION_NOT_FOUND') };
  }
  const role = parsed.data;
  const privileged = GROUP_ROLE_RANK[role] >= GROUP_ROLE_RANK.admin;
  if (!privileged && member.muted_until !== null && Number(member.muted_until) > now) {
    return { error: new AppError('MUTED_IN_GROUP') };
  }
  if (!privileged && group.all_muted === 1) return { error: new AppError('GROUP_ALL_MUTED') };
  return {
    readSeq: Number(member.read_seq),
    minSeq: Number(member.min_seq),
    group: { role, allowedKinds: JSON.parse(group.allowed_kinds) as string[] },
  };
}

/**
 * What a group member's message may hold: kinds the group allows (admins send any), and
 * @all only for roles that may (refused rather than silently dropped, so the sender knows).
 */
export function groupContentRefusal(
  group: { role: GroupRole; allowedKinds: readonly string[] },
  content: SendMessageBody['content'],
): AppError | null {
  const privileged = GROUP_ROLE_RANK[group.role] >= GROUP_ROLE_RANK.admin;
  if (!privileged && !group.allowedKinds.includes(content.kind)) {
    return new AppError('MESSAGE_KIND_NOT_ALLOWED');
  }
  if (content.kind === 'text' && content.mentionAll && !mayInGroup(group.role, 'mentionAll')) {
    return new AppError('GROUP_ROLE_REQUIRED');
  }
  return null;
}
