import type { LocalMessage } from '@teltlk/im-sdk';
import type { CallContent } from '@teltlk/protocol';
import type { ButtonHTMLAttributes, MouseEvent, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CallBubble } from './call-bubble';
import { useMessageMenu, type MenuAction } from './message-menu';
import { MessageRow, type MessageRowContext } from './message-row';
import { buildRows, type ChatRow } from '../../ui/conversation/messages';
import { receivedText } from '../../ui/conversation/test-fixtures';

// The call controller is not mounted here: what the record asks of it is recorded.
const { startCall } = vi.hoisted(() => ({
  startCall: vi.fn<(conversationId: string, media: 'audio' | 'video') => boolean>(() => true),
}));
vi.mock('../../app/start-call', () => ({ startCall }));
// Stickers load favourites from the server; none here.
vi.mock('./faces', () => ({ StickerBubble: () => null, useAddFavourite: () => ({ mutate() {} }) }));

const content = (patch: Partial<CallContent> = {}): CallContent => ({
  kind: 'call',
  callId: 'call-1',
  media: 'audio',
  outcome: 'completed',
  durationSeconds: 201,
  group: false,
  ...patch,
});

/** A record in Ada (a) and Bob's (b) chat; the server sends it as the caller. */
const record = (caller: string, patch: Partial<CallContent> = {}): LocalMessage =>
  receivedText({ senderId: caller, content: content(patch), lang: null });

const context: MessageRowContext = {
  selfId: 'a',
  now: 10_000,
  peerReadSeq: 0,
  personOf: (id) => ({ name: id === 'a' ? 'You' : 'Bob', avatarUrl: null }),
  onMenu: () => {},
  onRetry: () => {},
};

/** The markup of the record's row, as Ada's chat shows it. */
function render(message: LocalMessage): string {
  const [row] = buildRows([message], { selfId: 'a', readReceipts: true }).filter(
    (shown): shown is Extract<ChatRow, { kind: 'message' }> => shown.kind === 'message',
  );
  return renderToStaticMarkup(<MessageRow row={row!} context={context} />);
}

/** The record's button as a React element, to press. */
function button(props: Parameters<typeof CallBubble>[0]) {
  return CallBubble(props) as ReactElement<ButtonHTMLAttributes<HTMLButtonElement>>;
}

describe('a call record in the chat', () => {
  beforeEach(() => {
    startCall.mockClear();
  });

  it('is a bubble on its caller’s side with the reader’s words for it', () => {
    const received = render(record('b', { outcome: 'missed', durationSeconds: 0 }));
    expect(received).toMatch(/^<div class="tt-msg">/);
    expect(received).toContain('<span>Missed voice call</span>');
    expect(received).toContain('class="tt-msg-call tt-msg-call-missed"');
    const own = render(record('a', { outcome: 'missed', durationSeconds: 0 }));
    expect(own).toMatch(/^<div class="tt-msg tt-msg-own">/);
    expect(own).toContain('<span>No answer</span>');
    expect(own).toContain('class="tt-msg-call"');
    const video = render(record('b', { media: 'video', durationSeconds: 3725 }));
    expect(video).toContain('<span>Video call · 1:02:05</span>');
    const group = render(
      record('b', { group: true, media: 'video', outcome: 'rejected', durationSeconds: 0 }),
    );
    expect(group).toContain('<span>Group video call ended</span>');
  });

  it('is a real button named for calling back, so keys and screen readers reach it', () => {
    const html = render(record('a', { media: 'video', durationSeconds: 62 }));
    expect(html).toContain(
      '<button type="button" class="tt-msg-call" aria-label="Call back with a video call (Video call · 1:02)">',
    );
  });

  it('calls back in its chat with the same media when pressed', () => {
    const voice = button({ conversationId: 'si_a_b', content: content(), own: false });
    expect(voice.type).toBe('button');
    voice.props.onClick?.({} as MouseEvent<HTMLButtonElement>);
    expect(startCall).toHaveBeenCalledExactlyOnceWith('si_a_b', 'audio');
    const video = button({
      conversationId: 'sg_g1',
      content: content({ media: 'video', group: true }),
      own: true,
    });
    video.props.onClick?.({} as MouseEvent<HTMLButtonElement>);
    expect(startCall).toHaveBeenLastCalledWith('sg_g1', 'video');
  });

  it('can be deleted for oneself, and not replied to, copied, forwarded, picked or edited', () => {
    const offered = (message: LocalMessage): string[] => {
      const seen: MenuAction[][] = [];
      function Probe() {
        const menu = useMessageMenu({
          selfId: 'a',
          now: message.createdAt + 1000,
          handle: undefined,
          personOf: context.personOf,
          translation: undefined,
          onReply: () => {},
          onEdit: () => {},
          onSelect: () => {},
          onForward: () => {},
        });
        seen.push(menu(message));
        return null;
      }
      renderToStaticMarkup(<Probe />);
      return seen[0]!.map((action) => action.key);
    };
    expect(offered(record('a'))).toEqual(['delete']);
    expect(offered(record('b', { outcome: 'missed' }))).toEqual(['delete']);
    // A text beside it offers the rest, so the menu is not simply empty.
    expect(offered(receivedText({ senderId: 'a' }))).toEqual(
      expect.arrayContaining(['reply', 'copy', 'select', 'forward', 'edit', 'delete']),
    );
  });
});
