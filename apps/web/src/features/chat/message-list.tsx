import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
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
  const positioned = useRef(false);
  const atEnd = useRef<boolean | null>(null);
  const latest = useRef({ hasMore, loadingOlder, onLoadOlder, onAtEndChange });
  useEffect(() => {
    latest.current = { hasMore, loadingOlder, onLoadOlder, onAtEndChange };
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
  return (
    <div ref={scrollRef} className="tt-messages">
      <div
        role="log"
        aria-label={t('chat.title')}
        className="tt-messages-inner"
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
  );
}
