import { HOST_REPLY, HOST_REQUEST, type HostMethod } from '@teltlk/pi-sdk/contract';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { HOST_SCRIPT } from './host-page.js';

/**
 * The host page's own script, run against as much of a page as it reads: the framed app
 * is a window that records what it is posted, and requests come as its messages do.
 */

const HOST = 'http://127.0.0.1:3100';
const APP = 'http://127.0.0.1:3000';

interface Asked {
  permissions: { permission: string; granted: boolean }[];
  conversations: number[];
}

function hostPageAt(search: string) {
  const posted: { data: unknown; origin: string }[] = [];
  const app = {
    postMessage(data: unknown, origin: string): void {
      posted.push({ data, origin });
    },
  };
  const element = () => ({ textContent: '', hidden: true, replaceChildren() {}, append() {} });
  const elements: Record<string, unknown> = {
    app: { src: `${APP}/`, contentWindow: app },
    who: element(),
    notice: element(),
    sheet: element(),
    'sheet-title': element(),
    'sheet-body': element(),
    'sheet-actions': element(),
  };
  let onMessage: (event: unknown) => Promise<void> = () => Promise.resolve();
  const page: { addEventListener: (type: string, listener: never) => void; piSandbox?: Asked } = {
    addEventListener: (type, listener) => {
      if (type === 'message') onMessage = listener;
    },
  };
  runInNewContext(HOST_SCRIPT, {
    window: page,
    document: { getElementById: (id: string) => elements[id] ?? null },
    location: { search, origin: HOST },
    localStorage: { getItem: () => null, setItem() {} },
    URL,
    URLSearchParams,
  });
  let next = 0;
  /** Sends a request as the framed app does; resolves with the host's reply. */
  const request = async (method: HostMethod, params: unknown, from = app) => {
    const id = `r${(next += 1)}`;
    const before = posted.length;
    await onMessage({
      source: from,
      origin: APP,
      data: { type: HOST_REQUEST, id, method, params },
    });
    if (posted.length === before) return null;
    const reply = posted.at(-1)!;
    expect(reply.origin).toBe(APP);
    expect(reply.data).toMatchObject({ type: HOST_REPLY, id });
    return JSON.parse(JSON.stringify(reply.data)) as { ok: boolean; result?: unknown };
  };
  const asked = () => JSON.parse(JSON.stringify(page.piSandbox)) as Asked;
  return { request, asked, notice: elements.notice as { textContent: string } };
}

describe('the sandbox host page', () => {
  it('says this Pi Browser can ask for permissions, and grants them unless told to refuse', async () => {
    const host = hostPageAt('?user=ada');
    expect(await host.request('checkNativeFeatures', {})).toMatchObject({
      ok: true,
      result: { features: expect.arrayContaining(['request_permission']) as unknown },
    });
    expect(await host.request('requestNativePermission', { permission: 'microphone' })).toEqual({
      type: HOST_REPLY,
      id: 'r2',
      ok: true,
      result: { granted: true },
    });
    expect(host.notice.textContent).toBe('The app may use the microphone');
    expect(host.asked().permissions).toEqual([{ permission: 'microphone', granted: true }]);
  });

  it('refuses the permissions its address names, or all of them', async () => {
    const camera = hostPageAt('?refuse=camera');
    const granted = async (host: ReturnType<typeof hostPageAt>, permission: string) =>
      (
        (await host.request('requestNativePermission', { permission }))?.result as {
          granted: boolean;
        }
      ).granted;
    expect(await granted(camera, 'camera')).toBe(false);
    expect(await granted(camera, 'microphone')).toBe(true);
    expect(camera.notice.textContent).toBe('The app may use the microphone');
    expect(camera.asked().permissions).toEqual([
      { permission: 'camera', granted: false },
      { permission: 'microphone', granted: true },
    ]);
    const all = hostPageAt('?refuse=all');
    expect(await granted(all, 'microphone')).toBe(false);
    expect(all.notice.textContent).toBe('The app was refused the microphone');
    const both = hostPageAt('?refuse=camera,%20microphone');
    expect([await granted(both, 'camera'), await granted(both, 'microphone')]).toEqual([
      false,
      false,
    ]);
  });

  it('records the conversations of Pi’s chat the app opens, and acknowledges them', async () => {
    const host = hostPageAt('');
    expect(await host.request('openConversation', { conversationId: 42 })).toMatchObject({
      ok: true,
      result: { ok: true },
    });
    expect(host.asked().conversations).toEqual([42]);
    expect(host.notice.textContent).toBe('Pi would open its chat: conversation 42');
  });

  it('hears only the app it frames', async () => {
    const host = hostPageAt('');
    const stranger = { postMessage() {} };
    expect(
      await host.request('requestNativePermission', { permission: 'camera' }, stranger),
    ).toBeNull();
    expect(host.asked().permissions).toEqual([]);
  });
});
