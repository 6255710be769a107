import type { translationEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** Translations of messages and of one's own draft. */
export function translationHandlers({
  services: { translations },
}: AppContext): Handlers<typeof translationEndpoints> {
  return {
    info: () => translations.info(),
    translate: ({ auth, body }) => translations.translate(auth.userId, body),
    preview: ({ auth, body }) => translations.preview(auth.userId, body),
  };
}
