import type { groupEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { byUser } from '../../http/rate-limit.js';
import { AVATAR_UPLOAD, uploadedFile } from '../../http/upload.js';

/** Groups, their members and applications. */
export function groupHandlers({
  services: { groups },
}: AppContext): Handlers<typeof groupEndpoints> {
  return {
    create: ({ auth, body }) => groups.settings.create(auth.userId, body),
    list: ({ auth }) => groups.settings.list(auth.userId),
    search: ({ auth, query }) => groups.settings.search(auth.userId, query.no),
    get: ({ auth, params }) => groups.settings.get(auth.userId, params.id),
    update: ({ auth, params, body }) => groups.settings.update(auth.userId, params.id, body),
    dismiss: ({ auth, params }) => groups.settings.dismiss(auth.userId, params.id),
    updateMine: ({ auth, params, body }) =>
      groups.settings.updateMine(auth.userId, params.id, body),
    members: ({ auth, params, query }) => groups.roster.members(auth.userId, params.id, query),
    invite: async ({ auth, params, body }) => ({
      added: await groups.roster.invite(auth.userId, params.id, body.userIds),
    }),
    remove: ({ auth, params }) => groups.roster.remove(auth.userId, params.id, params.userId),
    requestFriend: ({ auth, params, body }) =>
      groups.roster.requestFriend(auth, params.id, params.userId, body.greeting),
    setRole: ({ auth, params, body }) =>
      groups.roster.setRole(auth.userId, params.id, params.userId, body.role),
    mute: ({ auth, params, body }) =>
      groups.roster.mute(auth.userId, params.id, params.userId, body.seconds),
    transfer: ({ auth, params, body }) =>
      groups.roster.transfer(auth.userId, params.id, body.userId),
    quit: ({ auth, params }) => groups.roster.quit(auth.userId, params.id),
    join: ({ auth, params, body }) =>
      groups.applications.join(auth.userId, params.id, body.message),
    reads: ({ auth, params }) => groups.roster.reads(auth.userId, params.id, params.seq),
    applications: ({ auth }) => groups.applications.list(auth.userId),
    acceptApplication: ({ auth, params }) =>
      groups.applications.review(auth.userId, params.id, true),
    rejectApplication: ({ auth, params }) =>
      groups.applications.review(auth.userId, params.id, false),
    setAvatar: async ({ auth, params, request }) =>
      groups.settings.setAvatar(auth.userId, params.id, await uploadedFile(request)),
  };
}

export const groupServing: Servings<typeof groupEndpoints> = {
  requestFriend: {
    keys: {
      friendRequestPerPair: (request) =>
        `${byUser(request)}:${(request.params as { userId: string }).userId}`,
    },
  },
  join: {
    keys: {
      groupApplicationPerPair: (request) =>
        `${byUser(request)}:${(request.params as { id: string }).id}`,
    },
  },
  setAvatar: { multipart: AVATAR_UPLOAD },
};
