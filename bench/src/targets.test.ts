import { describe, expect, it } from 'vitest';
import {
  callSetupOk,
  dmOk,
  firstSyncOk,
  groupOk,
  idleOk,
  ledgerOk,
  rankingsOk,
  mediaOk,
  searchOk,
  persistenceOk,
  sfuOk,
  resultLine,
  translationOk,
  webFirstLoadOk,
} from './targets.js';

describe('benchmark targets', () => {
  it('rankings: top 100 plus my place within 20 ms at p99', () => {
    expect(rankingsOk(20)).toBe(true);
    expect(rankingsOk(20.1)).toBe(false);
  });

  it('one-to-one delivery needs half a bare relay and a p99 within twice its own and 200 ms', () => {
    expect(dmOk({ ratio: 0.12, p99: 200, wsP99: 2 })).toBe(true);
    expect(dmOk({ ratio: 0.119, p99: 1, wsP99: 2 })).toBe(false);
    expect(dmOk({ ratio: 0.8, p99: 201, wsP99: 150 })).toBe(false);
  });

  it('the ledger: exactly one share per envelope share, a balanced ledger, transfers at 0.3', () => {
    const good = { ratio: 0.3, grabsOk: 100, shares: 100, ledgerProblems: [] };
    expect(ledgerOk(good)).toBe(true);
    expect(ledgerOk({ ...good, ratio: 0.29 })).toBe(false);
    expect(ledgerOk({ ...good, grabsOk: 101 })).toBe(false);
    expect(ledgerOk({ ...good, grabsOk: 99 })).toBe(false);
    expect(ledgerOk({ ...good, ledgerProblems: ['account x: balance 1, entries sum to 0'] })).toBe(
      false,
    );
  });

  it('idle sockets, group fan-out and first load against their bounds', () => {
    expect(idleOk({ ratio: 3, kbPerSocket: 30 })).toBe(true);
    expect(idleOk({ ratio: 3.1, kbPerSocket: 10 })).toBe(false);
    expect(idleOk({ ratio: 2, kbPerSocket: 31 })).toBe(false);
    expect(groupOk({ acceptRatio: 1.5, p99: 2000 })).toBe(true);
    expect(groupOk({ acceptRatio: 1.6, p99: 100 })).toBe(false);
    expect(groupOk({ acceptRatio: 1, p99: 2001 })).toBe(false);
    expect(firstSyncOk({ syncMs: 1000 })).toBe(true);
    expect(firstSyncOk({ syncMs: 1001 })).toBe(false);
    expect(persistenceOk({ ratio: 0.5 })).toBe(true);
    expect(persistenceOk({ ratio: 0.49 })).toBe(false);
    expect(webFirstLoadOk(250)).toBe(true);
    expect(webFirstLoadOk(250.1)).toBe(false);
    expect(mediaOk({ ratio: 1.5 })).toBe(true);
    expect(mediaOk({ ratio: 1.51 })).toBe(false);
    expect(searchOk({ p99: 100 })).toBe(true);
    expect(searchOk({ p99: 100.1 })).toBe(false);
  });

  it('call set-up within twice the time of two bare connections through the same TURN', () => {
    expect(callSetupOk({ ratio: 2 })).toBe(true);
    expect(callSetupOk({ ratio: 2.01 })).toBe(false);
  });

  it('translation calls must equal the languages exactly, neither fewer nor more', () => {
    expect(translationOk({ callsPerMessage: 5, languages: 5 })).toBe(true);
    expect(translationOk({ callsPerMessage: 4, languages: 5 })).toBe(false);
    expect(translationOk({ callsPerMessage: 5.05, languages: 5 })).toBe(false);
  });

  it('a group video call: at most 1.2 times Janus alone, eight people, every video flowing', () => {
    const call = { ratio: 1.2, participants: 8, streams: 56, expectedStreams: 56 };
    expect(sfuOk(call)).toBe(true);
    expect(sfuOk({ ...call, ratio: 1.21 })).toBe(false);
    expect(sfuOk({ ...call, participants: 4, streams: 12, expectedStreams: 12 })).toBe(false);
    expect(sfuOk({ ...call, streams: 55 })).toBe(false);
  });

  it('writes the RESULT line, and fails one whose figures are not numbers', () => {
    expect(resultLine('dm-throughput', { ratio: '0.512', p99_ms: 3 }, true)).toEqual({
      line: 'RESULT dm-throughput ratio=0.512 p99_ms=3 ok=true',
      ok: true,
    });
    expect(resultLine('x', { ratio: 1 }, false).line).toBe('RESULT x ratio=1 ok=false');
    expect(resultLine('x', { ratio: NaN }, true)).toEqual({
      line: 'RESULT x ratio=NaN ok=false',
      ok: false,
    });
    // Figures arrive formatted, as strings.
    expect(resultLine('x', { ratio: 'NaN' }, true).ok).toBe(false);
    expect(resultLine('x', { p99_ms: 'Infinity' }, true).ok).toBe(false);
  });
});
