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
import type { App } from '../../http/types.js';
import { blankAware } from './service.js';

const tags = ['messages'];
const security = [{ bearer: [] }];

/** Conversations and messages (behind `requireSession`); the socket's `send` is the fast path. */
export function messageRoutes(app: App, { services: { messages } }: AppContext): void {
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
