import { isIP } from 'node:net';
import type { devEndpoints, OutboxMessage } from '@teltlk/protocol';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { byAddress, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { DevOutbox } from '../notify/outbox.js';

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice('::ffff:'.length) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Addresses a request says it was forwarded for (X-Forwarded-For, X-Real-IP, Forwarded),
 * read whether or not the proxy is trusted: here they can only refuse, never admit.
 */
function forwardedFor(request: FastifyRequest): string[] {
  const values = (name: string) => {
    const value = request.headers[name];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
  const addresses = [...values('x-forwarded-for'), ...values('x-real-ip')].flatMap((value) =>
    value.split(','),
  );
  for (const value of values('forwarded')) {
    for (const match of value.matchAll(/for=("[^"]*"|[^;,\s]*)/gi)) {
      addresses.push((match[1] ?? '').replace(/"/g, ''));
    }
  }
  // "[::1]:8080" and "127.0.0.1:8080" name a port too.
  return addresses.map((address) =>
    address
      .trim()
      .replace(/^\[([^\]]*)\](:\d+)?$/, '$1')
      .replace(/^([\d.]+):\d+$/, '$1'),
  );
}

/**
 * A person on this machine: the TCP peer is loopback, so is the client address Fastify
 * derives (behind a trusted proxy, the forwarded one), and so is every address the request
 * says it was forwarded for, since a reverse proxy on this machine connects over loopback
 * on behalf of strangers.
 */
function fromThisMachine(request: FastifyRequest): boolean {
  return (
    isLoopback(request.socket.remoteAddress) &&
    isLoopback(request.ip) &&
    forwardedFor(request).every(isLoopback)
  );
}

/** Anyone else is told there is nothing here, as for any unknown path. */
function onlyThisMachine(request: FastifyRequest): Promise<void> {
  return fromThisMachine(request) ? Promise.resolve() : Promise.reject(new AppError('NOT_FOUND'));
}

/** The outbox as JSON under /api/v1 (only served outside production). */
export function devHandlers(outbox: DevOutbox): Handlers<typeof devEndpoints> {
  return {
    outbox: () => ({ messages: outbox.list() }),
  };
}

export const devServing: Servings<typeof devEndpoints> = {
  outbox: { guard: onlyThisMachine },
};

const STYLE =
  'body{font:15px system-ui,sans-serif;margin:2rem;color:#222}table{border-collapse:collapse}td,th{padding:.4rem .8rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}code{font-size:1.4em;letter-spacing:.1em}pre{white-space:pre-wrap;margin:.3rem 0}';

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Links in a notice's text, made clickable; everything else escaped. */
function linked(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

function row(message: OutboxMessage): string {
  const cells = [
    new Date(message.createdAt).toISOString(),
    message.channel,
    message.destination,
    message.kind === 'code' ? message.purpose : 'notice',
  ].map((cell) => `<td>${escapeHtml(cell)}</td>`);
  const content =
    message.kind === 'code'
      ? `<code>${escapeHtml(message.code)}</code>`
      : `<strong>${escapeHtml(message.subject)}</strong><pre>${linked(message.text)}</pre>`;
  return `<tr>${cells.join('')}<td>${content}</td></tr>`;
}

/** A page a person trying the app locally keeps open to read their codes; refreshes itself. */
export function devPageRoutes(app: App, outbox: DevOutbox, limits: RateLimiter): void {
  app.get(
    '/dev/outbox',
    {
      schema: { hide: true },
      onRequest: [onlyThisMachine, limitBy(limits, ['devOutboxPerAddress', byAddress])],
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
        ? `<table><thead><tr><th>Time (UTC)</th><th>Channel</th><th>To</th><th>Purpose</th><th>Code or notice</th></tr></thead><tbody>${messages.map(row).join('')}</tbody></table>`
        : '<p>Nothing yet. Ask for a code in the app; it shows up here.</p>';
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">` +
            `<meta name="viewport" content="width=device-width,initial-scale=1"><title>Teltlk dev outbox</title>` +
            `<style>${STYLE}</style></head><body><h1>Dev outbox</h1>` +
            `<p>Verification codes and notices of the channels (email, SMS) that have no provider configured on this server. ` +
            `This page answers only requests made on this machine, and does not exist in production.</p>` +
            `${body}</body></html>`,
        );
    },
  );
}
