import { useEffect } from 'react';
import { useTabBadges } from '../../app/tab-badges';
import { pendingReceivedCount } from './contact-cache';
import { useContactEvents, useFriendRequests } from './use-contacts';

/**
 * Mounted with the tab bar: loads the friend applications as soon as the signed-in shell
 * shows, keeps them fresh from live events and sets the contacts badge to the pending
 * received ones. Coming back from a page without the tab bar reloads them, in case an
 * event arrived while nothing listened.
 */
export function ContactsSync() {
  const requests = useFriendRequests({ refetchOnMount: 'always' });
  useContactEvents();
  const count = pendingReceivedCount(requests.data);
  const setBadge = useTabBadges((state) => state.setBadge);
  useEffect(() => setBadge('contacts', count), [setBadge, count]);
  return null;
}
