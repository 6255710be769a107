import { type ErrorCode, type Sensitivity, STEP_UP_WINDOW_SECONDS } from '@teltlk/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { RouteSensitivity } from '../../http/step-up.js';
import { DAY } from '../../lib/clock.js';
import { newId } from '../../lib/random.js';
import type { Cast } from '../cast.js';
import { PASSWORD, type RegisteredUser } from '../harness.js';
import {
  bindOwnersPi,
  newPiAccount,
  ownersPaymentPassword,
  ownersPiWallet,
  phoneTicket,
} from './arrange.js';
import { OK, type Want } from './cells.js';

/** How recently a session proved who it is. */
export type Proven = 'fresh' | 'stale' | 'held';

/**
 * Puts a session in a step-up state: `fresh`, proven now; `stale`, proven longer ago than
 * the step-up window; `held`, a new device (device login) that has not stepped up.
 */
export async function provenAs(w: Cast, user: RegisteredUser, state: Proven): Promise<void> {
  const { sessions, stepUp } = w.t.ctx.services;
  const auth = await sessions.authenticate(user.token);
  const now = w.t.clock.now();
  await w.t.ctx.db
    .updateTable('sessions')
    .set(
      state === 'held'
        ? { proven_at: null, proof: null, held_until: now + 60 * 60_000 }
        : { held_until: null, proven_at: now - (STEP_UP_WINDOW_SECONDS + 1) * 1000 },
    )
    .where('id', '=', auth.sessionId)
    .execute();
  if (state === 'fresh') await stepUp.proven(auth, 'password');
}

/**
 * The sensitive column: every route that does something that cannot be undone, as its
 * route declares it (`config.sensitive`), and what its call gets from a session that
 * proved who it is too long ago (`stale`) and from a new device on hold (`held`). A proof
 * carried by the request itself (a payment password, the current password, a code)
 * stands for a stale session, but only an account proof lifts a hold. A sensitive route
 * with no row here, or a row whose route is not declared so, fails the suite.
 */
export interface SensitiveRow {
  route: string;
  on: string;
  level: Sensitivity;
  proof: RouteSensitivity['proof'];
  /** Who acts: the owner (who has an email, a phone, Pi and a wallet), or someone new. */
  as?: (w: Cast) => Promise<RegisteredUser>;
  /** Makes what the call acts on, before each try. */
  arrange?(w: Cast, user: RegisteredUser): Promise<void>;
  run(w: Cast, user: RegisteredUser): Promise<LightMyRequestResponse>;
  stale: Want;
  held: Want;
}

export const STEP_UP = 'STEP_UP_REQUIRED' satisfies ErrorCode;
export const owner = (w: Cast) => Promise.resolve(w.users.owner);
const NEW_ENDPOINT = () => `https://fcm.googleapis.com/fcm/send/sensitive-${newId()}`;
const PUSH_KEYS = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

export const SENSITIVE: SensitiveRow[] = [
  {
    route: 'POST /api/v1/me/phone',
    on: "replacing the owner's phone (a first one needs nothing)",
    level: 'account',
    proof: 'conditional',
    run: async (w, user) => w.call(user, 'POST', '/me/phone', { ticket: await phoneTicket(w) }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/me/password',
    on: 'the current password in the request',
    level: 'account',
    proof: 'inline',
    run: (w, user) =>
      w.call(user, 'PUT', '/me/password', { currentPassword: PASSWORD, newPassword: PASSWORD }),
    stale: OK,
    held: OK,
  },
  {
    route: 'POST /api/v1/me/pi',
    on: 'binding a Pi account nobody has bound',
    level: 'account',
    proof: 'session',
    as: (w) => w.newUser(),
    run: (w, user) => w.call(user, 'POST', '/me/pi', { accessToken: newPiAccount().accessToken }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/me/pi',
    on: "the owner's Pi binding",
    level: 'account',
    proof: 'session',
    arrange: async (w) => {
      await bindOwnersPi(w);
    },
    run: (w, user) => w.call(user, 'DELETE', '/me/pi'),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/wallet/password',
    on: 'a first payment password',
    level: 'account',
    proof: 'session',
    as: async (w) => {
      const user = await w.newUser();
      await w.call(user, 'POST', '/wallet');
      return user;
    },
    run: (w, user) => w.call(user, 'PUT', '/wallet/password', { password: '123456' }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/wallet/password/change',
    on: 'the current payment password in the request',
    level: 'money',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPaymentPassword(w, 'owner');
    },
    run: (w, user) =>
      w.call(user, 'POST', '/wallet/password/change', {
        currentPassword: '123456',
        password: '123456',
      }),
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/wallet/password/reset',
    on: "a code to the owner's own address in the request",
    level: 'account',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPaymentPassword(w, 'owner');
      // A new day: the matrix has sent the owner's address its day's codes already.
      w.t.clock.advance(DAY + 61_000);
    },
    run: async (w, user) => {
      const sent = await w.call(user, 'POST', '/wallet/password/code', { channel: user.channel });
      expect(sent.statusCode, sent.body).toBe(200);
      return w.call(user, 'POST', '/wallet/password/reset', {
        channel: user.channel,
        code: w.t.codeFor(user.destination, 'wallet'),
        password: '123456',
      });
    },
    stale: OK,
    held: OK,
  },
  {
    route: 'POST /api/v1/wallet/withdraw',
    on: 'the payment password in the request',
    level: 'money',
    proof: 'inline',
    arrange: async (w) => {
      await ownersPiWallet(w);
      await fundOwner(w, 30_000_000);
    },
    run: (w, user) => w.call(user, 'POST', '/wallet/withdraw', { amount: '1', password: '123456' }),
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'PUT /api/v1/push/subscription',
    on: 'a new subscription (renewing the same one needs nothing)',
    level: 'account',
    proof: 'conditional',
    run: (w, user) =>
      w.call(user, 'PUT', '/push/subscription', { endpoint: NEW_ENDPOINT(), keys: PUSH_KEYS }),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/push/subscription',
    on: "the device's subscription (none to drop needs nothing)",
    level: 'account',
    proof: 'conditional',
    arrange: async (w, user) => {
      await provenAs(w, user, 'fresh');
      const on = await w.call(user, 'PUT', '/push/subscription', {
        endpoint: NEW_ENDPOINT(),
        keys: PUSH_KEYS,
      });
      expect(on.statusCode, on.body).toBe(204);
    },
    run: (w, user) => w.call(user, 'DELETE', '/push/subscription'),
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'DELETE /api/v1/sessions/:id',
    on: "another session of the owner's (this one's own is signing out)",
    level: 'account',
    proof: 'conditional',
    run: async (w, user) => {
      const other = await w.t.ctx.services.sessions.create(
        user.user.id,
        { ip: null, userAgent: null },
        'password',
      );
      return w.call(user, 'DELETE', `/sessions/${other.id}`);
    },
    stale: STEP_UP,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/device-logins/:id/decision',
    on: 'approving, with the number and the password in the request',
    level: 'account',
    proof: 'inline',
    run: async (w, user) => {
      const ticket = await w.t.ctx.services.deviceLogins.create({ ip: null, userAgent: null });
      return w.call(user, 'POST', `/device-logins/${ticket.id}/decision`, {
        approve: true,
        match: ticket.match,
        proof: { method: 'password', password: PASSWORD },
      });
    },
    stale: OK,
    held: STEP_UP,
  },
  {
    route: 'POST /api/v1/auth/pi/bind',
    on: 'signed out: the password in the request is the proof (held and stale do not apply)',
    level: 'account',
    proof: 'inline',
    run: async (w, user) => {
      const signedIn = await w.call('anonymous', 'POST', '/auth/pi', {
        accessToken: newPiAccount().accessToken,
      });
      const { ticket } = signedIn.json<{ ticket: string }>();
      return w.call('anonymous', 'POST', '/auth/pi/bind', {
        proof: 'password',
        ticket,
        account: user.destination,
        password: 'Wr0ngPassword',
      });
    },
    stale: 'PASSWORD_INCORRECT',
    held: 'PASSWORD_INCORRECT',
  },
];

/** Pi in the owner's available balance, as a recharge would bring it. */
async function fundOwner(w: Cast, units: number): Promise<void> {
  await w.t.ctx.db.transaction().execute((trx) =>
    w.t.ctx.services.ledger.post(trx, {
      key: `matrix-fund:${newId()}`,
      kind: 'recharge',
      entries: [
        { account: { app: 'outside', currency: 'PI' }, amount: -units },
        {
          account: { user: w.users.owner.user.id, purpose: 'available', currency: 'PI' },
          amount: units,
        },
      ],
    }),
  );
}
