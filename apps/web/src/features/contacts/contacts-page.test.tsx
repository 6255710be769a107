import type { FriendListResult, FriendRequestListResult } from '@teltlk/protocol';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { pages_en_US } from '../../i18n/pages-en_US';
import { ContactsPage } from './contacts-page';

const lists: { friends: FriendListResult; requests: FriendRequestListResult } = vi.hoisted(() => ({
  friends: { friends: [] },
  requests: { received: [], sent: [] },
}));

vi.mock('../../api/use-contacts', () => ({
  useFriends: () => ({ data: lists.friends, error: null, refetch: () => {} }),
  useFriendRequests: () => ({ data: lists.requests, error: null, refetch: () => {} }),
}));

function render(): string {
  return renderToStaticMarkup(<ContactsPage />);
}

describe('the contacts page without friends', () => {
  it('has no index bar, and says a friend request waits rather than that nothing is there', () => {
    lists.requests = {
      received: [{ id: 'r1', status: 'pending', createdAt: 1 }],
      sent: [],
    } as unknown as FriendRequestListResult;
    const html = render();
    expect(html).not.toContain('adm-index-bar');
    expect(html).not.toContain('↑');
    expect(html).toContain(pages_en_US.contacts.pendingText);
    expect(html).not.toContain(pages_en_US.contacts.emptyText);
  });

  it('says how contacts come when no request waits', () => {
    lists.requests = { received: [], sent: [] };
    const html = render();
    expect(html).not.toContain('adm-index-bar');
    expect(html).toContain(pages_en_US.contacts.emptyText);
  });
});
