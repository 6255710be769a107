import {
  AddCircleOutline,
  AudioOutline,
  CloseOutline,
  EditSOutline,
  EnvironmentOutline,
  FileOutline,
  GlobalOutline,
  PictureOutline,
  SmileOutline,
  UserContactOutline,
  PayCircleOutline,
  GiftOutline,
  VideoOutline,
} from 'antd-mobile-icons';
import {
  IMAGE_MIME_TYPES,
  isAcceptedImageType,
  type ImageMedia,
  type StickerId,
} from '@teltlk/protocol';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
} from 'react';
import { usePageTexts } from '../../i18n/pages';
import { useUiLocale } from '../../ui/use-ui-locale';
import { MentionPicker } from './mention-picker';
import { insertMention, mentionQueryAt, type Mentionable } from './mentions';
import { insertAt } from './emoji';
import { FacePanel } from './faces';
import { lengthState, type LengthState } from './message-length';
import { TranslationPreview, type PreviewOptions } from './translation-preview';
import { VoiceButton } from './voice-button';
import type { Recording } from './voice-recorder';

/** The text box grows with its text up to this height, then scrolls. */
const MAX_INPUT_HEIGHT_PX = 120;

/**
 * Kinds sent from the composer besides text: media picked from the device, a voice
 * recorded by holding a button, or a location or card chosen in a sheet.
 */
export type ShareKind = MediaShareKind | 'voice' | 'location' | 'card' | 'transfer' | 'envelope';
/** Kinds picked as files from the device. */
export type MediaShareKind = 'image' | 'video' | 'file';
/** What the "more" panel offers. */
type PanelKind = Exclude<ShareKind, 'voice'>;

/** The "more" panel's buttons: an icon over a short name. */
const SHARE_BUTTONS = {
  image: { Icon: PictureOutline, label: 'chat.panelPhoto' },
  video: { Icon: VideoOutline, label: 'chat.panelVideo' },
  file: { Icon: FileOutline, label: 'chat.panelFile' },
  location: { Icon: EnvironmentOutline, label: 'chat.panelLocation' },
  card: { Icon: UserContactOutline, label: 'chat.panelCard' },
  transfer: { Icon: PayCircleOutline, label: 'chat.panelTransfer' },
  envelope: { Icon: GiftOutline, label: 'chat.panelEnvelope' },
} as const;

/** What each file chooser offers (null: any file). */
const ACCEPT: Record<MediaShareKind, string | null> = {
  image: IMAGE_MIME_TYPES.join(','),
  video: 'video/*',
  file: null,
};

const isMediaKind = (kind: ShareKind): kind is MediaShareKind =>
  kind === 'image' || kind === 'video' || kind === 'file';
const isPanelKind = (kind: ShareKind): kind is PanelKind => kind !== 'voice';

export interface ReplyTarget {
  name: string;
  text: string;
}

/** A sent text being edited: the box holds its words until saved or cancelled. */
export interface EditTarget {
  seq: number;
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
  /** A text being edited: the box shows its words; the draft comes back afterwards. */
  editing?: EditTarget | null;
  onCancelEdit?: () => void;
  /** Changes when something (choosing "reply") wants the text box focused. */
  focusRequest: number;
  mention?: MentionSupport;
  /** Why the caller cannot send here (muted, left the group); replaces the box. */
  blocked?: string | null;
  /** What may be shared besides text, a button each (in this order). */
  shareKinds?: readonly ShareKind[];
  /** Opens the sheet that shares one of those kinds (a location, a card). */
  onShare?: (kind: ShareKind) => void;
  /** Files picked, pasted or dropped, to send as photos, videos or files. */
  onFiles?: (kind: MediaShareKind, files: File[]) => void;
  /** A voice message recorded by holding the talk button. */
  onVoice?: (recording: Recording) => void;
  /** Sends a sticker (the pack's, or a favourite); absent where stickers may not go. */
  onSticker?: (face: { sticker: StickerId } | { image: ImageMedia }) => void;
  /** Offers a preview of the draft in the other person's language. */
  translationPreview?: PreviewOptions;
}

/**
 * The message box: grows with its text, Enter sends, Shift+Enter breaks the line. Near the
 * length limit a counter shows; over it the text stays and sending is refused with why.
 *
 * As in Telegram and WeChat the field takes the row: "+" before it (what else may be sent,
 * and the translation preview), the emoji button inside its end, and after it one button
 * that is the microphone while the field is empty and Send once there is text.
 */
export function Composer({
  initialDraft,
  onDraft,
  onTyping,
  onSend,
  reply,
  onCancelReply,
  editing = null,
  onCancelEdit,
  focusRequest,
  mention,
  blocked,
  shareKinds = [],
  onShare,
  onFiles,
  onVoice,
  onSticker,
  translationPreview,
}: ComposerProps) {
  const { t } = usePageTexts();
  const locale = useUiLocale();
  const [text, setText] = useState(initialDraft);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [moreOpen, setMoreOpen] = useState(false);
  const [voiceMode, setVoiceMode] = useState(false);
  const mayTalk = shareKinds.includes('voice') && onVoice !== undefined;
  const moreId = useId();
  const [previewOn, setPreviewOn] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const sendRef = useRef<HTMLButtonElement>(null);
  const backToKeyboard = useRef(false);
  const caret = useRef<number | null>(null);
  const panelId = useId();
  const lengthId = useId();
  const [mentionAt, setMentionAt] = useState<{ start: number; query: string } | null>(null);
  const picked = useRef<Mentionable[]>([]);
  const fileInputs = useRef<Partial<Record<MediaShareKind, HTMLInputElement | null>>>({});

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    fitHeight(input);
    if (caret.current !== null) {
      input.setSelectionRange(caret.current, caret.current);
      caret.current = null;
    }
  }, [text]);

  // A wider or narrower field (a turned phone, a resized window) wraps its text anew, and
  // so does a field back from "hold to talk" (the observer's first call).
  useEffect(() => {
    const input = inputRef.current;
    if (!input || voiceMode) return;
    let width = -1;
    const observer = new ResizeObserver(() => {
      if (input.clientWidth === width) return;
      width = input.clientWidth;
      fitHeight(input);
    });
    observer.observe(input);
    return () => observer.disconnect();
  }, [voiceMode]);

  useEffect(() => {
    if (focusRequest > 0) inputRef.current?.focus();
  }, [focusRequest]);

  // Back from "hold to talk" the field is there again, ready to type in.
  useEffect(() => {
    if (voiceMode || !backToKeyboard.current) return;
    backToKeyboard.current = false;
    inputRef.current?.focus();
  }, [voiceMode]);

  // Editing puts the text's words in the box and keeps the draft aside until it ends.
  const draftAside = useRef<string | null>(null);
  useEffect(() => {
    if (editing) {
      draftAside.current ??= text;
      caret.current = editing.text.length;
      setText(editing.text);
      inputRef.current?.focus();
    } else if (draftAside.current !== null) {
      setText(draftAside.current);
      draftAside.current = null;
    }
    // Only a new edit (or its end) sets the box, not typing in it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing]);

  const change = (next: string, caretAt?: number | null) => {
    setText(next);
    if (mention) setMentionAt(mentionQueryAt(next, caretAt ?? next.length));
    if (!editing) onDraft(next);
    if (next.trim()) onTyping();
  };

  const length = lengthState(text);
  /** Something to send: then the microphone's place holds Send. */
  const typed = text.trim() !== '' || editing !== null;
  const hasPanel = shareKinds.some(isPanelKind) || translationPreview !== undefined;
  const closePanels = () => {
    setEmojiOpen(false);
    setMoreOpen(false);
  };
  const submit = () => {
    if (length.over) {
      inputRef.current?.focus();
      return;
    }
    if (onSend(text, picked.current)) {
      // Send gives way to the microphone: where it had the focus, the field takes it.
      if (sendRef.current !== null && document.activeElement === sendRef.current) {
        inputRef.current?.focus();
      }
      setText('');
      setEmojiOpen(false);
      setMentionAt(null);
      picked.current = [];
    }
  };

  /** Pasted pictures are sent as photos (files, where photos are not allowed here). */
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...event.clipboardData.files];
    if (files.length === 0 || !onFiles) return;
    const kind = pastedKind(files, shareKinds);
    if (!kind) return;
    event.preventDefault();
    onFiles(kind, files);
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
    caret.current = result.caret;
    change(result.text);
  };

  const pickMention = (person: Mentionable | 'all') => {
    if (!mention || !mentionAt) return;
    const input = inputRef.current;
    const end = input?.selectionStart ?? text.length;
    const name = person === 'all' ? (mention.allLabel ?? '') : person.name;
    const result = insertMention(text, mentionAt.start, end, name);
    if (person !== 'all') picked.current = [...picked.current, person];
    caret.current = result.caret;
    setText(result.text);
    if (!editing) onDraft(result.text);
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
      {editing ? (
        <div className="tt-composer-reply">
          <span className="tt-composer-reply-text">
            <strong>{t('chat.editing')}</strong>
            <span dir="auto">{editing.text}</span>
          </span>
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('chat.cancelEdit')}
            onClick={onCancelEdit}
          >
            <CloseOutline aria-hidden />
          </button>
        </div>
      ) : null}
      {reply ? (
        <div className="tt-composer-reply">
          <span className="tt-composer-reply-text">
            <strong>{t('chat.replyingTo', { name: reply.name })}</strong>
            <span dir="auto">{reply.text}</span>
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
      {translationPreview && previewOn ? (
        <div className="tt-composer-previewing">
          <TranslationPreview text={text} options={translationPreview} />
          <button
            type="button"
            className="tt-icon-button"
            aria-label={t('chat.stopPreview')}
            onClick={() => {
              setPreviewOn(false);
              inputRef.current?.focus();
            }}
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
        {hasPanel ? (
          <button
            type="button"
            className="tt-icon-button tt-composer-more"
            aria-label={t('chat.moreToSend')}
            aria-expanded={moreOpen}
            aria-controls={moreId}
            onClick={() => {
              setMoreOpen((open) => !open);
              setEmojiOpen(false);
            }}
          >
            <AddCircleOutline aria-hidden />
          </button>
        ) : null}
        {voiceMode && onVoice ? (
          <VoiceButton onVoice={onVoice} />
        ) : (
          <div className="tt-composer-field">
            <textarea
              ref={inputRef}
              className="tt-composer-input"
              rows={1}
              value={text}
              dir="auto"
              aria-label={t('chat.message')}
              aria-invalid={length.over || undefined}
              aria-describedby={length.counted ? lengthId : undefined}
              placeholder={t('chat.message')}
              enterKeyHint="send"
              onChange={(event) => change(event.target.value, event.target.selectionStart)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              // Tapping the field brings the keyboard back in place of an open panel.
              onPointerDown={closePanels}
            />
            <button
              type="button"
              className="tt-icon-button tt-composer-emoji"
              aria-label={t('chat.emoji')}
              aria-expanded={emojiOpen}
              aria-controls={panelId}
              onClick={() => {
                if (emojiOpen) {
                  setEmojiOpen(false);
                  inputRef.current?.focus();
                } else {
                  setEmojiOpen(true);
                  setMoreOpen(false);
                }
              }}
            >
              {emojiOpen ? <EditSOutline aria-hidden /> : <SmileOutline aria-hidden />}
            </button>
          </div>
        )}
        {voiceMode || (mayTalk && !typed) ? (
          <button
            key="voice"
            type="button"
            className="tt-icon-button tt-composer-action"
            aria-label={voiceMode ? t('chat.keyboardMode') : t('chat.voiceMode')}
            onClick={() => {
              if (voiceMode) backToKeyboard.current = true;
              setVoiceMode((on) => !on);
              setEmojiOpen(false);
              setMoreOpen(false);
            }}
          >
            {voiceMode ? <EditSOutline aria-hidden /> : <AudioOutline aria-hidden />}
          </button>
        ) : (
          <button
            key="send"
            ref={sendRef}
            type="submit"
            className="tt-composer-send tt-composer-action"
            aria-label={t('chat.send')}
            // Pressed with a finger or the mouse it leaves the field focused (and a phone's
            // keyboard open), as in the messengers.
            onMouseDown={(event) => event.preventDefault()}
          >
            <SendIcon />
          </button>
        )}
      </form>
      <LengthNote id={lengthId} length={length} locale={locale} />
      <div id={moreId} className="tt-share-panel" hidden={!moreOpen}>
        {translationPreview ? (
          <button
            type="button"
            className="tt-share-option"
            aria-pressed={previewOn}
            onClick={() => {
              setMoreOpen(false);
              setPreviewOn((on) => !on);
              inputRef.current?.focus();
            }}
          >
            <span className="tt-share-icon" aria-hidden>
              <GlobalOutline />
            </span>
            {t('translation.preview')}
          </button>
        ) : null}
        {shareKinds.filter(isPanelKind).map((kind) => {
          const { Icon, label } = SHARE_BUTTONS[kind];
          return (
            <button
              key={kind}
              type="button"
              className="tt-share-option"
              onClick={() => {
                setMoreOpen(false);
                if (isMediaKind(kind)) fileInputs.current[kind]?.click();
                else onShare?.(kind);
              }}
            >
              <span className="tt-share-icon" aria-hidden>
                <Icon />
              </span>
              {t(label)}
            </button>
          );
        })}
        {shareKinds.filter(isMediaKind).map((kind) => (
          <input
            key={kind}
            ref={(input) => {
              fileInputs.current[kind] = input;
            }}
            type="file"
            hidden
            tabIndex={-1}
            aria-hidden
            multiple
            accept={ACCEPT[kind] ?? undefined}
            data-testid={`pick-${kind}`}
            onChange={(event) => {
              const files = [...(event.target.files ?? [])];
              // Emptied, so picking the same file again fires a change too.
              event.target.value = '';
              if (files.length > 0) onFiles?.(kind, files);
            }}
          />
        ))}
      </div>
      <FacePanel
        id={panelId}
        open={emojiOpen}
        onEmoji={insertEmoji}
        onSticker={
          onSticker
            ? (face) => {
                setEmojiOpen(false);
                onSticker(face);
              }
            : undefined
        }
      />
    </div>
  );
}

/** A paper plane, pointing the way the message goes. */
function SendIcon() {
  return (
    <svg width="1em" height="1em" viewBox="0 0 24 24" fill="currentColor" aria-hidden>
      <path d="M3 20.5 21.5 12 3 3.5V10l12 2-12 2z" />
    </svg>
  );
}

/** The text box as tall as its lines (and its border), up to a few; beyond that it scrolls. */
function fitHeight(input: HTMLTextAreaElement): void {
  input.style.height = 'auto';
  const border = input.offsetHeight - input.clientHeight;
  input.style.height = `${Math.min(input.scrollHeight + border, MAX_INPUT_HEIGHT_PX)}px`;
}

/** How pasted files go: as photos when they all are and photos may be sent, else as files. */
export function pastedKind(
  files: readonly File[],
  allowed: readonly ShareKind[],
): MediaShareKind | null {
  const photos = files.every((file) => isAcceptedImageType(file.type));
  if (photos && allowed.includes('image')) return 'image';
  return allowed.includes('file') ? 'file' : null;
}

/**
 * The counter near the limit ("4,812 / 5,000"), and over it why the message cannot go.
 * One polite live region, so a screen reader hears the count without being interrupted
 * on every keystroke, and the refusal as soon as the text crosses the limit.
 */
function LengthNote({ id, length, locale }: { id: string; length: LengthState; locale: string }) {
  const { t } = usePageTexts();
  const numbers = new Intl.NumberFormat(locale);
  const values = { length: numbers.format(length.length), max: numbers.format(length.max) };
  return (
    <div id={id} className="tt-composer-length" aria-live="polite">
      {length.counted ? (
        <p className={length.over ? 'tt-composer-count tt-composer-over' : 'tt-composer-count'}>
          <span aria-hidden>
            {values.length} / {values.max}
          </span>
          <span className="tt-visually-hidden">{t('chat.lengthCount', values)}</span>
        </p>
      ) : null}
      {length.over ? <p className="tt-composer-error">{t('chat.tooLong', values)}</p> : null}
    </div>
  );
}
