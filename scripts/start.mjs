// `npm start`: builds when its inputs changed, then runs the server. On one's own machine
// (NODE_ENV is not production) it turns the dev outbox on unless DEV_OUTBOX says otherwise,
// so a first try of the app can register with codes read at /dev/outbox; the server itself
// keeps the outbox off unless asked.
await import('./build-if-changed.mjs');
if (process.env.NODE_ENV !== 'production' && !process.env.DEV_OUTBOX) {
  process.env.DEV_OUTBOX = 'true';
}
await import('../apps/server/dist/main.js');
