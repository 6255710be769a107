import type { userEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { AVATAR_UPLOAD, uploadedFile } from '../../http/upload.js';

/** The caller's own account. */
export function userHandlers({ services: { users } }: AppContext): Handlers<typeof userEndpoints> {
  return {
    me: ({ auth }) => users.profile.me(auth),
    updateProfile: ({ auth, body }) => users.profile.updateProfile(auth, body),
    changeTeltlkId: ({ auth, body }) => users.profile.changeTeltlkId(auth, body.teltlkId),
    changePassword: ({ auth, body, client }) => users.profile.changePassword(auth, body, client),
    settings: ({ auth }) => users.profile.settings(auth),
    updateSettings: ({ auth, body }) => users.profile.updateSettings(auth, body),
    setAvatar: async ({ auth, request }) =>
      users.profile.setAvatar(auth, await uploadedFile(request)),
  };
}

export const userServing: Servings<typeof userEndpoints> = {
  setAvatar: { multipart: AVATAR_UPLOAD },
};
