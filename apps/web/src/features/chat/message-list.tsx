import { useVirtualizer } from '@tanstack/react-virtual';
import { DownOutline } from 'antd-mobile-icons';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import type { ChatRow } from '../../ui/conversation/messages';
import { photoBox } from './media-files';
import { DayRow, MessageRow, type MessageRowContext } from './message-row';

/**
 * Room above the first row: "loading earlier messages" or the start of the history, and
 * the day of the first loaded message.
 */
const TOP_PADDING_PX = 76;
/** Older history loads when the top is closer than this. */
const LOAD_OLDER_WITHIN_PX = 400;
/** Counts as "at the newest message" within this distance of the end. */
const AT_END_PX = 48;

function estimateRow(row: ChatRow | undefined): number {
  if (!row || row.kind === 'day' || row.kind === 'notice') return 36;
  const { content } = row.message;
  if (content.kind === 'image')
    return 40 + photoBox(content.image.width, content.image.height).height;
  if (content.kind === 'video')
    return 40 + photoBox(content.video.width, content.video.height).height;
  if (content.kind === 'file') return 96;
  if (content.kind === 'voice') return 72;
  if (content.kind === 'location' || content.kind === 'card') return 112;
  if (content.kind === 'face') return 136;
  if (row.message.content.kind !== 'text') return 36;
  // A rough guess from the length; real sizes replace it once a row is measured.
  const lines = Math.ceil(row.message.content.text.length / 28);
  return 52 + Math.min(lines, 12) * 20 + (row.message.content.quote ? 44 : 0);
}

interface MessageListProps {
  rows: ChatRow[];
  context: MessageRowContext;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onAtEndChange: (atEnd: boolean) => void;
  /** Changes when the list must jump to the newest message (we sent one). */
  scrollToEndRequest: number;
  /**
   * A message to bring into view (a search hit): older pages load until it is there, then
   * it is scrolled to the middle and marked; `onFocused` says it is done (or not there).
   */
  focusSeq?: number | null;
  onFocused?: (found: boolean) => void;
}

/**
 * How many messages from others came after the row `mark` (the newest row when the person
 * scrolled away from the end); none when that row is no longer there.
 */
export function arrivedSince(rows: readonly ChatRow[], mark: string, selfId: string): number {
  let count = 0;
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    const row = rows[index];
    if (!row) continue;
    if (row.key === mark) return count;
    if (row.kind === 'message' && row.message.senderId !== selfId) count += 1;
  }
  return 0;
}

/** Away from the end: the newest row then, and whether more than half a screen lies below. */
interface Away {
  mark: string;
  far: boolean;
}

/** Where a message with `seq` is among the rows: its index, or whether it cannot be there. */
function findSeq(rows: readonly ChatRow[], seq: number): number | 'older' | 'absent' {
  let oldest = Number.POSITIVE_INFINITY;
  for (const [index, row] of rows.entries()) {
    if (row.kind === 'day' || row.message.seq === null) continue;
    if (row.message.seq === seq) return index;
    oldest = Math.min(oldest, row.message.seq);
  }
  return oldest > seq ? 'older' : 'absent';
}

/**
 * The conversation, virtualized: only rows near the viewport are in the DOM, so 10,000
 * messages scroll like 50. Anchored to the end: it opens at the newest message, follows
 * new ones while at the end, and older pages prepend without moving what is on screen.
 * When the list gets shorter (a phone's keyboard, the emoji or "+" panel) its bottom edge
 * stays put, so the newest message stays in view; away from the end, a button takes the
 * person back down, saying how many messages came meanwhile.
 */
export function MessageList({
  rows: allRows,
  context,
  hasMore,
  loadingOlder,
  onLoadOlder,
  onAtEndChange,
  scrollToEndRequest,
  focusSeq = null,
  onFocused,
}: MessageListProps) {
  const { t } = usePageTexts();
  // The first day's separator lives in the top area, not in the list: as the list's
  // first row it would keep its place while older messages of the same day arrive above
  // the messages it heads, and the virtualizer, anchored on it, would let them jump.
  const lead = allRows[0]?.kind === 'day' ? allRows[0] : null;
  const rows = useMemo(() => (lead ? allRows.slice(1) : allRows), [allRows, lead]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const positioned = useRef(false);
  const atEnd = useRef<boolean | null>(null);
  const latest = useRef({ hasMore, loadingOlder, onLoadOlder, onAtEndChange });
  /** At the end as the person last left it (scrolling, not resizing, changes it). */
  const pinned = useRef(true);
  const newestKey = useRef('');
  const [away, setAway] = useState<Away | null>(null);
  useEffect(() => {
    latest.current = { hasMore, loadingOlder, onLoadOlder, onAtEndChange };
    newestKey.current = allRows.at(-1)?.key ?? '';
  });

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 8,
    paddingStart: TOP_PADDING_PX,
    paddingEnd: 8,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: AT_END_PX,
    onChange: (instance) => {
      if (!positioned.current) return;
      const end = instance.isAtEnd(AT_END_PX);
      if (end !== atEnd.current) {
        atEnd.current = end;
        latest.current.onAtEndChange(end);
      }
      const current = latest.current;
      if (
        (instance.scrollOffset ?? 0) < LOAD_OLDER_WITHIN_PX &&
        current.hasMore &&
        !current.loadingOlder
      ) {
        current.onLoadOlder();
      }
    },
  });

  // Opens at the newest message, once the first rows are there.
  useLayoutEffect(() => {
    if (positioned.current || rows.length === 0) return;
    virtualizer.scrollToEnd();
    positioned.current = true;
    atEnd.current = true;
    latest.current.onAtEndChange(true);
  }, [rows.length, virtualizer]);

  useEffect(() => {
    if (scrollToEndRequest > 0) virtualizer.scrollToEnd();
  }, [scrollToEndRequest, virtualizer]);

  // Whether the person is at the end, and if not, since which message.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = () => {
      if (!positioned.current) return;
      const below = element.scrollHeight - element.scrollTop - element.clientHeight;
      pinned.current = below <= AT_END_PX;
      const far = below > element.clientHeight / 2;
      setAway((current) => {
        if (pinned.current) return null;
        if (current?.far === far) return current;
        return { mark: current?.mark ?? newestKey.current, far };
      });
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);

  // Shorter or taller (the keyboard, a panel, the window): the bottom edge keeps its
  // message, the newest one when the person was at the end.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    let height = element.clientHeight;
    const observer = new ResizeObserver(() => {
      const shrunk = height - element.clientHeight;
      height = element.clientHeight;
      if (shrunk === 0 || !positioned.current) return;
      // Set on the element at once, before the frame is painted: the virtualizer learns the
      // new height only from its own observer, which may not have run yet.
      if (pinned.current) element.scrollTop = element.scrollHeight - element.clientHeight;
      else element.scrollTop += shrunk;
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const toEnd = () => {
    virtualizer.scrollToEnd();
    pinned.current = true;
    setAway(null);
    // The button goes; the focus goes to the conversation rather than nowhere.
    logRef.current?.focus({ preventScroll: true });
  };

  // Still near the top once a page has landed (the scroll sat at 0, so no scroll event
  // follows), or a short history that does not fill the screen: fetch the next page.
  useEffect(() => {
    const element = scrollRef.current;
    if (!element || !hasMore || loadingOlder) return;
    if (allRows.length > 0 && !positioned.current) return;
    if (element.scrollTop < LOAD_OLDER_WITHIN_PX) onLoadOlder();
  }, [allRows.length, hasMore, loadingOlder, onLoadOlder]);

  // A message to show: loaded page by page from the newest down, then scrolled to.
  useEffect(() => {
    if (focusSeq === null || !positioned.current) return;
    const at = findSeq(rows, focusSeq);
    if (typeof at === 'number') {
      virtualizer.scrollToIndex(at, { align: 'center' });
      onFocused?.(true);
    } else if (at === 'older' && hasMore) {
      if (!loadingOlder) onLoadOlder();
    } else if (!loadingOlder) {
      onFocused?.(false);
    }
  }, [focusSeq, rows, hasMore, loadingOlder, onLoadOlder, onFocused, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const arrived = away ? arrivedSince(allRows, away.mark, context.selfId) : 0;
  return (
    <div className="tt-messages-frame">
      <div ref={scrollRef} className="tt-messages">
        <div
          ref={logRef}
          role="log"
          aria-label={t('chat.title')}
          className="tt-messages-inner"
          tabIndex={-1}
          style={{ height: virtualizer.getTotalSize() }}
        >
          <div className="tt-messages-top">
            <p>
              {loadingOlder ? (
                <span role="status">
                  <span className="tt-button-spinner" aria-hidden /> {t('chat.loadingOlder')}
                </span>
              ) : hasMore || allRows.length === 0 ? null : (
                t('chat.start')
              )}
            </p>
            {lead ? <DayRow time={lead.time} now={context.now} /> : null}
          </div>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                ref={virtualizer.measureElement}
                data-index={item.index}
                className="tt-messages-row"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <MessageRow row={row} context={context} />
              </div>
            );
          })}
        </div>
      </div>
      {away && (away.far || arrived > 0) ? (
        <button
          type="button"
          className={arrived > 0 ? 'tt-messages-down tt-messages-arrived' : 'tt-messages-down'}
          onClick={toEnd}
        >
          <DownOutline aria-hidden />
          <span className="tt-visually-hidden">{t('chat.toNewest')}</span>
          {arrived > 0 ? <span>{t('chat.newMessages', { count: arrived })}</span> : null}
        </button>
      ) : null}
    </div>
  );
}
