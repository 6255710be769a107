import type { Channel, Me } from '@teltlk/protocol';

/** The page title of adding or replacing an address of the account (security texts). */
export function addressTitleKey(channel: Channel, replacing: boolean) {
  if (channel === 'email') return replacing ? 'address.changeEmailTitle' : 'address.addEmailTitle';
  return replacing ? 'address.changePhoneTitle' : 'address.addPhoneTitle';
}

/** What is said once the address is on the account (security texts). */
export function addressDoneKey(channel: Channel, replacing: boolean) {
  if (channel === 'email') return replacing ? 'address.emailChanged' : 'address.emailAdded';
  return replacing ? 'address.phoneChanged' : 'address.phoneAdded';
}

/** The account's current address of a kind, or null. */
export function currentAddress(me: Me, channel: Channel): string | null {
  return channel === 'email' ? me.email : me.phone;
}

/** The channel a page's query names, or null. */
export function readChannel(search: URLSearchParams): Channel | null {
  const channel = search.get('channel');
  return channel === 'phone' || channel === 'email' ? channel : null;
}
