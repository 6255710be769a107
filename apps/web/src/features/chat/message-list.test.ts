import { describe, expect, it } from 'vitest';
import { buildRows } from '../../ui/conversation/messages';
import { receivedText } from '../../ui/conversation/test-fixtures';
import { arrivedSince } from './message-list';

/** `a`'s chat with `b`: messages 1 to `count`, a minute apart, `b`'s unless said otherwise. */
function rowsOf(count: number, fromSelf: readonly number[] = []) {
  const messages = Array.from({ length: count }, (_, index) =>
    receivedText({
      seq: index + 1,
      clientMsgId: `client-${index + 1}`,
      senderId: fromSelf.includes(index + 1) ? 'a' : 'b',
      createdAt: 1_700_000_000_000 + index * 60_000,
    }),
  );
  return buildRows(messages, { selfId: 'a', readReceipts: true });
}

describe('the messages that came while the person was away from the end', () => {
  it('are those from others after the newest row then', () => {
    const before = rowsOf(3);
    const mark = before.at(-1)!.key;
    expect(arrivedSince(before, mark, 'a')).toBe(0);
    expect(arrivedSince(rowsOf(5), mark, 'a')).toBe(2);
  });

  it('leave out the person’s own, sent from another device', () => {
    const mark = rowsOf(3).at(-1)!.key;
    expect(arrivedSince(rowsOf(6, [4, 6]), mark, 'a')).toBe(1);
  });

  it('still count once older messages have loaded above', () => {
    // Messages 4–6 were loaded when the person scrolled up; 1–3 came above, 7–8 below.
    const mark = rowsOf(6).at(-1)!.key;
    expect(arrivedSince(rowsOf(8), mark, 'a')).toBe(2);
  });

  it('are none when the row left behind is gone', () => {
    expect(arrivedSince(rowsOf(4), 'gone', 'a')).toBe(0);
  });
});
