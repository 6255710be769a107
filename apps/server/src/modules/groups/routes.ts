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
    create: ({ auth, body }) => groups.create(auth.userId, body),
    list: ({ auth }) => groups.list(auth.userId),
    search: ({ auth, query }) => groups.search(auth.userId, query.no),
    get: ({ auth, params }) => groups.get(auth.userId, params.id),
    update: ({ auth, params, body }) => groups.update(auth.userId, params.id, body),
    dismiss: ({ auth, params }) => groups.dismiss(auth.userId, params.id),
    updateMine: ({ auth, params, body }) => groups.updateMine(auth.userId, params.id, body),
    members: ({ auth, params, query }) => groups.members(auth.userId, params.id, query),
    invite: async ({ auth, params, body }) => ({
      added: await groups.invite(auth.userId, params.id, body.userIds),
    }),
    remove: ({ auth, params }) => groups.remove(auth.userId, params.id, params.userId),
    requestFriend: ({ auth, params, body }) =>
      groups.requestFriend(auth, params.id, params.userId, body.greeting),
    setRole: ({ auth, params, body }) =>
      groups.setRole(auth.userId, params.id, params.userId, body.role),
    mute: ({ auth, params, body }) =>
      groups.mute(auth.userId, params.id, params.userId, body.seconds),
    transfer: ({ auth, params, body }) => groups.transfer(auth.userId, params.id, body.userId),
    quit: ({ auth, params }) => groups.quit(auth.userId, params.id),
    join: ({ auth, params, body }) => groups.join(auth.userId, params.id, body.message),
    reads: ({ auth, params }) => groups.reads(auth.userId, params.id, params.seq),
    applications: ({ auth }) => groups.applications(auth.userId),
    acceptApplication: ({ auth, params }) => groups.review(auth.userId, params.id, true),
    rejectApplication: ({ auth, params }) => groups.review(auth.userId, params.id, false),
    setAvatar: async ({ auth, params, request }) =>
      groups.setAvatar(auth.userId, params.id, await uploadedFile(request)),
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
