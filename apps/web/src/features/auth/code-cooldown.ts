import type { Channel, CodePurpose } from '@teltlk/protocol';

/** When a code was sent and when another may be asked for, per destination and purpose. */
export interface CodeRecord {
  sentAt: number;
  resendAt: number;
}

type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function cooldownKey(purpose: CodePurpose, channel: Channel, destination: string): string {
  return `teltlk.code.${purpose}.${channel}.${destination}`;
}

export function recordSent(
  storage: KeyValueStorage,
  key: string,
  now: number,
  resendAfterSeconds: number,
): CodeRecord {
  const record: CodeRecord = {
    sentAt: now,
    resendAt: now + Math.max(0, resendAfterSeconds) * 1000,
  };
  try {
    storage.setItem(key, JSON.stringify(record));
  } catch {
    // The countdown still runs for this page.
  }
  return record;
}

export function readRecord(storage: KeyValueStorage, key: string): CodeRecord | null {
  try {
    const raw = storage.getItem(key);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<CodeRecord>;
    return typeof value.sentAt === 'number' && typeof value.resendAt === 'number'
      ? { sentAt: value.sentAt, resendAt: value.resendAt }
      : null;
  } catch {
    return null;
  }
}
