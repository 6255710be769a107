import type { FriendListResult, FriendRequestListResult } from '@teltlk/protocol';
import i18next from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { en_US } from '../../i18n/en_US';
import { ContactsPage } from './contacts-page';

const i18n = i18next.createInstance();

vi.mock('react-i18next', () => ({
  useTranslation: () => ({ t: i18n.t.bind(i18n), i18n: { language: 'en_US' } }),
  initReactI18next: { type: '3rdParty', init: () => {} },
}));

// Icons are decoration here; the icon library resolves its own copy of React.
vi.mock('antd-mobile-icons', () => {
  const none = () => null;
  return {
    LeftOutline: none,
    RightOutline: none,
    StarOutline: none,
    StopOutline: none,
    TeamOutline: none,
    UserAddOutline: none,
    UserContactOutline: none,
  };
});

// The router resolves the root's copy of React under test; links render as anchors.
vi.mock('react-router', () => ({
  Link: ({ to, className, children }: { to: string; className?: string; children: unknown }) => (
    <a href={to} className={className}>
      {children as string}
    </a>
  ),
  useNavigate: () => () => {},
  useLocation: () => ({ key: 'default' }),
}));

const lists: { friends: FriendListResult; requests: FriendRequestListResult } = vi.hoisted(() => ({
  friends: { friends: [] },
  requests: { received: [], sent: [] },
}));

vi.mock('../../api/use-contacts', () => ({
  useFriends: () => ({ data: lists.friends, error: null, refetch: () => {} }),
  useFriendRequests: () => ({ data: lists.requests, error: null, refetch: () => {} }),
}));

beforeAll(async () => {
  await i18n.init({ lng: 'en_US', resources: { en_US: { translation: en_US } } });
});

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
    expect(html).toContain(en_US.contacts.pendingText);
    expect(html).not.toContain(en_US.contacts.emptyText);
  });

  it('says how contacts come when no request waits', () => {
    lists.requests = { received: [], sent: [] };
    const html = render();
    expect(html).not.toContain('adm-index-bar');
    expect(html).toContain(en_US.contacts.emptyText);
  });
});
