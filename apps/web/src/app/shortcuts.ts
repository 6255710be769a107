import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from './paths';

/** Ctrl+K (⌘K on a Mac): the search, as in the messengers people come from. */
export function isSearchShortcut(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'isComposing'>,
): boolean {
  return (
    event.key.toLowerCase() === 'k' &&
    (event.ctrlKey || event.metaKey) &&
    !event.altKey &&
    !event.shiftKey &&
    !event.isComposing
  );
}

/**
 * Keyboard shortcuts on every page of a signed-in person: Ctrl/⌘+K opens the message
 * search (or, there already, puts the cursor in its box). The chat's own (Escape, ↑) are
 * the chat page's.
 */
export function useShortcuts(): void {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !isSearchShortcut(event)) return;
      // The browser's own Ctrl+K (its address bar's search) is not what was meant here.
      event.preventDefault();
      if (pathname === paths.search) {
        document.querySelector<HTMLInputElement>('main input[type="search"]')?.focus();
      } else void navigate(paths.search);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [navigate, pathname]);
}
