import type { SecurityActivity } from '@teltlk/protocol';
import { summariseUserAgent } from '../../ui/user-agent';

type AddressAction = 'addressAdded' | 'addressReplaced' | 'addressRestored';
type PlainAction = Exclude<SecurityActivity['action'], AddressAction>;

const ADDRESS_KEYS = {
  addressAdded: { email: 'activity.action.emailAdded', phone: 'activity.action.phoneAdded' },
  addressReplaced: {
    email: 'activity.action.emailReplaced',
    phone: 'activity.action.phoneReplaced',
  },
  addressRestored: {
    email: 'activity.action.emailRestored',
    phone: 'activity.action.phoneRestored',
  },
} as const;

/** The catalog key naming what an entry records; an address's channel picks its words. */
export function activityActionKey(activity: Pick<SecurityActivity, 'action' | 'channel'>) {
  const { action } = activity;
  if (action === 'addressAdded' || action === 'addressReplaced' || action === 'addressRestored') {
    return ADDRESS_KEYS[action][activity.channel === 'phone' ? 'phone' : 'email'];
  }
  return `activity.action.${action satisfies PlainAction}` as const;
}

/** A device as an entry names it, "Chrome · Windows"; null when its user agent says nothing. */
export function deviceParts(
  userAgent: string | null,
): { browser: string | null; os: string | null } | null {
  const summary = summariseUserAgent(userAgent);
  return summary.browser === null && summary.os === null ? null : summary;
}

/**
 * What an entry adds to its action, when it is worth a line: the address (partly hidden),
 * the amount, the Pi username, the device approved. A sign-in's way in is left out: the
 * entry says where it came from, which is what a person checks.
 */
export function activityDetail(
  activity: Pick<SecurityActivity, 'action' | 'detail'>,
  deviceName: (userAgent: string) => string,
): string | null {
  const { action, detail } = activity;
  if (detail === null || detail === '') return null;
  switch (action) {
    case 'addressAdded':
    case 'addressReplaced':
    case 'addressRestored':
    case 'withdrawal':
    case 'piBound':
    case 'piUnbound':
      return detail;
    case 'deviceApproved':
      return deviceName(detail);
    default:
      return null;
  }
}
