import { outboxResult, type OutboxMessage } from '@teltlk/protocol';
import type { App } from '../../http/types.js';
import type { DevOutbox } from '../notify/outbox.js';

/** The outbox as JSON under /api/v1 (only registered outside production). */
export function devApiRoutes(app: App, outbox: DevOutbox): void {
  app.get(
    '/dev/outbox',
    {
      schema: {
        tags: ['dev'],
        summary: 'Codes that had no provider (development only)',
        response: { 200: outboxResult },
      },
    },
    () => ({ messages: outbox.list() }),
  );
}

const STYLE =
  'body{font:15px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{padding:.4rem .8rem;border-bottom:1px solid #ddd;text-align:left}code{font-size:1.4em;letter-spacing:.1em}';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function row(message: OutboxMessage): string {
  const cells = [
    new Date(message.createdAt).toISOString(),
    message.channel,
    message.destination,
    message.purpose,
  ].map((cell) => `<td>${escapeHtml(cell)}</td>`);
  return `<tr>${cells.join('')}<td><code>${escapeHtml(message.code)}</code></td></tr>`;
}

/** A page a person trying the app locally keeps open to read their codes; refreshes itself. */
export function devPageRoutes(app: App, outbox: DevOutbox): void {
  app.get(
    '/dev/outbox',
    {
      schema: { hide: true },
      // The page's one inline style block; everything in it is ours, everything else is escaped.
      helmet: {
        contentSecurityPolicy: {
          useDefaults: false,
          directives: { defaultSrc: ["'none'"], styleSrc: ["'unsafe-inline'"] },
        },
      },
    },
    (_request, reply) => {
      const messages = outbox.list();
      const body = messages.length
        ? `<table><thead><tr><th>Time (UTC)</th><th>Channel</th><th>To</th><th>Purpose</th><th>Code</th></tr></thead><tbody>${messages.map(row).join('')}</tbody></table>`
        : '<p>No codes yet. Ask for one in the app; it shows up here.</p>';
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">` +
            `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Teltlk dev outbox</title>` +
            `<style>${STYLE}</style></head><body><h1>Dev outbox</h1>` +
            `<p>Verification codes that had no email or SMS provider to go out through. Not available in production.</p>` +
            `${body}</body></html>`,
        );
    },
  );
}
