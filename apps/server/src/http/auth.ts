import type { UiLanguage } from '@teltlk/protocol';
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import type { AuthInfo, ClientInfo, SessionService } from '../modules/auth/sessions.js';
import { pickLanguage } from '../modules/notify/messages.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's session on routes behind `requireSession`; null elsewhere. */
    auth: AuthInfo | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,128})$/;

/** Resolves the bearer token before the body is read, so anonymous calls stop early. */
export function requireSession(sessions: SessionService): onRequestAsyncHookHandler {
  return async (request) => {
    const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
    if (!token) throw new AppError('UNAUTHENTICATED');
    request.auth = await sessions.authenticate(token);
  };
}

export function authOf(request: FastifyRequest): AuthInfo {
  if (!request.auth) throw new AppError('UNAUTHENTICATED');
  return request.auth;
}

export function clientOf(request: FastifyRequest): ClientInfo {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

export function languageOf(request: FastifyRequest): UiLanguage {
  return pickLanguage(request.headers['accept-language']);
}
