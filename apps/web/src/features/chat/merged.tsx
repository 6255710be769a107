import { quotedPart, type MergedContent, type MergedItem } from '@teltlk/protocol';
import { usePageTexts } from '../../i18n/pages';
import { partLine } from '../../ui/conversation/messages';

/** Lines of a record its bubble shows. */
const BUBBLE_LINES = 4;
/**
 * The translations this file asks for. Narrower than i18next's own `t`, whose type the
 * compiler gives up on (too deep) once the catalog is as large as ours.
 */
type T = ((
  key: 'chat.mergedTitleOne' | 'chat.mergedTitleTwo' | 'chat.mergedTitleMany',
  options: { a: string; b?: string },
) => string) &
  Parameters<typeof partLine>[1];

/** "Chat history of Ada and Bob", from the names of who speaks in it. */
export function mergedTitle(record: MergedContent, t: T): string {
  const names = [...new Set(record.items.map((item) => item.senderName || '…'))];
  const [a = '…', b] = names;
  if (names.length === 1) return t('chat.mergedTitleOne', { a });
  if (names.length === 2) return t('chat.mergedTitleTwo', { a, b });
  return t('chat.mergedTitleMany', { a, b });
}

/** One line of an item: its text, or its kind's label ("[Photo]", "[File] notes.txt"). */
export function itemLine(content: MergedItem['content'], t: T): string {
  const part = quotedPart(content);
  return part ? partLine(part, t).trim() : '';
}

/** A record in the chat: its title and its first lines; a tap opens it. */
export function MergedBubble({
  content,
  onOpen,
}: {
  content: MergedContent;
  onOpen: (record: MergedContent) => void;
}) {
  const { t } = usePageTexts();
  const title = mergedTitle(content, t);
  return (
    <button type="button" className="tt-merged" onClick={() => onOpen(content)}>
      <strong className="tt-merged-title" dir="auto">
        {title}
      </strong>
      {content.items.slice(0, BUBBLE_LINES).map((item, index) => (
        <span key={index} className="tt-merged-line" dir="auto">
          {item.senderName}: {itemLine(item.content, t)}
        </span>
      ))}
      <span className="tt-merged-foot">{t('chat.mergedLabel')}</span>
    </button>
  );
}
