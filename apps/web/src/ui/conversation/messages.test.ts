import type { LocalMessage } from '@teltlk/im-sdk';
import {
  EDIT_WINDOW_SECONDS,
  quoteExcerpt,
  REVOKE_WINDOW_SECONDS,
  type CallContent,
} from '@teltlk/protocol';
import { describe, expect, it } from 'vitest';
import { catalogText, type CatalogKey } from '../../i18n/catalogs';
import { en_US } from '../../i18n/en_US';
import { zh_TW } from '../../i18n/zh_TW';
import {
  alertLine,
  buildRows,
  canEdit,
  canRevoke,
  deliveryState,
  isBlank,
  mapLink,
  messageText,
  RUN_GAP_MS,
  partLine,
  quotablePart,
} from './messages';

const day = (d: number, h = 12) => new Date(2026, 0, d, h).getTime();

function message(seq: number | null, patch: Partial<LocalMessage> = {}): LocalMessage {
  return {
    conversationId: 'si_a_b',
    seq,
    clientMsgId: `client-${seq ?? 'x'}-${patch.createdAt ?? 0}`,
    senderId: 'a',
    content: { kind: 'text', text: `text ${seq}` },
    createdAt: day(10),
    revokedAt: null,
    burnAt: null,
    lang: null,
    status: seq === null ? 'sending' : 'sent',
    ...patch,
  };
}

describe('buildRows', () => {
  it('puts a day separator before the first message of each day', () => {
    const rows = buildRows(
      [
        message(1, { createdAt: day(9, 8) }),
        message(2, { createdAt: day(9, 22) }),
        message(3, { createdAt: day(10, 1) }),
      ],
      { selfId: 'a', readReceipts: false },
    );
    expect(rows.map((row) => row.kind)).toEqual(['day', 'message', 'message', 'day', 'message']);
    expect(rows[0]).toMatchObject({ time: day(9, 8) });
    expect(rows[3]).toMatchObject({ time: day(10, 1) });
  });

  it('shows revoked messages and burn notices as notices, and leaves revoke notices out', () => {
    const rows = buildRows(
      [
        message(1, { revokedAt: day(10), content: { kind: 'revoked' } }),
        message(2, { content: { kind: 'revoke', targetSeq: 1 } }),
        message(3, { content: { kind: 'burn', seconds: 30 } }),
      ],
      { selfId: 'a', readReceipts: true },
    );
    expect(rows.map((row) => row.kind)).toEqual(['day', 'notice', 'notice']);
  });

  it('marks only our newest acknowledged text for the read state in 1:1', () => {
    const messages = [
      message(1),
      message(2),
      message(3, { senderId: 'b' }),
      message(null, { clientMsgId: 'pending-1' }),
    ];
    const rows = buildRows(messages, { selfId: 'a', readReceipts: true });
    const marked = rows.filter((row) => row.kind === 'message' && row.showRead);
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ message: { seq: 2 } });
    const group = buildRows(messages, { selfId: 'a', readReceipts: false });
    expect(group.some((row) => row.kind === 'message' && row.showRead)).toBe(false);
  });

  it('keeps the same key when a pending message is acknowledged', () => {
    const pending = message(null, { clientMsgId: 'same-id-1' });
    const [, before] = buildRows([pending], { selfId: 'a', readReceipts: false });
    const [, after] = buildRows([{ ...pending, seq: 7, status: 'sent' }], {
      selfId: 'a',
      readReceipts: false,
    });
    expect(before?.key).toBe(after?.key);
  });
});

describe('canRevoke', () => {
  const sent = message(4, { createdAt: 1_000_000 });
  const windowMs = REVOKE_WINDOW_SECONDS * 1000;

  it('allows our own sent text within the window', () => {
    expect(canRevoke(sent, 'a', 1_000_000 + windowMs - 1)).toBe(true);
  });

  it('refuses after the window, for others, for unsent and for revoked messages', () => {
    expect(canRevoke(sent, 'a', 1_000_000 + windowMs)).toBe(false);
    expect(canRevoke(sent, 'b', 1_000_001)).toBe(false);
    expect(canRevoke({ ...sent, seq: null }, 'a', 1_000_001)).toBe(false);
    expect(canRevoke({ ...sent, revokedAt: 1_000_001 }, 'a', 1_000_001)).toBe(false);
  });
});

describe('canEdit', () => {
  const sent = message(4, { createdAt: 1_000_000 });
  const windowMs = EDIT_WINDOW_SECONDS * 1000;

  it('allows our own sent text for a day', () => {
    expect(canEdit(sent, 'a', 1_000_000 + windowMs - 1)).toBe(true);
  });

  it('refuses after a day, for others, forwards, other kinds, unsent and revoked messages', () => {
    expect(canEdit(sent, 'a', 1_000_000 + windowMs)).toBe(false);
    expect(canEdit(sent, 'b', 1_000_001)).toBe(false);
    expect(canEdit({ ...sent, seq: null }, 'a', 1_000_001)).toBe(false);
    expect(canEdit({ ...sent, revokedAt: 1_000_001 }, 'a', 1_000_001)).toBe(false);
    const forwarded = { ...sent, content: { kind: 'text' as const, text: 'x', forwarded: true } };
    expect(canEdit(forwarded, 'a', 1_000_001)).toBe(false);
    const place = { kind: 'location' as const, latitude: 0, longitude: 0, name: 'Pier' };
    expect(canEdit({ ...sent, content: place }, 'a', 1_000_001)).toBe(false);
  });
});

describe('shared locations', () => {
  const place = {
    kind: 'location',
    latitude: -33.85681,
    longitude: 151.215297,
    name: 'Opera',
  } as const;
  const shared = message(4, { content: place, createdAt: 1_000_000 });

  it('opens the point in a map site, and can be revoked like a text', () => {
    expect(mapLink(place)).toBe(
      'https://www.openstreetmap.org/?mlat=-33.856810&mlon=151.215297#map=16/-33.856810/151.215297',
    );
    expect(quotablePart(shared)).toEqual({ text: 'Opera', kind: 'location' });
    expect(messageText(shared)).toBeNull();
    expect(canRevoke(shared, 'a', 1_000_001)).toBe(true);
    expect(quotablePart({ ...shared, revokedAt: 1_000_001 })).toBeNull();
  });
});

describe('shared cards', () => {
  it('offers the card until it is revoked, and revokes like a text', () => {
    const user = {
      id: 'c',
      teltlkId: 'Cat12345',
      nickname: 'Cat',
      avatarUrl: null,
      country: 'FR',
      motherTongue: 'fr',
      official: false,
    };
    const shared = message(5, { content: { kind: 'card', user }, createdAt: 1_000_000 });
    expect(quotablePart(shared)).toEqual({ text: 'Cat', kind: 'card' });
    expect(canRevoke(shared, 'a', 1_000_001)).toBe(true);
    expect(quotablePart({ ...shared, revokedAt: 1_000_001 })).toBeNull();
    expect(quotablePart(message(6))).toEqual({ text: 'text 6' });
    const label = (key: string, options: { name: string }) => `${key}:${options.name}`;
    expect(partLine({ text: 'Cat', kind: 'card' }, label)).toBe('chat.cardPreview:Cat');
    expect(partLine({ text: 'Opera', kind: 'location' }, label)).toBe('chat.locationPreview:Opera');
    expect(partLine({ text: 'hi' }, label)).toBe('hi');
  });
});

describe('call records', () => {
  const call = (seq: number, patch: Partial<CallContent> = {}, senderId = 'b') =>
    message(seq, {
      senderId,
      content: {
        kind: 'call',
        callId: `call-${seq}`,
        media: 'audio',
        outcome: 'missed',
        durationSeconds: 0,
        group: false,
        ...patch,
      },
    });
  const english = (key: CatalogKey, params?: Record<string, string>) =>
    catalogText(en_US, key, params);

  it('shows a record as a bubble of its caller that carries no read state', () => {
    const rows = buildRows([message(1), call(2, {}, 'a')], { selfId: 'a', readReceipts: true });
    expect(
      rows.map((row) => (row.kind === 'message' ? [row.kind, row.showRead] : row.kind)),
    ).toEqual(['day', ['message', true], ['message', false]]);
  });

  it('offers nothing to quote, copy, edit or revoke in a record', () => {
    const own = call(3, { outcome: 'completed', durationSeconds: 60 }, 'a');
    expect(quotablePart(own)).toBeNull();
    expect(messageText(own)).toBeNull();
    expect(canEdit(own, 'a', own.createdAt + 1)).toBe(false);
    expect(canRevoke(own, 'a', own.createdAt + 1)).toBe(false);
  });

  it('alerts a missed call with the record, and not a call the reader took or turned down', () => {
    expect(alertLine(call(4), english)).toBe('[Missed voice call]');
    expect(alertLine(call(5, { media: 'video', outcome: 'busy' }), english)).toBe(
      '[Missed video call]',
    );
    expect(alertLine(call(6), (key, params) => catalogText(zh_TW, key, params))).toBe(
      '[未接語音通話]',
    );
    expect(alertLine(call(7, { outcome: 'completed', durationSeconds: 9 }), english)).toBeNull();
    expect(alertLine(call(8, { outcome: 'rejected' }), english)).toBeNull();
    // Others' messages still alert with their line; notices do not.
    expect(alertLine(message(9), english)).toBe('text 9');
    expect(alertLine(message(10, { content: { kind: 'burn', seconds: 10 } }), english)).toBeNull();
  });
});

describe('message text helpers', () => {
  it('quotes one line of at most 200 characters', () => {
    expect(quoteExcerpt('  hello\n\nworld ')).toBe('hello world');
    const long = quoteExcerpt('😀'.repeat(300));
    expect(Array.from(long)).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });

  it('offers text only for text messages that are not revoked', () => {
    expect(messageText(message(1))).toBe('text 1');
    expect(messageText(message(1, { revokedAt: 5 }))).toBeNull();
    expect(messageText(message(1, { content: { kind: 'burn', seconds: 10 } }))).toBeNull();
  });

  it('treats white space as blank', () => {
    expect(isBlank(' \n\t ')).toBe(true);
    expect(isBlank(' 😀 ')).toBe(false);
  });
});

describe('runs of messages', () => {
  const at = (minutes: number) => day(10, 9) + minutes * 60 * 1000;
  /** Each bubble as "first/last of its run" marks: S start, E end, SE alone, - middle. */
  const marks = (messages: LocalMessage[]) =>
    buildRows(messages, { selfId: 'a', readReceipts: false }).flatMap((row) =>
      row.kind === 'message' ? [(row.runStart ? 'S' : '') + (row.runEnd ? 'E' : '') || '-'] : [],
    );

  it('groups one sender within three minutes of the message before', () => {
    expect(
      marks([
        message(1, { createdAt: at(0) }),
        message(2, { createdAt: at(1) }),
        message(3, { createdAt: at(3) }),
        message(4, { createdAt: at(3) + RUN_GAP_MS + 1 }),
      ]),
    ).toEqual(['S', '-', 'E', 'SE']);
  });

  it('starts a new run at another sender, a notice, or a new day', () => {
    expect(
      marks([
        message(1, { createdAt: at(0) }),
        message(2, { createdAt: at(1), senderId: 'b' }),
        message(3, { createdAt: at(1), senderId: 'b' }),
        message(4, { createdAt: at(2), senderId: 'b', content: { kind: 'burn', seconds: 10 } }),
        message(5, { createdAt: at(2), senderId: 'b' }),
      ]),
    ).toEqual(['SE', 'S', 'E', 'SE']);
    expect(
      marks([
        message(1, { createdAt: new Date(2026, 0, 10, 23, 59).getTime() }),
        message(2, { createdAt: new Date(2026, 0, 11, 0, 1).getTime() }),
      ]),
    ).toEqual(['SE', 'SE']);
  });

  it('does not join a message that sorts before the one above it', () => {
    expect(marks([message(1, { createdAt: at(2) }), message(null, { createdAt: at(1) })])).toEqual([
      'SE',
      'SE',
    ]);
  });
});

describe('deliveryState', () => {
  it('is sending until acknowledged, sent, then read once the peer read that far', () => {
    expect(deliveryState(message(null), 9)).toBe('sending');
    expect(deliveryState(message(5), 4)).toBe('sent');
    expect(deliveryState(message(5), 5)).toBe('read');
    expect(deliveryState(message(null, { status: 'failed' }), 9)).toBeNull();
  });

  it('never says read where the read position is unknown (groups count readers instead)', () => {
    expect(deliveryState(message(5), null)).toBe('sent');
  });
});
