import type { ConversationView } from '@teltlk/im-sdk';
import { groupConversationId } from '@teltlk/protocol';
import { MessageOutline, SearchOutline, UserAddOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths, sectionOf } from '../../app/paths';
import { useDesktop } from '../../app/screen';
import { EmptyState } from '../../ui/empty-state';
import { PageSpinner } from '../../ui/spinner';
import { useRemarks } from '../../api/use-remarks';
import { orderConversations } from '../../ui/conversation/chat-list';
import { ConversationRow, type OpenMark, type RowAction } from './conversation-row';
import type { RowSwipe } from './row-swipe';
import { toastModifyFailure } from '../../ui/failure-toast';
import { onFirstUse } from '../../ui/first-use';
import { setPageTitle } from '../../ui/page-title';
import './home.css';

const loadRowMenu = () => import('./row-menu');
const RowMenu = lazy(() => loadRowMenu().then((module) => ({ default: module.RowMenu })));

/** Row times ("14:05", "Yesterday") move on by themselves. */
const CLOCK_TICK_MS = 60_000;

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** How long the browser may stay busy before the swipe actions are fetched anyway. */
const SWIPE_IDLE_TIMEOUT_MS = 2_000;

/**
 * The rows' swipe actions, fetched once the list has shown rows (when the browser is idle, or
 * at the first touch, whichever comes first); null until then, and for good if the fetch
 * fails (offline): the rows work without them, and the long-press menu does the same.
 */
function useRowSwipe(rowsShown: boolean): typeof RowSwipe | null {
  const [swipe, setSwipe] = useState<{ component: typeof RowSwipe } | null>(null);
  useEffect(() => {
    if (!rowsShown) return;
    let active = true;
    let started = false;
    const load = () => {
      if (started) return;
      started = true;
      import('./row-swipe')
        .then((module) => {
          if (active) setSwipe({ component: module.RowSwipe });
        })
        .catch(() => {});
    };
    const idle =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(load, { timeout: SWIPE_IDLE_TIMEOUT_MS })
        : null;
    const timer = idle === null ? window.setTimeout(load, SWIPE_IDLE_TIMEOUT_MS) : null;
    const stopWatching = onFirstUse(load);
    return () => {
      active = false;
      if (idle !== null) window.cancelIdleCallback(idle);
      if (timer !== null) window.clearTimeout(timer);
      stopWatching();
    };
  }, [rowsShown]);
  return swipe?.component ?? null;
}

/** Whether the menu has been opened at least once. */
function useMenuUsed(open: boolean): boolean {
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  return used || open;
}

/** The tab's header: the title, and the add-friend button as an icon. */
function HomeHeader() {
  const { t } = useTranslation();
  const title = t('home.title');
  const appName = t('common.appName');
  useEffect(() => {
    setPageTitle(`${title} · ${appName}`);
  }, [title, appName]);
  return (
    <header className="tt-header">
      <div className="tt-header-side">
        <Link className="tt-icon-button" to={paths.search} aria-label={t('search.open')}>
          <SearchOutline aria-hidden />
        </Link>
      </div>
      <h1 className="tt-header-title">{title}</h1>
      <div className="tt-header-side tt-header-side-end">
        <Link className="tt-icon-button" to={paths.homeAddFriend} aria-label={t('home.addFriend')}>
          <UserAddOutline aria-hidden />
        </Link>
      </div>
    </header>
  );
}

/**
 * The conversation open beside the list, marked in the list: its chat (the current page),
 * or a page of it (its settings, a group's, a search in it); none on the list's own page.
 */
function useOpenConversation(): { id: string; mark: OpenMark } | null {
  const { pathname } = useLocation();
  const [search] = useSearchParams();
  const groupId = search.get('groupId');
  const id = search.get('conversationId') ?? (groupId ? groupConversationId(groupId) : null);
  if (!id || pathname === paths.root || pathname === paths.home) return null;
  if (sectionOf(pathname) !== 'home') return null;
  return { id, mark: pathname === paths.chat ? 'page' : 'true' };
}

/** The desktop's chats tab with no chat open: the list is beside, this asks to pick one. */
function NoChatOpen() {
  const { t } = useTranslation();
  const title = t('home.title');
  const appName = t('common.appName');
  useEffect(() => {
    setPageTitle(`${title} · ${appName}`);
  }, [title, appName]);
  return (
    <main className="tt-no-chat">
      <MessageOutline aria-hidden />
      <p>{t('home.pickChat')}</p>
    </main>
  );
}

/**
 * `/pages/home/home` (and `/` when signed in): the chat list. `beside` when it sits next
 * to the page on the right (a chat) on a wide screen: that page holds the main landmark
 * then. On a desktop the list is always beside (wide-frame.tsx), and this page's place
 * asks for a chat to open.
 */
export function HomePage({ beside = false }: { beside?: boolean }) {
  const desktop = useDesktop();
  return desktop && !beside ? <NoChatOpen /> : <ChatList beside={beside} />;
}

function ChatList({ beside }: { beside: boolean }) {
  const { t } = useTranslation();
  const open = useOpenConversation();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const loaded = snapshot !== null && snapshot.status !== 'starting';
  const selfId = useSelfId();
  const now = useNow();
  const remarks = useRemarks();
  const [menuFor, setMenuFor] = useState<ConversationView | null>(null);
  // Mounted from the first opening on, so later closings animate.
  const menuUsed = useMenuUsed(menuFor !== null);
  // The menu's code is fetched at the first touch, before a long press can ask for it.
  useEffect(() => onFirstUse(() => void loadRowMenu()), []);
  const conversations = useMemo(
    () => orderConversations(snapshot?.conversations ?? []),
    [snapshot?.conversations],
  );
  const swipe = useRowSwipe(loaded && conversations.length > 0);

  const act = (conversation: ConversationView, action: RowAction) => {
    if (!engine) return;
    const patch =
      action === 'pin'
        ? { pinned: !conversation.pinned }
        : action === 'mute'
          ? { muted: !conversation.muted }
          : { hidden: true };
    engine.updateConversation(conversation.id, patch).catch((error: unknown) => {
      toastModifyFailure(error);
    });
  };

  let body;
  if (!loaded || !selfId) body = <PageSpinner />;
  else if (conversations.length === 0) {
    body = (
      <EmptyState
        icon={<MessageOutline />}
        title={t('home.emptyTitle')}
        text={t('home.emptyText')}
      />
    );
  } else {
    body = (
      <ul className="tt-chat-list" aria-label={t('home.list')}>
        {conversations.map((conversation) => (
          <ConversationRow
            key={conversation.id}
            conversation={conversation}
            selfId={selfId}
            now={now}
            onAction={act}
            onMenu={setMenuFor}
            open={conversation.id === open?.id ? open.mark : undefined}
            remarks={remarks}
            Swipe={swipe}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="tt-page">
      <HomeHeader />
      {beside ? (
        <div className="tt-content-flush">{body}</div>
      ) : (
        <main className="tt-content-flush">{body}</main>
      )}
      {menuUsed ? (
        <Suspense fallback={null}>
          <RowMenu
            conversation={menuFor}
            remarks={remarks}
            onAction={act}
            onClose={() => setMenuFor(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
