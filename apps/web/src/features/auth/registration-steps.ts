import type { Channel } from '@teltlk/protocol';

/** What registration has gathered so far, page by page. */
export interface RegistrationDraft {
  channel: Channel | null;
  destination: string | null;
  /** Proof of the verified code; finishes registration within 30 minutes. */
  ticket: string | null;
  nickname: string;
  /** Kept in memory only, never written to storage; a reload asks for it again. */
  password: string;
  country: string | null;
  motherTongue: string | null;
  inviteCode: string;
  /** Signing up through Pi: the server's ticket for the checked Pi account, in place of a code. */
  pi: { ticket: string; username: string } | null;
}

export type RegisterStep = 'contact' | 'account' | 'region' | 'language' | 'invite';

export const emptyDraft: RegistrationDraft = {
  channel: null,
  destination: null,
  ticket: null,
  nickname: '',
  password: '',
  country: null,
  motherTongue: null,
  inviteCode: '',
  pi: null,
};

const order: RegisterStep[] = ['contact', 'account', 'region', 'language', 'invite'];

/** Whether the data a step produces is in the draft. */
function stepDone(step: RegisterStep, draft: RegistrationDraft): boolean {
  switch (step) {
    case 'contact':
      return Boolean(draft.pi ?? (draft.ticket && draft.channel && draft.destination));
    case 'account':
      // An account made through Pi signs in with Pi: no password to choose.
      return draft.nickname.trim().length > 0 && (draft.pi !== null || draft.password.length > 0);
    case 'region':
      return Boolean(draft.country);
    case 'language':
      return Boolean(draft.motherTongue);
    case 'invite':
      return true;
  }
}

/**
 * The first earlier step whose data is missing before `step` can be shown, or null
 * when the person may be on `step`. Someone who reloads (and so lost the password in
 * memory) or who opens a later page directly is sent back to where the gap is.
 */
export function missingStep(step: RegisterStep, draft: RegistrationDraft): RegisterStep | null {
  for (const earlier of order.slice(0, order.indexOf(step))) {
    if (!stepDone(earlier, draft)) return earlier;
  }
  return null;
}
