import {
  lazy,
  Suspense,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
  type ReactNode,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import { NavigationType, useLocation, useNavigationType } from 'react-router';
import { PageSpinner } from '../ui/spinner';
import { useSignedIn } from './guards';
import { paths, sectionOf } from './paths';

const HomePageBeside = lazy(() =>
  import('../features/home/home-page').then(({ HomePage }) => ({
    default: () => <HomePage beside />,
  })),
);

// In the tab pages' chunk, which a signed-in person has as soon as the first tab shows.
const NavRail = lazy(() => import('./tab-bar').then(({ NavRail }) => ({ default: NavRail })));

/** Wide enough for the chat list beside a chat, in a frame of the spec's 960 px maximum. */
const WIDE = '(min-width: 960px)';
/** A desktop: a navigation rail, and the chat list beside the open chat across the window. */
const DESKTOP = '(min-width: 1200px)';

export type Screen = 'phone' | 'wide' | 'desktop';

function subscribe(listener: () => void): () => void {
  const queries = [window.matchMedia(WIDE), window.matchMedia(DESKTOP)];
  for (const query of queries) query.addEventListener('change', listener);
  return () => {
    for (const query of queries) query.removeEventListener('change', listener);
  };
}

function screenNow(): Screen {
  if (window.matchMedia(DESKTOP).matches) return 'desktop';
  return window.matchMedia(WIDE).matches ? 'wide' : 'phone';
}

export function useScreen(): Screen {
  return useSyncExternalStore(subscribe, screenNow, () => 'phone');
}

/** Whether the desktop layout shows: a screen wide enough, and someone signed in. */
export function useDesktop(): boolean {
  const screen = useScreen();
  const signedIn = useSignedIn();
  return screen === 'desktop' && signedIn;
}

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
 * The page's frame. On a phone, the page alone. On a wide screen (960 px), a chat with the
 * chat list beside it, in a frame capped at 960 px and centred. On a desktop (1,200 px),
 * signed in: a navigation rail in place of the tab bar, and in the chats section (the list,
 * a chat, its settings) the list beside the page across the window; other pages keep the
 * phone's column. The page keeps its place in the tree whatever the frame shows, so moving
 * between a chat and its settings never reloads either.
 */
export function ScreenFrame({ children }: { children: ReactNode }) {
  const screen = useScreen();
  const signedIn = useSignedIn();
  const { pathname } = useLocation();
  const pane = useRef<HTMLDivElement>(null);
  usePaneScroll(pane);
  if (screen === 'phone' || !signedIn) return children;
  const desktop = screen === 'desktop' && pathname !== paths.upgradation;
  const split = desktop ? sectionOf(pathname) === 'home' : pathname === paths.chat;
  return (
    <div className={split ? 'tt-frame tt-split' : 'tt-frame'}>
      {desktop ? (
        <Suspense fallback={null}>
          <NavRail />
        </Suspense>
      ) : null}
      {split ? <ChatListBeside /> : null}
      <div ref={pane} className={split ? 'tt-split-main' : 'tt-frame-main'}>
        {children}
      </div>
    </div>
  );
}
