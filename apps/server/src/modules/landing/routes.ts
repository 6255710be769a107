import fastifyCompress from '@fastify/compress';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_UI_LANGUAGE,
  DOWNLOAD_PLATFORMS,
  HTML_LANG,
  LANDING_NOTICES,
  LANDING_ORIGIN_PLACEHOLDER,
  LANDING_PATHS,
  cooperationForm,
  escapeHtml,
  type DownloadPlatform,
  type UiLanguage,
} from '@teltlk/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { handleNotFound } from '../../http/errors.js';
import { byAddress, limitBy } from '../../http/rate-limit.js';
import { pickLanguage } from '../notify/messages.js';

/** A landing page's path below /home/: lowercase words and slashes, nothing else. */
const PAGE_PATH = /^(?:[a-z0-9-]+\/)*$/;

/** A short page the server writes itself (a failed download link, a form to send again). */
function notice(reply: FastifyReply, status: number, language: UiLanguage, text: string) {
  const back = LANDING_NOTICES[language].back;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="${HTML_LANG[language]}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>Teltlk</title>` +
        `<link rel="stylesheet" href="/landing.css"></head><body><main class="l-section">` +
        `<p role="alert">${escapeHtml(text)}</p><p><a class="l-button" href="${LANDING_PATHS[language]}">${back}</a></p>` +
        `</main></body></html>`,
    );
}

function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * The landing site at /home: the pages prerendered at build (served with this host's own
 * address in their links), a language chosen by the browser at /home, the app download
 * links from the config, and the partnership form.
 */
export async function landingRoutes(parent: FastifyInstance, ctx: AppContext): Promise<void> {
  await parent.register((app) => landingScope(app, ctx));
}

async function landingScope(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = join(ctx.config.webDistDir, 'home');
  const built = existsSync(root);
  // Pages are served with this host's address written in, so compressed here, not at build.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    customTypes: /^text\/html(?:;|$)/,
    globalDecompression: false,
  });

  const pages = limitBy(ctx.limits, ['landingPerAddress', byAddress]);
  // The browser's language; without one, the app's default (zh_CN), whose pages are /home/.
  app.get('/home', { schema: { hide: true }, onRequest: pages }, (request, reply) => {
    const header = request.headers['accept-language'];
    const language = header ? pickLanguage(header) : DEFAULT_UI_LANGUAGE;
    return reply.redirect(LANDING_PATHS[language], 302);
  });

  app.get<{ Params: { platform: string } }>(
    '/home/download/:platform',
    { schema: { hide: true }, onRequest: pages },
    (request, reply) => {
      const platform = request.params.platform as DownloadPlatform;
      const link = DOWNLOAD_PLATFORMS.includes(platform) ? ctx.config.downloads[platform] : null;
      if (link) return reply.redirect(link, 302);
      const language = pickLanguage(request.headers['accept-language']);
      return notice(reply, 404, language, LANDING_NOTICES[language].downloadFailed);
    },
  );

  await app.register((form, _options, done) => {
    // A plain HTML form: its body is URL-encoded text.
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 16 * 1024 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    form.post(
      '/home/cooperate',
      {
        schema: { hide: true },
        onRequest: limitBy(ctx.limits, ['cooperationPerAddress', byAddress]),
      },
      async (request, reply) => {
        const parsed = cooperationForm.safeParse(request.body ?? {});
        if (!parsed.success) {
          const raw = (request.body as { lang?: unknown } | undefined)?.lang;
          const language = (Object.keys(LANDING_PATHS) as UiLanguage[]).includes(raw as UiLanguage)
            ? (raw as UiLanguage)
            : pickLanguage(request.headers['accept-language']);
          return notice(reply, 400, language, LANDING_NOTICES[language].invalidForm);
        }
        const body = parsed.data;
        await ctx.services.landing.requestCooperation(body, request.ip);
        return reply.redirect(`${LANDING_PATHS[body.lang]}cooperate/thanks/`, 303);
      },
    );
    done();
  });

  app.get<{ Params: { '*': string } }>(
    '/home/*',
    { schema: { hide: true }, onRequest: pages },
    async (request, reply) => {
      const rest = request.params['*'];
      const page = rest === '' || rest.endsWith('/') ? rest : `${rest}/`;
      if (!built || !PAGE_PATH.test(page)) return handleNotFound(request, reply);
      // Without the trailing slash, relative links would resolve one level up.
      if (page !== rest) return reply.redirect(`/home/${page}`, 301);
      let html: string;
      try {
        html = await readFile(join(root, page, 'index.html'), 'utf8');
      } catch {
        return handleNotFound(request, reply);
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(html.replaceAll(LANDING_ORIGIN_PLACEHOLDER, originOf(request)));
    },
  );
}
