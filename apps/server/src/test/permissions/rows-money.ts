import { groupConversationId } from '@teltlk/protocol';
import { expect } from 'vitest';
import { clientMsgId } from '../cast.js';
import {
  bindOwnersPi,
  moneyReady,
  newPiAccount,
  nftOf,
  ownersEnvelope,
  ownersPaymentPassword,
  phoneTicket,
  piSandbox,
} from './arrange.js';
import {
  GROUP_MEMBERS,
  NO_CHAT,
  NO_PASSWORD_OF_THEIR_OWN,
  OK,
  OWNER_ONLY_THING,
  type Row,
  SIGNED_IN,
} from './cells.js';

/** The wallet, Pi identity, money in chats and NFT assets. */
export const MONEY_ROWS: Row[] = [
  // ------------------------------------------------------------------ wallet
  { route: 'GET /api/v1/wallet', cells: SIGNED_IN, run: (w, as) => w.call(as, 'GET', '/wallet') },
  { route: 'POST /api/v1/wallet', cells: SIGNED_IN, run: (w, as) => w.call(as, 'POST', '/wallet') },
  {
    route: 'PUT /api/v1/wallet/password',
    on: "a new wallet of the caller's own",
    // Each caller's own wallet; a first password once, so each run starts a fresh person.
    cells: SIGNED_IN,
    run: async (w, as) => {
      const caller = as === 'anonymous' ? as : await w.newUser();
      if (caller !== 'anonymous') await w.call(caller, 'POST', '/wallet');
      return w.call(caller, 'PUT', '/wallet/password', { password: '123456' });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/change',
    on: "the owner's payment password",
    // Everyone else has a wallet of their own but no password in it: the owner's is no key.
    cells: NO_PASSWORD_OF_THEIR_OWN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      return w.call(as, 'POST', '/wallet/password/change', {
        currentPassword: '123456',
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/verify',
    on: "the owner's payment password",
    cells: NO_PASSWORD_OF_THEIR_OWN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      return w.call(as, 'POST', '/wallet/password/verify', { password: '123456' });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/code',
    on: "the caller's own wallet and address",
    // Everyone else has a wallet of their own: the code goes to their own address.
    cells: SIGNED_IN,
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      if (as !== 'anonymous') w.t.clock.advance(61_000);
      const channel = as === 'anonymous' ? 'email' : w.users[as].channel;
      return w.call(as, 'POST', '/wallet/password/code', { channel });
    },
  },
  {
    route: 'POST /api/v1/wallet/password/reset',
    on: "a code sent for the owner's wallet",
    // The code is for the owner's address: anyone else's own address has only the code
    // sent to it by the row before, long expired.
    cells: {
      owner: OK,
      admin: 'CODE_EXPIRED',
      member: 'CODE_EXPIRED',
      blocked: 'CODE_EXPIRED',
      removed: 'CODE_EXPIRED',
      stranger: 'CODE_EXPIRED',
    },
    run: async (w, as) => {
      await ownersPaymentPassword(w, as);
      w.t.clock.advance(6 * 60_000);
      const { channel, destination } = w.users.owner;
      const sent = await w.call('owner', 'POST', '/wallet/password/code', { channel });
      expect(sent.statusCode, sent.body).toBe(200);
      const code = w.t.codeFor(destination, 'wallet');
      const callerChannel = as === 'anonymous' ? channel : w.users[as].channel;
      return w.call(as, 'POST', '/wallet/password/reset', {
        channel: callerChannel,
        code,
        password: '123456',
      });
    },
  },
  // ------------------------------------------------------------------ Pi identity
  {
    route: 'POST /api/v1/me/pi',
    on: 'a Pi account nobody has bound',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'POST', '/me/pi', { accessToken: newPiAccount().accessToken }),
    restore: async (w, as) => {
      expect((await w.call(as, 'DELETE', '/me/pi')).statusCode).toBe(200);
    },
  },
  {
    route: 'DELETE /api/v1/me/pi',
    on: "the owner's Pi binding",
    // Everyone else has no binding of their own to remove.
    cells: OWNER_ONLY_THING,
    run: async (w, as) => {
      await bindOwnersPi(w);
      return w.call(as, 'DELETE', '/me/pi');
    },
  },
  {
    route: 'POST /api/v1/me/phone',
    on: 'a phone number just verified',
    cells: SIGNED_IN,
    run: async (w, as) => w.call(as, 'POST', '/me/phone', { ticket: await phoneTicket(w) }),
  },
  {
    route: 'POST /api/v1/pi/payments/incomplete',
    on: "an unfinished payment of the owner's Pi account",
    // Only a Pi account's own payments are taken, and only from someone bound to Pi.
    cells: {
      owner: OK,
      admin: 'PI_ONLY',
      member: 'PI_ONLY',
      blocked: 'PI_ONLY',
      removed: 'PI_ONLY',
      stranger: 'PI_ONLY',
    },
    run: async (w, as) => {
      const pi = await bindOwnersPi(w);
      const created = piSandbox.emulator.handle(
        'POST',
        '/v2/payments/user_to_app',
        `Bearer ${pi.accessToken}`,
        { payment: { amount: 1, memo: 'Recharge', metadata: {} } },
      ).body as { identifier: string };
      return w.call(as, 'POST', '/pi/payments/incomplete', { paymentId: created.identifier });
    },
  },
  // ------------------------------------------------------------------ money in chats
  {
    route: 'POST /api/v1/wallet/transfers',
    on: "the owner's chat with the member",
    // Only the two people of a chat transfer in it; to anyone else it does not exist.
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: OK,
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', '/wallet/transfers', {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        amount: '0.01',
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/envelopes',
    on: "the owner's group",
    // A group nobody outside it may write to: to them the chat does not exist.
    cells: { ...GROUP_MEMBERS, removed: NO_CHAT, stranger: NO_CHAT },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', '/wallet/envelopes', {
        conversationId: groupConversationId(w.group.id),
        clientMsgId: clientMsgId(),
        total: '0.01',
        count: 1,
        split: 'equal',
        password: '123456',
      });
    },
  },
  {
    route: 'GET /api/v1/wallet/envelopes/:id',
    on: "a red envelope in the owner's group",
    cells: { ...GROUP_MEMBERS, removed: 'NOT_FOUND', stranger: 'NOT_FOUND' },
    run: async (w, as) => w.call(as, 'GET', `/wallet/envelopes/${await ownersEnvelope(w)}`),
  },
  {
    route: 'POST /api/v1/wallet/envelopes/:id/open',
    on: "a red envelope of one share in the owner's group",
    cells: { ...GROUP_MEMBERS, removed: 'NOT_FOUND', stranger: 'NOT_FOUND' },
    run: async (w, as) => w.call(as, 'POST', `/wallet/envelopes/${await ownersEnvelope(w)}/open`),
  },
  // ------------------------------------------------------------------ NFT assets
  {
    route: 'GET /api/v1/wallet/nfts',
    on: "the caller's own items",
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/wallet/nfts'),
  },
  {
    route: 'GET /api/v1/wallet/nfts/:id',
    on: 'an item the owner holds',
    cells: {
      owner: OK,
      admin: 'NFT_NOT_FOUND',
      member: 'NFT_NOT_FOUND',
      blocked: 'NFT_NOT_FOUND',
      removed: 'NFT_NOT_FOUND',
      stranger: 'NFT_NOT_FOUND',
    },
    run: async (w, as) => w.call(as, 'GET', `/wallet/nfts/${await nftOf(w, 'owner')}`),
  },
  {
    route: 'POST /api/v1/wallet/nfts/:id/send',
    on: "an item the caller holds, into the owner's chat with the member",
    // Only the two people of a chat give in it; to anyone else it does not exist.
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: OK,
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', `/wallet/nfts/${await nftOf(w, as)}/send`, {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        password: '123456',
      });
    },
  },
  {
    route: 'POST /api/v1/wallet/nfts/:id/send',
    on: "an item the owner holds, by someone else into the owner's chat with the member",
    cells: {
      owner: OK,
      admin: NO_CHAT,
      member: 'NFT_NOT_FOUND',
      blocked: NO_CHAT,
      removed: NO_CHAT,
      stranger: NO_CHAT,
    },
    run: async (w, as) => {
      await moneyReady(w, as);
      return w.call(as, 'POST', `/wallet/nfts/${await nftOf(w, 'owner')}/send`, {
        conversationId: w.single,
        clientMsgId: clientMsgId(),
        password: '123456',
      });
    },
  },
];
