import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CALL_TIME_LIMIT_MS,
  createDeviceTranslator,
  DOWNLOAD_STALL_MS,
  type DeviceTranslator,
  type TranslatorApi,
} from './device-translator';

type CreateOptions = Parameters<TranslatorApi['create']>[0];
type Monitor = Parameters<NonNullable<CreateOptions['monitor']>>[0];
type ProgressListener = Parameters<Monitor['addEventListener']>[1];

/**
 * A stand-in for the browser's Translator: upper-cases, and knows only some pairs. A pair
 * may hang (never answers), need a tap to download (refused without one), or download
 * as the test says through its monitor.
 */
class FakeTranslator implements TranslatorApi {
  created: string[] = [];
  translated: string[] = [];
  /** Texts whose translation never answers. */
  hanging = new Set<string>();
  /** Whether create() is called within a tap (the browser's transient activation). */
  tapped = false;
  /** The progress listener of the download under way, and how to finish it. */
  progress: ProgressListener | null = null;
  finishDownload: (() => void) | null = null;
  signals: AbortSignal[] = [];

  constructor(
    private readonly pairs: Record<string, string>,
    private readonly failing = new Set<string>(),
  ) {}

  availability(pair: { sourceLanguage: string; targetLanguage: string }): Promise<string> {
    const answer = this.pairs[`${pair.sourceLanguage}>${pair.targetLanguage}`] ?? 'unavailable';
    return answer === 'hang' ? new Promise(() => undefined) : Promise.resolve(answer);
  }

  create(options: CreateOptions) {
    const name = `${options.sourceLanguage}>${options.targetLanguage}`;
    const translator = {
      translate: (text: string, call?: { signal?: AbortSignal }) => {
        this.translated.push(text);
        if (call?.signal) this.signals.push(call.signal);
        if (this.hanging.has(text)) return new Promise<string>(() => undefined);
        return this.failing.has(text)
          ? Promise.reject(new Error('model crashed'))
          : Promise.resolve(`${options.targetLanguage}:${text.toUpperCase()}`);
      },
    };
    if (this.pairs[name] === 'downloadable') {
      if (!this.tapped) {
        return Promise.reject(new DOMException('needs a user gesture', 'NotAllowedError'));
      }
      return new Promise<typeof translator>((resolve) => {
        options.monitor?.({
          addEventListener: (_type, listener) => {
            this.progress = listener;
          },
        });
        this.finishDownload = () => {
          this.created.push(name);
          resolve(translator);
        };
      });
    }
    this.created.push(name);
    return Promise.resolve(translator);
  }
}

function deviceOf(api: FakeTranslator): DeviceTranslator {
  const device = createDeviceTranslator({ Translator: api });
  if (!device) throw new Error('expected a device translator');
  return device;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('device translator', () => {
  it('is null where the browser has no usable Translator API', () => {
    expect(createDeviceTranslator({})).toBeNull();
    expect(createDeviceTranslator({ Translator: { create: () => null } })).toBeNull();
    expect(createDeviceTranslator({ Translator: new FakeTranslator({}) })).not.toBeNull();
  });

  it('keeps one translator per pair and remembers what it translated', async () => {
    const api = new FakeTranslator({ 'fr>en': 'available', 'de>en': 'available' });
    const device = deviceOf(api);
    expect(device.peek('bonjour', 'fr', 'en')).toBeUndefined();
    const [a, b] = await Promise.all([
      device.translate('bonjour', 'fr', 'en'),
      device.translate('bonjour', 'fr', 'en'),
    ]);
    expect([a, b]).toEqual(['en:BONJOUR', 'en:BONJOUR']);
    expect(await device.translate('salut', 'fr', 'en')).toBe('en:SALUT');
    expect(await device.translate('hallo', 'de', 'en')).toBe('en:HALLO');
    expect(await device.translate('bonjour', 'fr', 'en')).toBe('en:BONJOUR');
    expect(device.peek('bonjour', 'fr', 'en')).toBe('en:BONJOUR');
    expect(api.created).toEqual(['fr>en', 'de>en']);
    expect(api.translated).toEqual(['bonjour', 'salut', 'hallo']);
    expect(device.pairState('fr', 'en')).toEqual({ kind: 'ready' });
  });

  it('gives null for a pair it cannot do, one still to download, and a failure', async () => {
    const api = new FakeTranslator(
      { 'fr>en': 'available', 'ja>en': 'downloadable' },
      new Set(['boom']),
    );
    const device = deviceOf(api);
    expect(await device.translate('hola', 'es', 'en')).toBeNull();
    expect(device.pairState('es', 'en')).toEqual({ kind: 'unavailable' });
    expect(await device.translate('こんにちは', 'ja', 'en')).toBeNull();
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloadable' });
    expect(await device.translate('boom', 'fr', 'en')).toBeNull();
    expect(device.peek('boom', 'fr', 'en')).toBeUndefined();
    // A failure is not remembered: the next showing tries again.
    await device.translate('boom', 'fr', 'en');
    expect(api.translated).toEqual(['boom', 'boom']);
  });

  it('gives up on a translation that does not answer in time, aborting it, and may try again', async () => {
    vi.useFakeTimers();
    const api = new FakeTranslator({ 'fr>en': 'available' });
    api.hanging.add('lent');
    const device = deviceOf(api);
    const slow = device.translate('lent', 'fr', 'en');
    let outcome: string | null | undefined;
    void slow.then((value) => {
      outcome = value;
    });
    await vi.advanceTimersByTimeAsync(CALL_TIME_LIMIT_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeNull();
    expect(api.signals[0]?.aborted).toBe(true);
    // The pair still works, and the same text is tried anew when asked again.
    api.hanging.delete('lent');
    expect(await device.translate('lent', 'fr', 'en')).toBe('en:LENT');
    expect(device.pairState('fr', 'en')).toEqual({ kind: 'ready' });
  });

  it('calls a pair failed when the browser does not say whether it can, and tries again on request', async () => {
    vi.useFakeTimers();
    const api = new FakeTranslator({ 'fr>en': 'hang' });
    const device = deviceOf(api);
    const first = device.translate('bonjour', 'fr', 'en');
    expect(device.pairState('fr', 'en')).toEqual({ kind: 'checking' });
    await vi.advanceTimersByTimeAsync(CALL_TIME_LIMIT_MS);
    expect(await first).toBeNull();
    expect(device.pairState('fr', 'en')).toEqual({ kind: 'failed' });
    device.retry('fr', 'en');
    expect(device.pairState('fr', 'en')).toEqual({ kind: 'checking' });
  });

  it('downloads a pack on a tap, reporting progress, and translates once it is there', async () => {
    const api = new FakeTranslator({ 'ja>en': 'downloadable' });
    const device = deviceOf(api);
    const changes: string[] = [];
    device.subscribe(() => changes.push(JSON.stringify(device.pairState('ja', 'en'))));
    device.prepare('ja', 'en');
    await vi.waitFor(() => expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloadable' }));
    const versionBefore = device.version();

    api.tapped = true;
    device.download('ja', 'en');
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloading', progress: null });
    const waiting = device.translate('こんにちは', 'ja', 'en');
    api.progress?.({ loaded: 0.25, total: 1 });
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloading', progress: 0.25 });
    api.progress?.({ loaded: 300, total: 400 });
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloading', progress: 0.75 });
    api.finishDownload?.();
    expect(await waiting).toBe('en:こんにちは');
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'ready' });
    expect(device.version()).toBeGreaterThan(versionBefore);
    expect(changes).toEqual([
      '{"kind":"downloadable"}',
      '{"kind":"downloading","progress":null}',
      '{"kind":"downloading","progress":0.25}',
      '{"kind":"downloading","progress":0.75}',
      '{"kind":"ready"}',
    ]);
  });

  it('calls a download failed once it stops progressing, and a tap starts it again', async () => {
    vi.useFakeTimers();
    const api = new FakeTranslator({ 'ja>en': 'downloadable' });
    const device = deviceOf(api);
    device.prepare('ja', 'en');
    await vi.advanceTimersByTimeAsync(0);
    api.tapped = true;
    device.download('ja', 'en');
    // Progress keeps it going past the stall limit…
    await vi.advanceTimersByTimeAsync(DOWNLOAD_STALL_MS - 1);
    api.progress?.({ loaded: 0.5, total: 1 });
    await vi.advanceTimersByTimeAsync(DOWNLOAD_STALL_MS - 1);
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloading', progress: 0.5 });
    // …and a stall that long ends it.
    await vi.advanceTimersByTimeAsync(1);
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'failed' });
    device.download('ja', 'en');
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'downloading', progress: null });
    api.finishDownload?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(device.pairState('ja', 'en')).toEqual({ kind: 'ready' });
  });
});
