import type {
  Conversation,
  MessageContent,
  SendableContent,
  Translation,
  TranslationInfoResult,
  UserEvent,
} from '@teltlk/protocol';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';

/** A message as the app shows it: a server message, or one of ours still on its way. */
export interface LocalMessage {
  conversationId: string;
  /** null until the server acknowledged it. */
  seq: number | null;
  clientMsgId: string;
  senderId: string;
  content: MessageContent;
  createdAt: number;
  revokedAt: number | null;
  burnAt: number | null;
  /**
   * The source language the server detected; null for notices, unacknowledged sends and
   * text with nothing to translate.
   */
  lang: string | null;
  /** When its sender last edited the text (absent on rows stored before edits existed). */
  editedAt?: number | null;
  status: 'sending' | 'sent' | 'failed';
  /** The error code of a failed send (e.g. 'MESSAGE_REFUSED'), for the retry control. */
  error?: string;
}

/**
 * What is sent as media: a photo (with its size in pixels), a file, a voice message (its
 * length and waveform as recorded), or a video (its size, length and a poster photo made
 * from it).
 */
export type OutgoingMedia =
  | { kind: 'image'; blob: Blob; name: string; width: number; height: number }
  | { kind: 'file'; blob: Blob; name: string }
  | { kind: 'voice'; blob: Blob; name: string; durationMs: number; waveform: string }
  | {
      kind: 'video';
      blob: Blob;
      name: string;
      width: number;
      height: number;
      durationMs: number;
      poster: { blob: Blob; width: number; height: number };
    };

export interface ConversationView extends Conversation {
  /** maxSeq - readSeq, never negative. */
  unread: number;
  draft: string;
}

/**
 * Where the engine stands, as one word: loading the local cache, offline (no socket),
 * connecting, catching up, or up to date.
 */
export type EngineStatus = EngineState['status'];

/**
 * Work the engine does on its own that failed, until it succeeds again: catching up with
 * the server (`sync`), or writing the local copy on this device (`store`). `code` is the
 * server's or the network's error code, or `UNKNOWN`; `retry` tries again at once.
 */
export interface EngineError {
  kind: 'sync' | 'store';
  code: string;
  retry(): void;
}

/**
 * Where the engine stands, each state with only its own fields. Without a socket
 * (`offline`, `connecting`) a sync started earlier may still run over REST: `syncing`
 * says so, and the socket comes back to `syncing` rather than `ready` then.
 */
export type EngineState = {
  /** Failures of background work, at most one per kind; empty when all is well. */
  errors: readonly EngineError[];
} & (
  | { status: 'starting' }
  | { status: 'offline'; syncing: boolean }
  | { status: 'connecting'; syncing: boolean }
  | { status: 'syncing' }
  | { status: 'ready' }
);

/** The engine's state, with the chat list as the local cache shows it. */
export type EngineSnapshot = EngineState & EngineView;

/** The chat list and what the server offers; empty while the cache is not loaded. */
export interface EngineView {
  /** Not hidden; pinned first, then by latest activity, newest first. */
  conversations: ConversationView[];
  /** Sum of unread over conversations that are not muted (the chat tab badge). */
  totalUnread: number;
  /**
   * What the server offers for translation; null until it has answered once. Without a
   * provider (`available: false`) it still converts Chinese scripts; per message, a
   * translation `unavailable` is one the app may make on the device instead.
   */
  translation: TranslationInfoResult | null;
}

export interface EngineEvents {
  connecting: void;
  connected: void;
  connectFailed: void;
  kickedOffline: void;
  tokenExpired: void;
  tokenInvalid: void;
  syncStart: void;
  syncFinish: void;
  syncFailed: void;
  /** A new message arrived (not our own echo). */
  message: LocalMessage;
  revoked: { conversationId: string; seq: number };
  /** A text was given new words by its sender. */
  edited: { conversationId: string; seq: number };
  /** Every event of the user's stream, once, in order. */
  userEvent: UserEvent;
  typing: { conversationId: string; userId: string };
  /** A translation arrived or changed (socket frame or answer). */
  translation: Translation;
}

export interface ConversationSnapshot {
  /** Ascending by seq; unacknowledged ones at the end in send order. Burnt and hidden ones left out. */
  messages: LocalMessage[];
  /** Older history exists (locally or on the server). */
  hasMore: boolean;
  loadingOlder: boolean;
  /** Shown for TYPING_SHOW_MS after a typing frame. */
  peerTyping: boolean;
  /**
   * The language this conversation's messages are translated into for the reader
   * (`translateTo`, else the mother tongue); null while neither is known.
   */
  translationTarget: string | null;
  /**
   * Translations of the shown messages into `translationTarget`, by seq (empty when the
   * conversation's translation is off). The same Map, and the same entries, until one
   * of them changes.
   */
  translations: ReadonlyMap<number, Translation>;
}

export interface ConversationHandle {
  subscribe(listener: () => void): () => void;
  /** Stable reference between changes. */
  getSnapshot(): ConversationSnapshot;
  loadOlder(): Promise<void>;
  /** Stored locally at once, sent when connected. */
  send(content: SendableContent): Promise<LocalMessage>;
  /** Stored locally at once, uploaded, then sent (ApiError FEATURE_UNAVAILABLE without an uploader). */
  sendMedia(media: OutgoingMedia): Promise<LocalMessage>;
  retry(clientMsgId: string): void;
  /** Throws ApiError (e.g. REVOKE_EXPIRED). */
  revoke(seq: number): Promise<void>;
  /** Our own text's new words. Throws ApiError (e.g. EDIT_EXPIRED). */
  edit(seq: number, text: string): Promise<void>;
  /** Delete for me. */
  hide(seq: number): Promise<void>;
  /** Read up to the newest seq. */
  markRead(): void;
  /** Throttled to TYPING_THROTTLE_MS. */
  typing(): void;
  /** Kept across reloads. */
  setDraft(text: string): void;
  /**
   * Asks for the translations of these messages (the ones on screen). Calls made in the
   * same tick go as one request; messages already translated, being translated or asked
   * for, and ones that need no translation, are left out.
   */
  translate(seqs: readonly number[]): void;
  /**
   * Makes one message's translation again: "retranslate" for a done one, "tap to retry"
   * for a failed one. Throws ApiError (e.g. TRANSLATION_UNAVAILABLE).
   */
  retranslate(seq: number): Promise<void>;
  close(): void;
}
