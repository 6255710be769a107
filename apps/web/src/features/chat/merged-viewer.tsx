import type { MergedContent, MergedItem } from '@teltlk/protocol';
import { useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { mapLink } from '../../ui/conversation/messages';
import { clockTime, dayLabel } from '../../ui/conversation/time-labels';
import { useUiLocale } from '../../ui/use-ui-locale';
import { Sheet } from '../../ui/sheet';
import { MediaThumb, StickerBubble } from './faces';
import { itemLine, mergedTitle } from './merged';
import '../../ui/sheet.css';

/** Side of a photo in the record's list. */
const ITEM_PHOTO_PX = 120;

function ItemBody({
  content,
  onOpen,
}: {
  content: MergedItem['content'];
  onOpen: (record: MergedContent) => void;
}) {
  const { t } = usePageTexts();
  const line = itemLine(content, t);
  switch (content.kind) {
    case 'text':
      return <p dir="auto">{content.text}</p>;
    case 'image':
      return (
        <MediaThumb
          id={content.image.id}
          size={ITEM_PHOTO_PX}
          alt={t('chat.photoLabel')}
          className="tt-merged-photo"
        />
      );
    case 'face':
      return <StickerBubble content={content} />;
    case 'location':
      return (
        <a href={mapLink(content)} target="_blank" rel="noopener noreferrer" dir="auto">
          {line}
        </a>
      );
    case 'merged':
      return (
        <button type="button" className="tt-merged" onClick={() => onOpen(content)}>
          <strong className="tt-merged-title" dir="auto">
            {mergedTitle(content, t)}
          </strong>
          <span className="tt-merged-foot">{t('chat.mergedLabel')}</span>
        </button>
      );
    default:
      return <p dir="auto">{line}</p>;
  }
}

/**
 * A record opened: its messages, read-only, with who sent each and when. A record inside
 * opens over it; closing goes back one level.
 */
export default function MergedViewer({
  record,
  onClose,
}: {
  record: MergedContent | null;
  onClose: () => void;
}) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const [inner, setInner] = useState<MergedContent[]>([]);
  const shown = inner.at(-1) ?? record;
  const now = Date.now();
  return (
    <Sheet
      visible={record !== null}
      title={shown ? mergedTitle(shown, t) : ''}
      onClose={() => (inner.length > 0 ? setInner((stack) => stack.slice(0, -1)) : onClose())}
      afterClose={() => setInner([])}
      className="tt-forward-inner"
      bodyClassName="tt-forward"
    >
      <ol className="tt-merged-items">
        {shown?.items.map((item, index) => (
          <li key={index} className="tt-merged-item">
            <span className="tt-merged-meta">
              <strong dir="auto">{item.senderName}</strong>
              <time dateTime={new Date(item.createdAt).toISOString()}>
                {dayLabel(item.createdAt, now, locale, {
                  today: t('chat.today'),
                  yesterday: t('chat.yesterday'),
                })}{' '}
                {clockTime(item.createdAt, locale)}
              </time>
            </span>
            <ItemBody
              content={item.content}
              onOpen={(next) => setInner((stack) => [...stack, next])}
            />
          </li>
        ))}
      </ol>
    </Sheet>
  );
}
