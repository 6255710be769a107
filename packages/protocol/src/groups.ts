import { z } from 'zod';
import { groupBriefSchema } from './chat.js';
import { greetingSchema, userCardSchema, userIdSchema } from './people.js';
import { isPlainName } from './validation.js';
import {
  GROUP_APPLICATION_MESSAGE_MAX_LENGTH,
  GROUP_INVITE_MAX,
  GROUP_MEMBERS_PAGE_MAX,
  GROUP_MESSAGE_KINDS,
  GROUP_MUTE_DURATIONS,
  GROUP_NAME_MAX_LENGTH,
  GROUP_NICKNAME_MAX_LENGTH,
  GROUP_NOTICE_MAX_LENGTH,
  GROUP_REMARK_MAX_LENGTH,
  GROUP_ROLES,
} from './group-rules.js';

export * from './group-rules.js';

/**
 * Groups of up to 100,000 members. A group's conversation is `sg_<groupId>`: its
 * messages are written once (read diffusion) and its members are the conversation's
 * members, each with a role. Group system notices are messages of kind `system` in the
 * group's seq stream, rendered by each reader in their own interface language.
 */

export const groupRoleSchema = z.enum(GROUP_ROLES);

/**
 * How people join: `open` anyone with the group ID or QR code joins at once; `approval`
 * an admin approves each application; `invite` only members' invitations bring people in.
 */
export const groupVerificationSchema = z.enum(['open', 'approval', 'invite']);
export type GroupVerification = z.infer<typeof groupVerificationSchema>;

export const groupMessageKindSchema = z.enum(GROUP_MESSAGE_KINDS);
/** Who may start a call in a group: every member, or only the owner and admins. */
export const groupCallPolicySchema = z.enum(['all', 'admins'], { error: 'callPolicy' });
export type GroupCallPolicy = z.infer<typeof groupCallPolicySchema>;

export const groupNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'groupName' })
  .max(GROUP_NAME_MAX_LENGTH, { error: 'groupName' })
  .refine(isPlainName, { error: 'nameCharacters' });
export const groupNoticeSchema = z
  .string()
  .trim()
  .max(GROUP_NOTICE_MAX_LENGTH, { error: 'groupNotice' });
/** The group's public number, searched for and shown with the QR code: 8 to 10 digits. */
export const groupNoSchema = z
  .string()
  .trim()
  .regex(/^\d{8,10}$/, { error: 'groupNo' });

export const groupSchema = z.object({
  id: z.string(),
  groupNo: z.string(),
  name: z.string(),
  avatarUrl: z.string().nullable(),
  notice: z.string(),
  noticeAt: z.number().nullable(),
  ownerId: z.string(),
  memberCount: z.number().int(),
  verification: groupVerificationSchema,
  /**
   * Members may start one-to-one chats and friend requests from the member list. While
   * off, only the owner and admins may send a friend request through the group.
   */
  privateChat: z.boolean(),
  allowedKinds: z.array(groupMessageKindSchema),
  allMuted: z.boolean(),
  /** Who may start a call here (anyone in the group joins a running one). */
  callPolicy: groupCallPolicySchema.default('all'),
  createdAt: z.number(),
});
export type Group = z.infer<typeof groupSchema>;

/** The caller's own place in a group. */
export const groupMembershipSchema = z.object({
  role: groupRoleSchema,
  /** My nickname in this group. */
  nickname: z.string().nullable(),
  /** My private remark for the group (its name as I see it). */
  remark: z.string().nullable(),
  mutedUntil: z.number().nullable(),
  joinedAt: z.number(),
});
export type GroupMembership = z.infer<typeof groupMembershipSchema>;

export const myGroupSchema = groupSchema.extend({ me: groupMembershipSchema });
export type MyGroup = z.infer<typeof myGroupSchema>;
export const myGroupListResult = z.object({ groups: z.array(myGroupSchema) });

/** What anyone may see of a group before joining (search by number, QR code). */
export const groupSummarySchema = groupBriefSchema.extend({
  groupNo: z.string(),
  verification: groupVerificationSchema,
  joined: z.boolean(),
});
export type GroupSummary = z.infer<typeof groupSummarySchema>;
export const groupSearchQuery = z.object({ no: groupNoSchema });
export const groupSearchResult = z.object({ group: groupSummarySchema });

export const groupMemberSchema = z.object({
  user: userCardSchema,
  role: groupRoleSchema,
  nickname: z.string().nullable(),
  mutedUntil: z.number().nullable(),
  joinedAt: z.number(),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;
/** Members by role (owner, admins, then members by joining), searchable by name or ID. */
export const groupMembersQuery = z.object({
  q: z.string().trim().max(64).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(GROUP_MEMBERS_PAGE_MAX).default(50),
});
export const groupMembersResult = z.object({
  members: z.array(groupMemberSchema),
  nextCursor: z.string().nullable(),
});
export type GroupMembersResult = z.infer<typeof groupMembersResult>;

const memberIdsSchema = z
  .array(userIdSchema)
  .max(GROUP_INVITE_MAX, { error: 'groupMembers' })
  .refine((ids) => new Set(ids).size === ids.length, { error: 'groupMembers' });

export const createGroupBody = z.object({
  /** Defaults to the first members' names. */
  name: groupNameSchema.optional(),
  /** Friends of the creator. */
  memberIds: memberIdsSchema.min(1, { error: 'groupMembers' }),
});
export type CreateGroupBody = z.infer<typeof createGroupBody>;

export const updateGroupBody = z
  .object({
    name: groupNameSchema,
    notice: groupNoticeSchema,
    verification: groupVerificationSchema,
    privateChat: z.boolean(),
    allowedKinds: z.array(groupMessageKindSchema),
    allMuted: z.boolean(),
    callPolicy: groupCallPolicySchema,
  })
  .partial()
  .strict();
export type UpdateGroupBody = z.infer<typeof updateGroupBody>;

export const updateMyGroupBody = z
  .object({
    nickname: z
      .string()
      .trim()
      .max(GROUP_NICKNAME_MAX_LENGTH, { error: 'nickname' })
      .refine(isPlainName, { error: 'nameCharacters' })
      .nullable(),
    remark: z
      .string()
      .trim()
      .max(GROUP_REMARK_MAX_LENGTH, { error: 'remark' })
      .refine(isPlainName, { error: 'nameCharacters' })
      .nullable(),
  })
  .partial()
  .strict();
export type UpdateMyGroupBody = z.infer<typeof updateMyGroupBody>;

export const inviteMembersBody = z.object({ userIds: memberIdsSchema.min(1) });
export const inviteMembersResult = z.object({ added: z.number().int() });
export const setRoleBody = z.object({ role: z.enum(['admin', 'member']) });
export const muteMemberBody = z.object({
  /** 0 lifts the mute. */
  seconds: z
    .number()
    .int()
    .refine((s) => s === 0 || (GROUP_MUTE_DURATIONS as readonly number[]).includes(s), {
      error: 'muteDuration',
    }),
});
export const transferGroupBody = z.object({ userId: userIdSchema });
/** A friend application to another member, made from the group (its member list). */
export const groupFriendRequestBody = z.object({ greeting: greetingSchema.optional() });
export type GroupFriendRequestBody = z.infer<typeof groupFriendRequestBody>;
export const groupMemberParams = z.object({ id: z.string().min(1).max(64), userId: userIdSchema });

export const joinGroupBody = z.object({
  message: z
    .string()
    .trim()
    .max(GROUP_APPLICATION_MESSAGE_MAX_LENGTH, { error: 'greeting' })
    .optional(),
});
export const joinGroupResult = z.object({ status: z.enum(['joined', 'pending']) });

export const groupApplicationStatusSchema = z.enum(['pending', 'accepted', 'rejected']);
export const groupApplicationSchema = z.object({
  id: z.string(),
  group: groupSummarySchema,
  user: userCardSchema,
  message: z.string(),
  status: groupApplicationStatusSchema,
  createdAt: z.number(),
  handledAt: z.number().nullable(),
});
export type GroupApplication = z.infer<typeof groupApplicationSchema>;
/** Applications the caller may review (admins), newest first, and the caller's own. */
export const groupApplicationListResult = z.object({
  toReview: z.array(groupApplicationSchema),
  mine: z.array(groupApplicationSchema),
});
export type GroupApplicationListResult = z.infer<typeof groupApplicationListResult>;

/** How many members have read a message (from their read seqs), and who in small groups. */
export const messageReadsResult = z.object({
  readCount: z.number().int(),
  memberCount: z.number().int(),
  /** Null in groups over GROUP_READERS_DETAIL_MAX members. */
  readers: z.array(userCardSchema).nullable(),
});
export type MessageReadsResult = z.infer<typeof messageReadsResult>;
