import { GROUP_TEXT_MAX_LENGTH } from './chat-rules.js';

/**
 * Group limits, roles and permissions, without schemas: what a client needs on its first
 * screen, where zod would only cost download (`groups.ts` re-exports all of it).
 */

export const GROUP_MAX_MEMBERS = 100_000;
export const GROUP_NAME_MAX_LENGTH = 32;
export const GROUP_NOTICE_MAX_LENGTH = GROUP_TEXT_MAX_LENGTH;
export const GROUP_NICKNAME_MAX_LENGTH = 32;
export const GROUP_REMARK_MAX_LENGTH = 32;
export const GROUP_APPLICATION_MESSAGE_MAX_LENGTH = 100;
/** Friends picked when creating a group, or invited at once. */
export const GROUP_INVITE_MAX = 500;
/** Up to this size the sender of a message sees who read it, not only how many. */
export const GROUP_READERS_DETAIL_MAX = 500;
export const GROUP_MEMBERS_PAGE_MAX = 200;
/** Mute durations an admin may choose for a member, in seconds. */
export const GROUP_MUTE_DURATIONS = [600, 3600, 43_200, 86_400, 604_800] as const;

export const GROUP_ROLES = ['owner', 'admin', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** Rank of each role: an admin acts on members only; the owner on everyone. */
export const GROUP_ROLE_RANK: Record<GroupRole, number> = { owner: 3, admin: 2, member: 1 };

/** Message kinds a group may allow its members to send (admins may always send). */
export const GROUP_MESSAGE_KINDS = [
  'text',
  'image',
  'voice',
  'video',
  'file',
  'location',
  'card',
  'face',
  'merged',
] as const;
export type GroupMessageKind = (typeof GROUP_MESSAGE_KINDS)[number];

/**
 * Who may do what in a group: the one table the server enforces and the app reads to
 * show or hide controls. Acting on another member (remove, mute, set role) also needs a
 * higher rank than theirs (GROUP_ROLE_RANK).
 */
export const GROUP_PERMISSIONS = {
  rename: ['owner', 'admin'],
  setAvatar: ['owner', 'admin'],
  setNotice: ['owner', 'admin'],
  setVerification: ['owner', 'admin'],
  setPrivateChat: ['owner', 'admin'],
  setMessageKinds: ['owner', 'admin'],
  setCallPolicy: ['owner', 'admin'],
  muteAll: ['owner', 'admin'],
  muteMember: ['owner', 'admin'],
  removeMember: ['owner', 'admin'],
  reviewApplications: ['owner', 'admin'],
  mentionAll: ['owner', 'admin'],
  /** In `invite` mode only members' invitations add people; any member may invite. */
  invite: ['owner', 'admin', 'member'],
  setRole: ['owner'],
  transferOwnership: ['owner'],
  dismiss: ['owner'],
  /** The owner transfers ownership or dismisses the group instead. */
  quit: ['admin', 'member'],
  send: ['owner', 'admin', 'member'],
} as const satisfies Record<string, readonly GroupRole[]>;
export type GroupAction = keyof typeof GROUP_PERMISSIONS;

export function mayInGroup(role: GroupRole | null, action: GroupAction): boolean {
  return role !== null && (GROUP_PERMISSIONS[action] as readonly GroupRole[]).includes(role);
}
