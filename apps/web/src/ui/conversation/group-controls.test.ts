import { describe, expect, it } from 'vitest';
import { memberActions, sendBlock, settingControls } from './group-controls';

const now = 1_000_000;
const open = { privateChat: true };
const closed = { privateChat: false };

function member(role: 'owner' | 'admin' | 'member', mutedUntil: number | null = null) {
  return { userId: `u-${role}`, role, mutedUntil };
}

describe('memberActions', () => {
  it('offers nothing on oneself', () => {
    expect(memberActions(open, 'owner', { ...member('owner'), userId: 'me' }, 'me', now)).toEqual(
      [],
    );
  });

  it('gives the owner every action on an admin', () => {
    expect(memberActions(open, 'owner', member('admin'), 'me', now)).toEqual([
      'sendMessage',
      'viewProfile',
      'removeAdmin',
      'mute',
      'transfer',
      'remove',
    ]);
  });

  it('lets an admin mute and remove members but not other admins or the owner', () => {
    expect(memberActions(closed, 'admin', member('member'), 'me', now)).toEqual([
      'sendMessage',
      'viewProfile',
      'mute',
      'remove',
    ]);
    expect(memberActions(closed, 'admin', member('admin'), 'me', now)).toEqual([
      'sendMessage',
      'viewProfile',
    ]);
    expect(memberActions(closed, 'admin', member('owner'), 'me', now)).toEqual([
      'sendMessage',
      'viewProfile',
    ]);
  });

  it('offers unmute for a member muted now, and private chat by the group mode', () => {
    expect(memberActions(closed, 'owner', member('member', now + 60_000), 'me', now)).toContain(
      'unmute',
    );
    expect(memberActions(closed, 'owner', member('member', now - 1), 'me', now)).toContain('mute');
    expect(memberActions(open, 'member', member('member'), 'me', now)).toEqual([
      'sendMessage',
      'viewProfile',
    ]);
    expect(memberActions(closed, 'member', member('admin'), 'me', now)).toEqual([]);
  });
});

describe('settingControls', () => {
  it('follows the permission table per role', () => {
    expect(settingControls('owner')).toEqual({
      rename: true,
      setAvatar: true,
      editNotice: true,
      manage: true,
      reviewApplications: true,
      invite: true,
      quit: false,
      dismiss: true,
    });
    expect(settingControls('admin')).toMatchObject({
      setAvatar: true,
      manage: true,
      quit: true,
      dismiss: false,
    });
    expect(settingControls('member')).toEqual({
      rename: false,
      setAvatar: false,
      editNotice: false,
      manage: false,
      reviewApplications: false,
      invite: true,
      quit: true,
      dismiss: false,
    });
  });
});

describe('sendBlock', () => {
  const group = { allMuted: false, allowedKinds: ['text' as const] };
  it('blocks a muted member until the mute ends', () => {
    expect(sendBlock(group, { role: 'member', mutedUntil: now + 5 }, now)).toEqual({
      reason: 'muted',
      until: now + 5,
    });
    expect(sendBlock(group, { role: 'member', mutedUntil: now - 5 }, now)).toBeNull();
  });

  it('lets admins speak when everyone is muted or text is off', () => {
    expect(
      sendBlock({ ...group, allMuted: true }, { role: 'member', mutedUntil: null }, now),
    ).toEqual({ reason: 'allMuted' });
    expect(
      sendBlock({ ...group, allMuted: true }, { role: 'admin', mutedUntil: null }, now),
    ).toBeNull();
    expect(
      sendBlock({ allMuted: false, allowedKinds: [] }, { role: 'member', mutedUntil: null }, now),
    ).toEqual({ reason: 'textNotAllowed' });
  });
});
