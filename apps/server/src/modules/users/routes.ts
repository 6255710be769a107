import type { userEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { AVATAR_UPLOAD, uploadedFile } from '../../http/upload.js';

/** The caller's own account. */
export function userHandlers({ services: { users } }: AppContext): Handlers<typeof userEndpoints> {
  return {
    me: ({ auth }) => users.me(auth),
    updateProfile: ({ auth, body }) => users.updateProfile(auth, body),
    changeTeltlkId: ({ auth, body }) => users.changeTeltlkId(auth, body.teltlkId),
    changePassword: ({ auth, body, client }) => users.changePassword(auth, body, client),
    settings: ({ auth }) => users.settings(auth),
    updateSettings: ({ auth, body }) => users.updateSettings(auth, body),
    setAvatar: async ({ auth, request }) => users.setAvatar(auth, await uploadedFile(request)),
  };
}

export const userServing: Servings<typeof userEndpoints> = {
  setAvatar: { multipart: AVATAR_UPLOAD },
};
