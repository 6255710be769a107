import { routes, ApiClient, StepUpCancelled } from '@teltlk/client';
import { describe, expect, it, vi } from 'vitest';
import { isMoneyCall, joinRequests, requestOf, StepUpGate } from './step-up-gate';

describe('isMoneyCall', () => {
  it('names the calls the payment password proves', () => {
    expect(isMoneyCall('POST', '/wallet/withdraw')).toBe(true);
    expect(isMoneyCall('POST', '/wallet/transfers')).toBe(true);
    expect(isMoneyCall('POST', '/wallet/envelopes')).toBe(true);
    expect(isMoneyCall('POST', '/wallet/nfts/n_1/send')).toBe(true);
    expect(isMoneyCall('POST', '/wallet/password/change')).toBe(true);
  });

  it('leaves out account actions, other methods and look-alike paths', () => {
    expect(isMoneyCall('PUT', '/wallet/password')).toBe(false);
    expect(isMoneyCall('POST', '/me/phone')).toBe(false);
    expect(isMoneyCall('DELETE', '/me/pi')).toBe(false);
    expect(isMoneyCall('GET', '/wallet/withdraw')).toBe(false);
    expect(isMoneyCall('POST', '/wallet/withdraw/extra')).toBe(false);
    expect(isMoneyCall('POST', '/wallet/nfts/a/b/send')).toBe(false);
  });

  it('ignores the query string', () => {
    expect(isMoneyCall('POST', '/wallet/withdraw?x=1')).toBe(true);
  });
});

describe('requestOf and joinRequests', () => {
  it('keeps the reason and tells money from the call', () => {
    expect(requestOf({ reason: 'hold', method: 'POST', path: '/wallet/withdraw' })).toEqual({
      reason: 'hold',
      money: true,
    });
    expect(requestOf({ reason: 'stale', method: 'POST', path: '/me/phone' })).toEqual({
      reason: 'stale',
      money: false,
    });
  });

  it('joins to the stricter reason, and money only if both are', () => {
    const stale = { reason: 'stale', money: true } as const;
    const hold = { reason: 'hold', money: true } as const;
    expect(joinRequests(stale, hold)).toEqual({ reason: 'hold', money: true });
    expect(joinRequests(hold, stale)).toEqual({ reason: 'hold', money: true });
    expect(joinRequests(stale, { reason: 'stale', money: false })).toEqual({
      reason: 'stale',
      money: false,
    });
  });
});

describe('StepUpGate', () => {
  it('shows one request, and settles every call waiting on it together', async () => {
    const gate = new StepUpGate();
    const changes = vi.fn();
    gate.subscribe(changes);
    expect(gate.getSnapshot()).toBeNull();
    const first = gate.ask({ reason: 'stale', money: true });
    expect(gate.getSnapshot()).toEqual({ reason: 'stale', money: true });
    const second = gate.ask({ reason: 'hold', money: false });
    expect(gate.getSnapshot()).toEqual({ reason: 'hold', money: false });
    expect(changes).toHaveBeenCalledTimes(2);
    gate.settle(true);
    await expect(first).resolves.toBe(true);
    await expect(second).resolves.toBe(true);
    expect(gate.getSnapshot()).toBeNull();
  });

  it('does not tell its listeners of a join that changes nothing', () => {
    const gate = new StepUpGate();
    const changes = vi.fn();
    gate.subscribe(changes);
    void gate.ask({ reason: 'hold', money: false });
    void gate.ask({ reason: 'stale', money: true });
    expect(changes).toHaveBeenCalledTimes(1);
  });

  it('starts afresh after a request was given up', async () => {
    const gate = new StepUpGate();
    const given = gate.ask({ reason: 'stale', money: false });
    gate.settle(false);
    await expect(given).resolves.toBe(false);
    // A second settle has nothing left to settle.
    gate.settle(true);
    const next = gate.ask({ reason: 'stale', money: false });
    expect(gate.getSnapshot()).toEqual({ reason: 'stale', money: false });
    gate.settle(true);
    await expect(next).resolves.toBe(true);
  });

  it('stops listening when asked to', () => {
    const gate = new StepUpGate();
    const changes = vi.fn();
    const off = gate.subscribe(changes);
    off();
    void gate.ask({ reason: 'stale', money: false });
    expect(changes).not.toHaveBeenCalled();
  });
});

describe('the API client through the gate', () => {
  const refused = () =>
    new Response(
      JSON.stringify({
        error: { code: 'STEP_UP_REQUIRED', message: 'x', params: { reason: 'hold' } },
      }),
      { status: 403 },
    );
  const done = () => new Response(JSON.stringify({ id: 'p1' }), { status: 200 });

  function clientOf(gate: StepUpGate, answers: Response[]) {
    const fetch = vi.fn(() => Promise.resolve(answers.shift() ?? done()));
    const client = new ApiClient({
      getToken: () => 'tok',
      fetch,
      onStepUpRequired: (ask) => gate.ask(requestOf(ask)),
    });
    return { client, fetch };
  }

  it('retries both of two calls refused together once the one sheet is settled', async () => {
    const gate = new StepUpGate();
    const { client, fetch } = clientOf(gate, [refused(), refused()]);
    const withdrawal = client.call(routes.payments.withdraw, {
      body: { amount: '2', password: '123456' },
    });
    const unbinding = client.call(routes.pi.unbind);
    await vi.waitFor(() => expect(gate.getSnapshot()).toEqual({ reason: 'hold', money: false }));
    gate.settle(true);
    await expect(withdrawal).resolves.toEqual({ id: 'p1' });
    await expect(unbinding).resolves.toEqual({ id: 'p1' });
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('fails the call quietly when the sheet is closed', async () => {
    const gate = new StepUpGate();
    const { client, fetch } = clientOf(gate, [refused()]);
    const withdrawal = client.call(routes.payments.withdraw, {
      body: { amount: '2', password: '123456' },
    });
    await vi.waitFor(() => expect(gate.getSnapshot()).toEqual({ reason: 'hold', money: true }));
    gate.settle(false);
    await expect(withdrawal).rejects.toBeInstanceOf(StepUpCancelled);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
