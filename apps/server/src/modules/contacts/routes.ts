import type { contactEndpoints, SendFriendRequestBody } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers, Servings } from '../../http/endpoints.js';
import { byUser } from '../../http/rate-limit.js';

/** Finding people, friend applications, friends, blocks, official accounts. */
export function contactHandlers({
  services: { contacts },
}: AppContext): Handlers<typeof contactEndpoints> {
  return {
    searchUsers: async ({ auth, query }) => ({ user: await contacts.search(auth, query.q) }),
    profile: ({ auth, params }) => contacts.profile(auth, params.id),
    friendRequests: ({ auth }) => contacts.requests(auth),
    sendFriendRequest: ({ auth, body }) => contacts.sendRequest(auth, body),
    acceptFriendRequest: ({ auth, params }) => contacts.acceptRequest(auth, params.id),
    rejectFriendRequest: ({ auth, params }) => contacts.rejectRequest(auth, params.id),
    friends: ({ auth }) => contacts.friends(auth),
    updateFriend: ({ auth, params, body }) => contacts.updateFriend(auth, params.id, body.remark),
    deleteFriend: ({ auth, params }) => contacts.deleteFriend(auth, params.id),
    blocks: ({ auth }) => contacts.blocks(auth),
    block: ({ auth, params }) => contacts.block(auth, params.id),
    unblock: ({ auth, params }) => contacts.unblock(auth, params.id),
    officialAccounts: () => contacts.officialAccounts(),
  };
}

export const contactServing: Servings<typeof contactEndpoints> = {
  sendFriendRequest: {
    keys: {
      friendRequestPerPair: (request) =>
        `${byUser(request)}:${(request.body as SendFriendRequestBody).userId}`,
    },
  },
};
