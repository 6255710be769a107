import { constants as osConstants } from 'node:os';
import { ERRORS } from '@teltlk/protocol';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

/**
 * Keys whose values never reach the log, wherever they are in a log object: secrets people
 * type or hold (passwords, payment passwords, codes, session and undo tokens, tickets, a
 * device login's secret and matching number, Pi access tokens, a push subscription's auth
 * secret), the stored hashes of them (a code's hash gives the code back in a million
 * tries), and the server's own keys. `code` is one of them, so error codes are logged as
 * `errorCode` (errorLogFields).
 */
export const SECRET_KEYS = [
  'password',
  'passwords',
  'currentPassword',
  'newPassword',
  'paymentPassword',
  'code',
  'codes',
  'token',
  'tokens',
  'accessToken',
  'refreshToken',
  'undoToken',
  'ticket',
  'tickets',
  'secret',
  'secrets',
  'match',
  'auth',
  'authorization',
  'cookie',
  'password_hash',
  'token_hash',
  'code_hash',
  'ticket_hash',
  'secret_hash',
  'apiKey',
  'walletSecret',
  'secretAccessKey',
  'urlSecret',
  'privateKey',
];
/**
 * How deep a secret may sit: `body.password`, `req.body.password`, `err.body.password`,
 * `err.cause.body.password`. Redaction paths take no recursive wildcard, so each depth is
 * its own path.
 */
const SECRET_DEPTH = 3;
export const LOG_REDACT_PATHS = SECRET_KEYS.flatMap((key) =>
  Array.from({ length: SECRET_DEPTH + 1 }, (_, depth) =>
    [...Array<string>(depth).fill('*'), key].join('.'),
  ),
);

/** System error names (ECONNREFUSED, …): what a Node error's `code` is. */
const ERRNO_NAMES: ReadonlySet<string> = new Set(Object.keys(osConstants.errno));

/**
 * Whether an error's `code` names a kind of error: the app's own, a system error, Node's or
 * Fastify's (ERR_…, FST_…), or a database's five-character SQLSTATE. A verification code
 * (six digits) or a device login's code (eight characters) is none of them.
 */
function isErrorCode(code: unknown): code is string {
  return (
    typeof code === 'string' &&
    (code in ERRORS ||
      ERRNO_NAMES.has(code) ||
      /^(ERR|FST)_[A-Z0-9_]+$/.test(code) ||
      /^[0-9A-Z]{5}$/.test(code))
  );
}

/**
 * An error as it is logged: pino's fields, with the error's own code as `errorCode` when it
 * names a kind of error (isErrorCode), since any `code` is redacted.
 */
export function errorLogFields(error: unknown): unknown {
  const fields = pino.stdSerializers.err(error as Error) as unknown;
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  if (isErrorCode(code) && typeof fields === 'object' && fields !== null) {
    return { ...fields, errorCode: code };
  }
  return fields;
}

/** Paths whose last part is a secret (an address-undo link's token). */
const SECRET_PATH = /(\/security\/address-undo\/)[^/?]+/;

/**
 * A request as it is logged. The query string is left out: searches carry phone numbers
 * and email addresses there (`/users/search?q=…`), which are nobody's business in a log;
 * so is a secret in the path (an address-undo link's token).
 */
export function requestLogFields(request: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}): Record<string, unknown> {
  const query = request.url.indexOf('?');
  const path = (query === -1 ? request.url : request.url.slice(0, query)).replace(
    SECRET_PATH,
    '$1[redacted]',
  );
  return {
    method: request.method,
    url: query === -1 ? path : `${path}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The server's logger. Verification codes are never handed to it in the first place; the
 * redaction and the request serializer catch what a log call might pass by accident.
 * It writes to stdout synchronously: at the default level it logs little (requests are
 * debug lines), and its lines then keep their order with what start-up prints, so the
 * address to open stays the last line.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestLogFields, err: errorLogFields },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
