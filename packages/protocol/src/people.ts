import { z } from 'zod';
import { GREETING_MAX_LENGTH, REMARK_MAX_LENGTH } from './chat-rules.js';
import { isPlainName } from './validation.js';

/**
 * People as chats show them: cards and profiles, friend requests, friends, blocks and
 * official accounts.
 */

export const userIdSchema = z.string().regex(/^[A-Za-z0-9]{1,32}$/, { error: 'user' });

/** What anyone may see of another user. */
export const userCardSchema = z.object({
  id: z.string(),
  teltlkId: z.string(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  country: z.string(),
  motherTongue: z.string(),
  /** A product account (announcements); only operators post as it. */
  official: z.boolean(),
});
export type UserCard = z.infer<typeof userCardSchema>;

export const relationSchema = z.enum(['self', 'friend', 'none']);
/** A user as the caller sees them: the card plus how they relate. */
export const userProfileSchema = userCardSchema.extend({
  relation: relationSchema,
  /** The caller's alias for a friend. */
  remark: z.string().nullable(),
  /** The caller has blocked this user. */
  blocked: z.boolean(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

/** Phone (+E.164), email or Teltlk ID, matched exactly (IDs and emails case-insensitively). */
export const userSearchQuery = z.object({
  q: z.string().trim().min(1, { error: 'required' }).max(254, { error: 'invalid' }),
});
export const userSearchResult = z.object({ user: userProfileSchema });

export const friendRequestStatusSchema = z.enum(['pending', 'agreed', 'rejected', 'added']);
export type FriendRequestStatus = z.infer<typeof friendRequestStatusSchema>;
/**
 * One application. A newer one from the same sender to the same recipient replaces the
 * older (same id, new greeting and time, pending again). `added`: they became friends
 * another way (the other side's application was accepted).
 */
export const friendRequestSchema = z.object({
  id: z.string(),
  from: userCardSchema,
  to: userCardSchema,
  greeting: z.string(),
  status: friendRequestStatusSchema,
  createdAt: z.number(),
  handledAt: z.number().nullable(),
});
export type FriendRequest = z.infer<typeof friendRequestSchema>;
export const friendRequestListResult = z.object({
  received: z.array(friendRequestSchema),
  sent: z.array(friendRequestSchema),
});
export type FriendRequestListResult = z.infer<typeof friendRequestListResult>;

export const greetingSchema = z.string().trim().max(GREETING_MAX_LENGTH, { error: 'greeting' });
export const sendFriendRequestBody = z.object({
  userId: userIdSchema,
  greeting: greetingSchema.optional(),
});
export type SendFriendRequestBody = z.infer<typeof sendFriendRequestBody>;

export const friendSchema = z.object({
  user: userCardSchema,
  remark: z.string().nullable(),
  since: z.number(),
});
export type Friend = z.infer<typeof friendSchema>;
export const friendListResult = z.object({ friends: z.array(friendSchema) });
export type FriendListResult = z.infer<typeof friendListResult>;

export const remarkSchema = z
  .string()
  .trim()
  .max(REMARK_MAX_LENGTH, { error: 'remark' })
  .refine(isPlainName, { error: 'nameCharacters' });
export const updateFriendBody = z.object({ remark: remarkSchema.nullable() }).strict();
export type UpdateFriendBody = z.infer<typeof updateFriendBody>;

export const blockListResult = z.object({ blocked: z.array(userCardSchema) });
export type BlockListResult = z.infer<typeof blockListResult>;
export const officialListResult = z.object({ accounts: z.array(userCardSchema) });
export type OfficialListResult = z.infer<typeof officialListResult>;
