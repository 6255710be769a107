import type { FastifyInstance } from 'fastify';
import { invalidField } from '../errors.js';

/**
 * The path of the first string (or key) holding U+0000 in a parsed request part, or null.
 * Walked with a stack of its own: bodies may nest deeper than the call stack goes.
 */
export function nulPath(value: unknown): string | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: item, path } = stack.pop()!;
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return path;
    } else if (item !== null && typeof item === 'object' && !ArrayBuffer.isView(item)) {
      // Bytes (an upload's chunk) are no text: they may hold any byte.
      for (const [key, inner] of Object.entries(item)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push({ value: inner, path: at });
      }
    }
  }
  return null;
}

/**
 * Refuses a NUL character anywhere in a request's parameters, query or JSON body. No
 * field means anything by one, and PostgreSQL text cannot hold it: the query would fail
 * (a 500) there while SQLite stored it.
 */
export function refuseNul(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = nulPath(part);
      if (path !== null) return done(invalidField(path, 'invalid'));
    }
    done();
  });
}
