import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import webpush from 'web-push';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const FILE = 'vapid-keys.json';

function read(path: string): VapidKeys | null {
  try {
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string') {
      return { publicKey: stored.publicKey, privateKey: stored.privateKey };
    }
    return null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The server's VAPID key pair, which signs every push: from the config when it names one,
 * otherwise made at the first start and kept in the data folder (mode 600), so devices
 * subscribed once stay subscribed across restarts. Nodes that share a database but not a
 * data folder must be given the pair in their config.
 */
export function loadVapidKeys(configured: VapidKeys | null, dataDir: string): VapidKeys {
  if (configured) return configured;
  const path = join(dataDir, FILE);
  const kept = read(path);
  if (kept) return kept;
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(path, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process made them first: theirs count.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const made = read(path);
  if (!made) throw new Error(`${path} does not hold a VAPID key pair`);
  return made;
}
