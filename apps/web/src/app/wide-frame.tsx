import { lazy, Suspense, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { PageSpinner } from '../ui/spinner';
import { paths, sectionOf } from './paths';
import { NavRail } from './signed-in';

const HomePageBeside = lazy(() =>
  import('../features/home/home-page').then(({ HomePage }) => ({
    default: () => <HomePage beside />,
  })),
);

/** Where the list's scroll was when it last left the screen (there is one list). */
let listScrollTop = 0;

/** The chat list beside the open chat; it keeps its scroll while away (another section). */
function ChatListBeside() {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const list = ref.current;
    if (!list) return;
    list.scrollTop = listScrollTop;
    const save = () => {
      listScrollTop = list.scrollTop;
    };
    list.addEventListener('scroll', save, { passive: true });
    return () => list.removeEventListener('scroll', save);
  }, []);
  return (
    <aside ref={ref} className="tt-split-list" aria-label={t('home.title')}>
      <Suspense fallback={<PageSpinner />}>
        <HomePageBeside />
      </Suspense>
    </aside>
  );
}

/** Each visit's scroll of the pane beside the list, by history entry. */
const paneScrolls = new Map<string, number>();

/**
 * The pane beside the list scrolls by itself, not the window: like the window's (the
 * router's scroll restoration), a page opens at its top, and going back finds it as left.
 */
function usePaneScroll(pane: RefObject<HTMLDivElement | null>): void {
  const { key } = useLocation();
  const navigation = useNavigationType();
  useLayoutEffect(() => {
    const element = pane.current;
    if (!element) return;
    element.scrollTop = navigation === NavigationType.Pop ? (paneScrolls.get(key) ?? 0) : 0;
    const save = () => paneScrolls.set(key, element.scrollTop);
    element.addEventListener('scroll', save, { passive: true });
    return () => element.removeEventListener('scroll', save);
  }, [pane, key, navigation]);
}

/**
 * The frame of a wide screen, signed in (wide-split.tsx). From 960 px, a chat with the chat
 * list beside it, in a frame capped at 960 px and centred. On a desktop: a navigation rail
 * in place of the tab bar, and in the chats section (the list, a chat, its settings) the
 * list beside the page across the window; other pages keep the phone's column. The page
 * keeps its place in the tree whatever the frame shows, so moving between a chat and its
 * settings never reloads either.
 */
export function WideFrame({ desktop, children }: { desktop: boolean; children: ReactNode }) {
  const { pathname } = useLocation();
  const pane = useRef<HTMLDivElement>(null);
  usePaneScroll(pane);
  const rail = desktop && pathname !== paths.upgradation;
  const split = rail ? sectionOf(pathname) === 'home' : pathname === paths.chat;
  return (
    <div className={split ? 'tt-frame tt-split' : 'tt-frame'}>
      {rail ? <NavRail /> : null}
      {split ? <ChatListBeside /> : null}
      <div ref={pane} className={split ? 'tt-split-main' : 'tt-frame-main'}>
        {children}
      </div>
    </div>
  );
}
