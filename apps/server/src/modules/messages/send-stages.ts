import type { Message, SendMessageBody } from '@teltlk/protocol';
import type { ChineseScript } from '../translation/chinese.js';
import type { Guess } from '../translation/detect.js';
import type { NewEntry } from './append.js';
import type { Outcome } from './group-commit.js';
import type { Writer } from './send-writers.js';

/** The sends as they go through the stages of the send pipeline (send.ts). */

/** A send waiting for its group commit. */
export interface SendRequest {
  userId: string;
  body: SendMessageBody;
  /** The detector's guess at the text's language; null for what is not text. */
  guess: Guess | null;
  /** Which Chinese script the text is written in, if any. */
  script: ChineseScript;
}

/**
 * A send as it goes through the stages of its batch; a stage that refuses or answers it
 * settles its `outcome`, and later stages only see the sends still open.
 */
export interface Send {
  request: SendRequest;
  /** Sender and client message id: what makes a retry the same send. */
  key: string;
  outcome?: Outcome<Message>;
}

/** A send that may be written: who writes, with their read mark. */
export interface Authorized {
  send: Send;
  writer: Writer;
}

/** A send ready to append: its entry, with mentions checked and its language known. */
export interface Composed {
  send: Send;
  conversationId: string;
  entry: NewEntry;
}

/** What the language stage reads for the open sends, before the transaction. */
export interface Languages {
  /** Mother tongues of senders whose texts need one to tell their language. */
  tongues: Map<string, string>;
}

/** The outcome of a step that may throw. */
export function attempt<R>(step: () => R): Outcome<R> {
  try {
    return { ok: true, value: step() };
  } catch (error) {
    return { ok: false, error };
  }
}
