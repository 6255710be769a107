import {
  burnBody,
  conversationParams,
  conversationSchema,
  editMessageBody,
  conversationSyncQuery,
  conversationSyncResult,
  messagePageQuery,
  messagePageResult,
  messageSchema,
  readBody,
  searchMessagesQuery,
  searchMessagesResult,
  sendMessageBody,
  seqParams,
  updateConversationBody,
} from '@teltlk/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { handleError, toAppError } from '../../http/errors.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';
import { blankAware } from './service.js';

const tags = ['messages'];
const security = [{ bearer: [] }];

/** Conversations and messages (behind `requireSession`); the socket's `send` is the fast path. */
export function messageRoutes(app: App, { services: { messages }, limits }: AppContext): void {
  const sync = limitBy(limits, ['syncPerUser', byUser]);
  // Sends and read marks are counted again in the messages module, socket or not.
  const rest = limitBy(limits, ['messageRestPerUser', byUser]);
  const chatChanges = limitBy(limits, ['conversationChangePerUser', byUser]);
  const messageChanges = limitBy(limits, ['messageChangePerUser', byUser]);
  app.get(
    '/sync/conversations',
    {
      schema: {
        tags: ['sync'],
        summary: 'Your conversations changed since a time',
        security,
        querystring: conversationSyncQuery,
        response: { 200: conversationSyncResult },
      },
      onRequest: sync,
    },
    (request) => messages.sync(authOf(request).userId, request.query),
  );
  app.get(
    '/conversations/:id/messages',
    {
      schema: {
        tags,
        summary: 'A page of messages: after a seq, before a seq, or the newest',
        security,
        params: conversationParams,
        querystring: messagePageQuery,
        response: { 200: messagePageResult },
      },
      onRequest: limitBy(limits, ['messagePagePerUser', byUser]),
    },
    (request) => messages.page(authOf(request).userId, request.params.id, request.query),
  );
  app.post(
    '/messages',
    {
      schema: {
        tags,
        summary: 'Send a message (idempotent by clientMsgId)',
        security,
        body: sendMessageBody,
        response: { 200: messageSchema },
      },
      errorHandler: (error, request, reply) => void sendErrorHandler(error, request, reply),
      onRequest: rest,
    },
    (request) => messages.send(authOf(request).userId, request.body),
  );
  app.patch(
    '/conversations/:id',
    {
      schema: {
        tags,
        summary: 'Pin, mute, delete from the chat list, or choose how it is translated',
        security,
        params: conversationParams,
        body: updateConversationBody,
        response: { 200: conversationSchema },
      },
      onRequest: chatChanges,
    },
    (request) => messages.update(authOf(request).userId, request.params.id, request.body),
  );
  app.post(
    '/conversations/:id/clear',
    {
      schema: {
        tags,
        summary: 'Clear the history for yourself',
        security,
        params: conversationParams,
        response: { 200: conversationSchema },
      },
      onRequest: chatChanges,
    },
    (request) => messages.clear(authOf(request).userId, request.params.id),
  );
  app.put(
    '/conversations/:id/burn',
    {
      schema: {
        tags,
        summary: 'Set burn after reading of a private chat (0: off)',
        security,
        params: conversationParams,
        body: burnBody,
        response: { 200: messageSchema },
      },
      onRequest: chatChanges,
    },
    (request) => messages.setBurn(authOf(request).userId, request.params.id, request.body.seconds),
  );
  app.post(
    '/conversations/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark as read up to a seq',
        security,
        params: conversationParams,
        body: readBody,
        response: { 204: z.null() },
      },
      onRequest: rest,
    },
    async (request, reply) => {
      await messages.read(authOf(request).userId, request.params.id, request.body.seq);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/conversations/:id/messages/:seq/revoke',
    {
      schema: {
        tags,
        summary: `Revoke your own message (within the revoke window)`,
        security,
        params: seqParams,
        response: { 200: messageSchema },
      },
      onRequest: messageChanges,
    },
    (request) => messages.revoke(authOf(request).userId, request.params.id, request.params.seq),
  );
  app.get(
    '/messages/search',
    {
      schema: {
        tags,
        summary: 'Search the messages you can see, in one conversation or in all',
        security,
        querystring: searchMessagesQuery,
        response: { 200: searchMessagesResult },
      },
      onRequest: limitBy(limits, ['messageSearchPerUser', byUser]),
    },
    (request) => messages.search(authOf(request).userId, request.query),
  );
  app.post(
    '/conversations/:id/messages/:seq/edit',
    {
      schema: {
        tags,
        summary: 'Edit your own text (within the edit window)',
        security,
        params: seqParams,
        body: editMessageBody,
        response: { 200: messageSchema },
      },
      errorHandler: (error, request, reply) => void sendErrorHandler(error, request, reply),
      onRequest: limitBy(limits, ['editPerUser', byUser]),
    },
    (request) =>
      messages.edit(
        authOf(request).userId,
        request.params.id,
        request.params.seq,
        request.body.text,
      ),
  );
  app.post(
    '/conversations/:id/messages/:seq/hide',
    {
      schema: {
        tags,
        summary: 'Delete a message for yourself',
        security,
        params: seqParams,
        response: { 204: z.null() },
      },
      onRequest: messageChanges,
    },
    async (request, reply) => {
      await messages.hide(authOf(request).userId, request.params.id, request.params.seq);
      return reply.code(204).send(null);
    },
  );
}

/** Blank text is answered as BLANK_MESSAGE; everything else as the app's error handler would. */
function sendErrorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const known = toAppError(error);
  return handleError(known ? blankAware(known) : error, request, reply);
}
