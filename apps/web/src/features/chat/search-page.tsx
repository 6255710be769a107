import type { ConversationView } from '@teltlk/im-sdk';
import { SEARCH_QUERY_MAX_LENGTH, searchTextOf, type Message } from '@teltlk/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { usePageTexts } from '../../i18n/pages';
import { Link, useSearchParams } from 'react-router';
import { useEngine, useEngineSnapshot, useSelfId } from '../../app/engine';
import { paths, withQuery } from '../../app/paths';
import { useGroupRemarks } from '../../api/use-groups';
import { useRemarks } from '../../api/use-remarks';
import { Avatar } from '../../ui/avatar';
import { conversationName, partLine } from '../../ui/conversation/messages';
import { hitParts } from '../../ui/conversation/search-hits';
import { listTime } from '../../ui/conversation/time-labels';
import { toFormErrors, type Message as UiMessage } from '../../ui/error-message';
import { Page } from '../../ui/page';
import { useUiLocale } from '../../ui/use-ui-locale';
import { useMessageText } from '../../ui/use-message';
import './search.css';

/** The pause in typing after which the words are searched. */
const TYPING_PAUSE_MS = 300;

interface Results {
  /** The words these results are for. */
  q: string;
  messages: Message[];
  next: string | null;
}

/**
 * `/pages/home/search[?conversationId=…]`: not named by the spec. Searches the messages
 * the user can see on the server (texts, file names, places), across all chats or in one;
 * a hit opens its chat at that message.
 */
export function SearchPage() {
  const { t } = usePageTexts();
  const engine = useEngine();
  const snapshot = useEngineSnapshot();
  const selfId = useSelfId();
  const locale = useUiLocale();
  const remarks = useRemarks();
  const groupRemarks = useGroupRemarks();
  const messageText = useMessageText();
  const [params] = useSearchParams();
  const conversationId = params.get('conversationId') ?? undefined;
  const [query, setQuery] = useState('');
  const [results, setResults] = useState<Results | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<UiMessage | null>(null);
  /** When the shown results came: their times read against it. */
  const [now, setNow] = useState(() => Date.now());
  /** Answers to words no longer in the box are dropped. */
  const asked = useRef('');

  const conversations = useMemo(() => {
    const map = new Map<string, ConversationView>();
    for (const conversation of snapshot?.conversations ?? [])
      map.set(conversation.id, conversation);
    return map;
  }, [snapshot?.conversations]);

  const search = (q: string, cursor?: string) => {
    if (!engine) return;
    asked.current = q;
    setBusy(true);
    engine
      .searchMessages({
        q,
        ...(conversationId === undefined ? {} : { conversationId }),
        ...(cursor === undefined ? {} : { cursor }),
      })
      .then((page) => {
        if (asked.current !== q) return;
        setFailure(null);
        setNow(Date.now());
        setResults((before) => ({
          q,
          messages:
            cursor !== undefined && before ? [...before.messages, ...page.messages] : page.messages,
          next: page.next,
        }));
      })
      .catch((error: unknown) => {
        if (asked.current !== q) return;
        const { fields, general } = toFormErrors(error, { fields: ['q'] as const });
        setFailure(fields.q ?? general);
      })
      .finally(() => {
        if (asked.current === q) setBusy(false);
      });
  };

  const words = query.trim();
  useEffect(() => {
    if (!words) {
      asked.current = '';
      setResults(null);
      setFailure(null);
      setBusy(false);
      return;
    }
    const timer = window.setTimeout(() => search(words), TYPING_PAUSE_MS);
    return () => window.clearTimeout(timer);
    // A new search for new words only (the engine stays the same while signed in).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [words, engine, conversationId]);

  const scoped = conversationId === undefined ? undefined : conversations.get(conversationId);
  const title = scoped
    ? (conversationName(scoped, remarks, groupRemarks) ?? t('search.title'))
    : t('search.title');
  const shown = results && results.q === words ? results : null;

  return (
    <Page title={title}>
      <form
        role="search"
        className="tt-search-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (words) search(words);
        }}
      >
        <input
          type="search"
          className="tt-search-input"
          // Search opens to type in: the whole page is for it.
          autoFocus
          enterKeyHint="search"
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          value={query}
          aria-label={conversationId ? t('search.placeholderChat') : t('search.placeholder')}
          placeholder={conversationId ? t('search.placeholderChat') : t('search.placeholder')}
          onChange={(event) => setQuery(event.target.value)}
        />
      </form>
      <div aria-live="polite" className="tt-search-status">
        {failure ? (
          <p role="alert">{messageText(failure)}</p>
        ) : !words ? (
          <p>{t('search.hint')}</p>
        ) : shown && shown.messages.length === 0 ? (
          <p>{t('search.empty')}</p>
        ) : busy && !shown ? (
          <span className="tt-button-spinner" aria-hidden />
        ) : null}
      </div>
      {shown && shown.messages.length > 0 ? (
        <>
          <h2 className="tt-visually-hidden">{t('search.results')}</h2>
          <ul className="tt-search-hits">
            {shown.messages.map((message) => {
              const conversation = conversations.get(message.conversationId);
              const name = conversationName(conversation, remarks, groupRemarks) ?? t('chat.title');
              const text = searchTextOf(message.content) ?? '';
              const { kind } = message.content;
              // A file's or a place's name: its kind's label before it, as the chat list shows.
              const label =
                kind === 'file' || kind === 'location'
                  ? partLine({ kind, text: '' }, t).trim()
                  : null;
              return (
                <li key={message.id}>
                  <Link
                    className="tt-search-hit"
                    to={withQuery(paths.chat, {
                      conversationId: message.conversationId,
                      seq: String(message.seq),
                    })}
                  >
                    <Avatar
                      id={
                        conversation?.peer?.id ?? conversation?.group?.id ?? message.conversationId
                      }
                      name={name}
                      url={conversation?.peer?.avatarUrl ?? conversation?.group?.avatarUrl}
                      size={40}
                    />
                    <span className="tt-search-hit-main">
                      <span className="tt-search-hit-line">
                        <span className="tt-search-hit-name" dir="auto">
                          {name}
                        </span>
                        <time dateTime={new Date(message.createdAt).toISOString()}>
                          {listTime(message.createdAt, now, locale, t('home.yesterday'))}
                        </time>
                      </span>
                      <span className="tt-search-hit-text" dir="auto">
                        {message.senderId === selfId ? `${t('chat.you')}: ` : null}
                        {label ? `${label} ` : null}
                        {hitParts(text, shown.q).map((part, index) =>
                          part.hit ? <mark key={index}>{part.text}</mark> : part.text,
                        )}
                      </span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
          {shown.next ? (
            <button
              type="button"
              className="tt-search-more"
              disabled={busy}
              aria-busy={busy || undefined}
              onClick={() => search(shown.q, shown.next ?? undefined)}
            >
              {t('search.more')}
            </button>
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
