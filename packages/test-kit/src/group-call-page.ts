import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { PageJoin, PageJoinError, PageReceived, PageSeen } from './group-call-types.js';

export type * from './group-call-types.js';

/** From src/ and dist/ alike: the page's source, bundled when served. */
const pageEntry = fileURLToPath(new URL('../page/group-call.ts', import.meta.url));

export interface GroupCallPageServer {
  /** The page's address: load it in a browser, then drive it with GroupCallDevice. */
  url: string;
  close(): Promise<void>;
}

let bundled: Promise<string> | null = null;

/** The page and the web app's Janus client in one script (esbuild, as the app's build would). */
function bundle(): Promise<string> {
  bundled ??= import('esbuild').then(async ({ build }) => {
    const result = await build({
      entryPoints: [pageEntry],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    const [script] = result.outputFiles;
    if (!script) throw new Error('the group call page did not bundle');
    return script.text;
  });
  return bundled;
}

/**
 * Serves the group call page on a loopback port of its own: an origin other than
 * Janus's (its HTTP API is called across origins, as from the app) and the server's.
 * Loopback addresses are secure contexts, so the page may capture the (fake) camera.
 */
export async function serveGroupCallPage(): Promise<GroupCallPageServer> {
  const script = await bundle();
  const server = createServer((request, response) => {
    if (request.url === '/group-call.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      '<!doctype html><html><head><title>Group call</title></head><body>' +
        '<script src="/group-call.js"></script></body></html>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('the page server has no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser page (Playwright's Page is one) that evaluates an expression. */
export interface EvaluatingPage {
  evaluate(expression: string): Promise<unknown>;
}

/** One person's group call page, driven from Node: `window.groupCallPage` in the page. */
export class GroupCallDevice {
  constructor(private readonly page: EvaluatingPage) {}

  private call<T>(method: string, ...args: unknown[]): Promise<T> {
    const list = args.map((arg) => JSON.stringify(arg)).join(', ');
    return this.page.evaluate(`window.groupCallPage.${method}(${list})`) as Promise<T>;
  }

  /** Joins and publishes; null, or Janus's refusal. */
  join(input: PageJoin): Promise<PageJoinError | null> {
    return this.call('join', input);
  }

  seen(): Promise<PageSeen> {
    return this.call('seen');
  }

  received(): Promise<PageReceived> {
    return this.call('received');
  }

  setAudio(on: boolean): Promise<void> {
    return this.call('setAudio', on);
  }

  setVideo(on: boolean): Promise<void> {
    return this.call('setVideo', on);
  }

  restartIce(): Promise<void> {
    return this.call('restartIce');
  }

  tone(on: boolean): Promise<void> {
    return this.call('tone', on);
  }

  leave(): Promise<void> {
    return this.call('leave');
  }

  /** A call frame over the server's socket from the page; resolves with the call. */
  frame<T>(wsUrl: string, token: string, frame: Record<string, unknown>): Promise<T> {
    return this.call('frame', wsUrl, token, frame);
  }
}
