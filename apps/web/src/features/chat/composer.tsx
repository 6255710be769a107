import { MESSAGE_TEXT_MAX_LENGTH } from '@teltlk/protocol';
import { CloseOutline, GlobalOutline, SmileOutline } from 'antd-mobile-icons';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MentionPicker } from '../groups/mention-picker';
import { insertMention, mentionQueryAt, type Mentionable } from '../groups/mentions';
import { EMOJI, insertAt } from './emoji';
import { TranslationPreview, type PreviewOptions } from './translation-preview';

/** The text box grows with its text up to this height, then scrolls. */
const MAX_INPUT_HEIGHT_PX = 120;

export interface ReplyTarget {
  name: string;
  text: string;
}

/** @mentions in a group chat. */
export interface MentionSupport {
  groupId: string;
  selfId: string;
  /** The @all label, when the caller may mention everyone. */
  allLabel: string | null;
}

interface ComposerProps {
  initialDraft: string;
  onDraft: (text: string) => void;
  onTyping: () => void;
  /** Returns true when the text was taken (then the box empties); `picked` from the @ list. */
  onSend: (text: string, picked: readonly Mentionable[]) => boolean;
  reply: ReplyTarget | null;
  onCancelReply: () => void;
  /** Changes when something (choosing "reply") wants the text box focused. */
  focusRequest: number;
  mention?: MentionSupport;
  /** Why the caller cannot send here (muted, left the group); replaces the box. */
  blocked?: string | null;
  /** Offers a preview of the draft in the other person's language. */
  translationPreview?: PreviewOptions;
}

/** The message box: grows with its text, Enter sends, Shift+Enter breaks the line. */
export function Composer({
  initialDraft,
  onDraft,
  onTyping,
  onSend,
  reply,
  onCancelReply,
  focusRequest,
  mention,
  blocked,
  translationPreview,
}: ComposerProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(initialDraft);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [previewOn, setPreviewOn] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const caret = useRef<number | null>(null);
  const panelId = useId();
  const [mentionAt, setMentionAt] = useState<{ start: number; query: string } | null>(null);
  const picked = useRef<Mentionable[]>([]);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_INPUT_HEIGHT_PX)}px`;
    if (caret.current !== null) {
      input.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  }, [text]);

  useEffect(() => {
    if (focusRequest > 0) inputRef.current?.focus();
  }, [focusRequest]);

  const change = (next: string, caretAt?: number | null) => {
    setText(next);
    if (mention) setMentionAt(mentionQueryAt(next, caretAt ?? next.length));
    onDraft(next);
    if (next.trim()) onTyping();
  };

  const submit = () => {
    if (onSend(text, picked.current)) {
      setText('');
      setEmojiOpen(false);
      setMentionAt(null);
      picked.current = [];
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An input method confirming a word with Enter must not send the message.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  const insertEmoji = (emoji: string) => {
    const input = inputRef.current;
    const start = input?.selectionStart ?? text.length;
    const end = input?.selectionEnd ?? text.length;
    const result = insertAt(text, emoji, start, end);
    if (result.text.length > MESSAGE_TEXT_MAX_LENGTH) return;
    caret.current = result.caret;
    change(result.text);
  };

  const pickMention = (person: Mentionable | 'all') => {
    if (!mention || !mentionAt) return;
    const input = inputRef.current;
    const end = input?.selectionStart ?? text.length;
    const name = person === 'all' ? (mention.allLabel ?? '') : person.name;
    const result = insertMention(text, mentionAt.start, end, name);
    if (result.text.length > MESSAGE_TEXT_MAX_LENGTH) return;
    if (person !== 'all') picked.current = [...picked.current, person];
    caret.current = result.caret;
    setText(result.text);
    onDraft(result.text);
    setMentionAt(null);
    input?.focus();
  };

  if (blocked) {
    return (
      <div className="tt-composer">
        <p className="tt-composer-blocked" role="status">
          {blocked}
        </p>
      </div>
    );
  }

  return (
    <div className="tt-composer">
      {mention && mentionAt ? (
        <MentionPicker
          groupId={mention.groupId}
          selfId={mention.selfId}
          query={mentionAt.query}
          allLabel={mention.allLabel}
          onPick={pickMention}
        />
      ) : null}
      {reply ? (
        <div className="tt-composer-reply">
          <span className="tt-composer-reply-text">
            <strong>{t('chat.replyingTo', { name: reply.name })}</strong>
            <span>{reply.text}</span>
          </span>
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('chat.cancelReply')}
            onClick={onCancelReply}
          >
            <CloseOutline aria-hidden />
          </button>
        </div>
      ) : null}
      <form
        className="tt-composer-row"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <button
          type="button"
          className="tt-icon-button"
          aria-label={t('chat.emoji')}
          aria-expanded={emojiOpen}
          aria-controls={panelId}
          onClick={() => setEmojiOpen((open) => !open)}
        >
          <SmileOutline aria-hidden />
        </button>
        {translationPreview ? (
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('translation.preview')}
            aria-pressed={previewOn}
            onClick={() => setPreviewOn((on) => !on)}
          >
            <GlobalOutline aria-hidden />
          </button>
        ) : null}
        <textarea
          ref={inputRef}
          className="tt-composer-input"
          rows={1}
          value={text}
          maxLength={MESSAGE_TEXT_MAX_LENGTH}
          aria-label={t('chat.message')}
          placeholder={t('chat.message')}
          enterKeyHint="send"
          onChange={(event) => change(event.target.value, event.target.selectionStart)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="tt-composer-send">
          {t('chat.send')}
        </button>
      </form>
      {translationPreview && previewOn ? (
        <TranslationPreview text={text} options={translationPreview} />
      ) : null}
      <div id={panelId} className="tt-emoji-panel" hidden={!emojiOpen}>
        {EMOJI.map((emoji) => (
          <button key={emoji} type="button" className="tt-emoji" onClick={() => insertEmoji(emoji)}>
            {emoji}
          </button>
        ))}
      </div>
    </div>
  );
}
