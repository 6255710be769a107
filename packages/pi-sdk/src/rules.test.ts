import { describe, expect, it } from 'vitest';
import {
  PI_MESSAGES,
  checkAdFormat,
  checkConversationId,
  checkNativePermission,
  checkPaymentsScope,
  checkScopes,
  checkVersion,
  errorReport,
} from './rules.js';

describe('the Pi SDK rules', () => {
  it('takes scopes only from the list', () => {
    expect(checkScopes(['username', 'payments', 'username'])).toEqual(['username', 'payments']);
    expect(checkScopes(['roles', 'platform', 'wallet_address'])).toHaveLength(3);
    expect(() => checkScopes(['username', 'email'])).toThrow(PI_MESSAGES.invalidScopes);
    expect(() => checkScopes('username')).toThrow(
      "Invalid scopes found. Please check the scopes you're requesting again.",
    );
  });

  it('knows version 2.0 only', () => {
    expect(() => checkVersion('2.0')).not.toThrow();
    for (const version of ['1.0', '2', 2, undefined]) {
      expect(() => checkVersion(version)).toThrow('Unrecognized version number passed to init()');
    }
  });

  it('shows interstitial and rewarded ads only', () => {
    expect(checkAdFormat('rewarded')).toBe('rewarded');
    expect(checkAdFormat('interstitial')).toBe('interstitial');
    expect(() => checkAdFormat('banner')).toThrow('Invalid argument');
  });

  it('asks for the camera and the microphone only, and opens conversations by number', () => {
    expect(checkNativePermission('camera')).toBe('camera');
    expect(checkNativePermission('microphone')).toBe('microphone');
    for (const permission of ['location', 'Camera', undefined, 1]) {
      expect(() => checkNativePermission(permission)).toThrow('Invalid argument');
    }
    expect(checkConversationId(42)).toBe(42);
    for (const id of ['42', 4.2, Number.NaN, 2 ** 53, null]) {
      expect(() => checkConversationId(id)).toThrow('Invalid argument');
    }
  });

  it('needs the payments scope for a payment', () => {
    expect(() => checkPaymentsScope(['username', 'payments'])).not.toThrow();
    expect(() => checkPaymentsScope(['username'])).toThrow(
      'Cannot create a payment without "payments" scope',
    );
  });

  it('reports an error with its UTC time as MM-DD HH:MM:SS', () => {
    const report = errorReport(
      'authenticate',
      new Error('Authentication failed.'),
      { scopes: ['username'] },
      new Date(Date.UTC(2026, 0, 5, 3, 4, 9)),
    );
    expect(report).toEqual({
      time: '01-05 03:04:09',
      call: 'authenticate',
      message: 'Authentication failed.',
      data: { scopes: ['username'] },
    });
  });
});
