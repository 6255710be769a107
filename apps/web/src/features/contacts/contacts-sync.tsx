import { useEffect } from 'react';
import { useTabBadges } from '../../app/tab-badges';
import { useGroupEvents, usePendingReviewCount } from '../../api/use-groups';
import { pendingReceivedCount } from '../../api/contact-cache';
import { useContactEvents, useFriendRequests } from '../../api/use-contacts';

/**
 * Mounted with the tab bar: loads the friend applications as soon as the signed-in shell
 * shows, keeps them fresh from live events and sets the contacts badge to the pending
 * received ones, plus the group applications the user may review. Coming back from a page without the tab bar reloads them, in case an
 * event arrived while nothing listened.
 */
export function ContactsSync() {
  const requests = useFriendRequests({ refetchOnMount: 'always' });
  useContactEvents();
  useGroupEvents();
  // Friend requests to answer and, for group admins, applications to review.
  const count = pendingReceivedCount(requests.data) + usePendingReviewCount();
  const setBadge = useTabBadges((state) => state.setBadge);
  useEffect(() => setBadge('contacts', count), [setBadge, count]);
  return null;
}
