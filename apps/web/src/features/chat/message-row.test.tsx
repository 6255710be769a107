import type { LocalMessage } from '@teltlk/im-sdk';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { setUnfolded } from './long-text';
import { MessageRow, type MessageRowContext } from './message-row';
import { buildRows, type ChatRow } from '../../ui/conversation/messages';
import { receivedText } from '../../ui/conversation/test-fixtures';

function context(patch: Partial<MessageRowContext> = {}): MessageRowContext {
  return {
    selfId: 'a',
    now: 10_000,
    peerReadSeq: 0,
    personOf: (id) => ({ name: id === 'a' ? 'You' : 'Bob', avatarUrl: null }),
    onMenu: () => {},
    onRetry: () => {},
    ...patch,
  };
}

const text = (value: string, patch: Partial<LocalMessage> = {}) =>
  receivedText({ content: { kind: 'text', text: value }, ...patch });

/** The markup of each bubble of these messages, in order. */
function render(messages: LocalMessage[], row: MessageRowContext = context()): string[] {
  return buildRows(messages, { selfId: 'a', readReceipts: true })
    .filter((shown): shown is Extract<ChatRow, { kind: 'message' }> => shown.kind === 'message')
    .map((shown) => renderToStaticMarkup(<MessageRow row={shown} context={row} />));
}

describe('MessageBubble', () => {
  it('lets right-to-left text, names and quotes set their own direction', () => {
    const [html] = render([
      text('مرحبا بك', {
        lang: 'ar',
        content: {
          kind: 'text',
          text: 'مرحبا بك',
          quote: { seq: 2, senderId: 'a', text: 'שלום' },
        },
      }),
    ]);
    expect(html).toContain('<p class="tt-msg-text" dir="auto" lang="ar">مرحبا بك</p>');
    expect(html).toContain('<strong dir="auto">You</strong><span dir="auto">שלום</span>');
    // The bubble still sits on the sender's side: the row's class, not the text, places it.
    expect(html).toMatch(/^<div class="tt-msg">/);
  });

  it('shows one to three emoji alone large, and text with emoji as usual', () => {
    const [large, plain] = render([
      text('👍🏽🇹🇼', { seq: 4 }),
      text('ok 👍', { seq: 5, clientMsgId: 'client-0005', createdAt: 10 * 60_000 }),
    ]);
    expect(large).toMatch(/^<div class="tt-msg tt-msg-large">/);
    expect(plain).toMatch(/^<div class="tt-msg">/);
  });

  it('folds a long received message behind "Show more", and remembers it unfolded', () => {
    const long = text('word '.repeat(200));
    const [folded] = render([long]);
    expect(folded).toContain('class="tt-msg-fold tt-msg-folded"');
    expect(folded).toMatch(
      /<button type="button" class="tt-msg-fold-toggle" aria-expanded="false" aria-controls="[^"]+">Show more<\/button>/,
    );
    setUnfolded('si_a_b/b:client-0004', true);
    const [open] = render([long]);
    expect(open).not.toContain('tt-msg-folded');
    expect(open).toContain('aria-expanded="true"');
    expect(open).toContain('>Show less</button>');
    const [own] = render([text('word '.repeat(200), { senderId: 'a' })]);
    expect(own).not.toContain('tt-msg-fold');
  });

  it('marks own messages sending, sent and read, with names for screen readers', () => {
    const own = (patch: Partial<LocalMessage>) => text('hi', { senderId: 'a', ...patch });
    expect(render([own({ seq: null, status: 'sending' })])[0]).toContain(
      'role="img" aria-label="Sending"',
    );
    expect(render([own({})])[0]).toContain('role="img" aria-label="Sent"');
    expect(render([own({})], context({ peerReadSeq: 4 }))[0]).toContain(
      'role="img" aria-label="Read"',
    );
    const failed = render([own({ seq: null, status: 'failed' })])[0]!;
    expect(failed).toContain('aria-label="Resend"');
    expect(failed).not.toContain('role="img"');
    // A group shows read counts instead: its own messages never claim "Read".
    const group = context({
      peerReadSeq: 4,
      group: { systemText: () => '', mentionNames: () => [], readState: () => null },
    });
    expect(render([own({})], group)[0]).toContain('role="img" aria-label="Sent"');
  });

  it('gives a run one avatar and name on its first message and one time on its last', () => {
    const group = context({
      group: { systemText: () => '', mentionNames: () => [], readState: () => null },
    });
    const [first, last] = render(
      [
        text('one', { seq: 4, createdAt: 60_000 }),
        text('two', { seq: 5, clientMsgId: 'client-0005', createdAt: 120_000 }),
      ],
      group,
    );
    expect(first).toContain('class="tt-msg-sender"');
    expect(first).toContain('tt-avatar');
    expect(first).toMatch(/<time class="tt-visually-hidden"/);
    expect(last).toMatch(/^<div class="tt-msg tt-msg-run-follows">/);
    expect(last).not.toContain('tt-msg-sender');
    expect(last).toContain('tt-msg-avatar-gap');
    expect(last).toMatch(/<div class="tt-msg-meta"><time dateTime/);
  });
});
