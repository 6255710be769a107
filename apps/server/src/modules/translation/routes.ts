import {
  previewTranslationBody,
  previewTranslationResult,
  translateBody,
  translateResult,
  translationInfoResult,
} from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { authOf } from '../../http/auth.js';
import { byUser, limitBy } from '../../http/rate-limit.js';
import type { App } from '../../http/types.js';

const tags = ['translation'];
const security = [{ bearer: [] }];

/** Translations of messages and of one's own draft (behind `requireSession`). */
export function translationRoutes(
  app: App,
  { services: { translations }, limits }: AppContext,
): void {
  const perUser = limitBy(limits, ['translatePerUser', byUser]);
  app.get(
    '/translations/info',
    {
      schema: {
        tags,
        summary: 'Whether the server translates, and its limits',
        security,
        response: { 200: translationInfoResult },
      },
      onRequest: limitBy(limits, ['accountReadPerUser', byUser]),
    },
    () => translations.info(),
  );
  app.post(
    '/translations',
    {
      schema: {
        tags,
        summary:
          'Translations of messages into your language (or `lang`): stored ones, or pending with a translation frame to follow',
        security,
        body: translateBody,
        response: { 200: translateResult },
      },
      onRequest: perUser,
    },
    (request) => translations.translate(authOf(request).userId, request.body),
  );
  app.post(
    '/translations/preview',
    {
      schema: {
        tags,
        summary: 'Your own text translated before you send it (not stored)',
        security,
        body: previewTranslationBody,
        response: { 200: previewTranslationResult },
      },
      onRequest: perUser,
    },
    (request) => translations.preview(authOf(request).userId, request.body),
  );
}
