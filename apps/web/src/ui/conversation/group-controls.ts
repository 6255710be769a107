import {
  GROUP_ROLE_RANK,
  mayInGroup,
  type Group,
  type GroupMember,
  type GroupMessageKind,
  type GroupRole,
} from '@teltlk/protocol';

/** What the caller may do to one member from the member list, in the order shown. */
export type MemberAction =
  | 'sendMessage'
  | 'viewProfile'
  | 'makeAdmin'
  | 'removeAdmin'
  | 'mute'
  | 'unmute'
  | 'transfer'
  | 'remove';

/** Acting on another member needs a higher rank than theirs (the server checks it too). */
function outranks(myRole: GroupRole, theirRole: GroupRole): boolean {
  return GROUP_ROLE_RANK[myRole] > GROUP_ROLE_RANK[theirRole];
}

/**
 * The member actions to offer, from the group's permission table: nothing on oneself,
 * private chats only when the group allows them (admins always may), role, mute and
 * remove only on lower ranks.
 */
export function memberActions(
  group: Pick<Group, 'privateChat'>,
  myRole: GroupRole,
  member: Pick<GroupMember, 'role' | 'mutedUntil'> & { userId: string },
  selfId: string,
  now: number,
): MemberAction[] {
  if (member.userId === selfId) return [];
  const actions: MemberAction[] = [];
  if (group.privateChat || mayInGroup(myRole, 'setPrivateChat')) {
    actions.push('sendMessage', 'viewProfile');
  }
  if (!outranks(myRole, member.role)) return actions;
  if (mayInGroup(myRole, 'setRole')) {
    actions.push(member.role === 'admin' ? 'removeAdmin' : 'makeAdmin');
  }
  if (mayInGroup(myRole, 'muteMember')) {
    actions.push(member.mutedUntil !== null && member.mutedUntil > now ? 'unmute' : 'mute');
  }
  if (mayInGroup(myRole, 'transferOwnership')) actions.push('transfer');
  if (mayInGroup(myRole, 'removeMember')) actions.push('remove');
  return actions;
}

/** The settings a role sees as editable; the rest show read-only or not at all. */
export interface SettingControls {
  rename: boolean;
  setAvatar: boolean;
  editNotice: boolean;
  manage: boolean;
  reviewApplications: boolean;
  invite: boolean;
  quit: boolean;
  dismiss: boolean;
}

export function settingControls(role: GroupRole): SettingControls {
  return {
    rename: mayInGroup(role, 'rename'),
    setAvatar: mayInGroup(role, 'setAvatar'),
    editNotice: mayInGroup(role, 'setNotice'),
    manage:
      mayInGroup(role, 'setVerification') ||
      mayInGroup(role, 'setPrivateChat') ||
      mayInGroup(role, 'muteAll'),
    reviewApplications: mayInGroup(role, 'reviewApplications'),
    invite: mayInGroup(role, 'invite'),
    quit: mayInGroup(role, 'quit'),
    dismiss: mayInGroup(role, 'dismiss'),
  };
}

/**
 * Why the caller may not send right now, or null: muted personally, everyone muted
 * (admins still speak), or text not among the group's allowed kinds (admins always may).
 */
export function sendBlock(
  group: Pick<Group, 'allMuted' | 'allowedKinds'>,
  me: { role: GroupRole; mutedUntil: number | null },
  now: number,
): { reason: 'muted'; until: number } | { reason: 'allMuted' | 'textNotAllowed' } | null {
  if (me.mutedUntil !== null && me.mutedUntil > now)
    return { reason: 'muted', until: me.mutedUntil };
  if (group.allMuted && !mayInGroup(me.role, 'muteAll')) return { reason: 'allMuted' };
  if (!mayUseKind(group, me.role, 'text')) return { reason: 'textNotAllowed' };
  return null;
}

/**
 * Whether a member of this role may send a kind of message in the group: a kind the
 * group allows, or any kind for admins (as the server decides it).
 */
export function mayUseKind(
  group: Pick<Group, 'allowedKinds'>,
  role: GroupRole,
  kind: GroupMessageKind,
): boolean {
  return mayInGroup(role, 'muteAll') || group.allowedKinds.includes(kind);
}
