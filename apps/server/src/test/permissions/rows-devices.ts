import { type Row, SIGNED_IN } from './cells.js';

/** Device login and web push. */
export const DEVICE_ROWS: Row[] = [
  // ------------------------------------------------------------------ device login
  // A ticket's id is its capability (it is on the asking browser's screen): anyone signed
  // in who has it may look at and decide on it; the session goes to the browser alone.
  {
    route: 'GET /api/v1/device-logins/:id',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'GET', `/device-logins/${ticket.id}`);
    },
  },
  {
    route: 'POST /api/v1/device-logins/lookup',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'POST', '/device-logins/lookup', { code: ticket.code });
    },
  },
  {
    route: 'POST /api/v1/device-logins/:id/decision',
    cells: SIGNED_IN,
    run: async (w, as) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(as, 'POST', `/device-logins/${ticket.id}/decision`, { approve: false });
    },
  },
  // ------------------------------------------------------------------ web push
  // Each acts on the caller's own device (session) alone.
  {
    route: 'GET /api/v1/push/key',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/push/key'),
  },
  {
    route: 'PUT /api/v1/push/subscription',
    on: "the caller's own device",
    cells: SIGNED_IN,
    run: (w, as) =>
      w.call(as, 'PUT', '/push/subscription', {
        endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${as}`,
        keys: {
          p256dh:
            'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
          auth: 'tBHItJI5svbpez7KI4CCXg',
        },
      }),
  },
  {
    route: 'DELETE /api/v1/push/subscription',
    on: "the caller's own device",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'DELETE', '/push/subscription'),
  },
  {
    route: 'POST /api/v1/push/test',
    on: 'a device with no subscription',
    cells: {
      owner: 'PUSH_NOT_SUBSCRIBED',
      admin: 'PUSH_NOT_SUBSCRIBED',
      member: 'PUSH_NOT_SUBSCRIBED',
      blocked: 'PUSH_NOT_SUBSCRIBED',
      removed: 'PUSH_NOT_SUBSCRIBED',
      stranger: 'PUSH_NOT_SUBSCRIBED',
    },
    run: (w, as) => w.call(as, 'POST', '/push/test'),
  },
];
