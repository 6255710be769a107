import type { MediaUrlsResult } from '@teltlk/protocol';
import { expect } from 'vitest';
import { groupMedia } from './arrange.js';
import { GROUP_MEDIA, OK, OWNER_ONLY_THING, type Row, SIGNED_IN } from './cells.js';

/** Media in chats and the favourite faces. */
export const MEDIA_ROWS: Row[] = [
  {
    route: 'GET /api/v1/media/limits',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/media/limits'),
  },
  {
    route: 'GET /api/v1/media/:id',
    on: "a file of the member's in the group chat",
    cells: GROUP_MEDIA,
    run: async (w, as) => w.call(as, 'GET', `/media/${await groupMedia(w)}`),
  },
  {
    route: 'POST /api/v1/media/urls',
    on: "a file of the member's in the group chat",
    // Always answered; media the caller may not see is left out of the answer.
    cells: SIGNED_IN,
    run: async (w, as) => w.call(as, 'POST', '/media/urls', { ids: [await groupMedia(w)] }),
    check: (_w, as, response) => {
      const { urls } = response.json<MediaUrlsResult>();
      expect(urls.length).toBe(GROUP_MEDIA[as] === OK ? 1 : 0);
      return Promise.resolve();
    },
  },
  {
    route: 'GET /api/v1/faces/favourites',
    cells: SIGNED_IN,
    run: (w, as) => w.call(as, 'GET', '/faces/favourites'),
  },
  {
    route: 'POST /api/v1/faces/favourites',
    on: "a photo of the member's in the group chat",
    cells: GROUP_MEDIA,
    run: async (w, as) =>
      w.call(as, 'POST', '/faces/favourites', { mediaId: await groupMedia(w, 'image') }),
  },
  {
    route: 'DELETE /api/v1/faces/favourites/:mediaId',
    on: "the owner's favourite",
    // Nobody else has it among theirs.
    cells: {
      ...OWNER_ONLY_THING,
      admin: 'MEDIA_NOT_FOUND',
      member: 'MEDIA_NOT_FOUND',
      blocked: 'MEDIA_NOT_FOUND',
      removed: 'MEDIA_NOT_FOUND',
      stranger: 'MEDIA_NOT_FOUND',
    },
    run: async (w, as) => {
      const mediaId = await groupMedia(w, 'image');
      const kept = await w.call('owner', 'POST', '/faces/favourites', { mediaId });
      expect(kept.statusCode, kept.body).toBe(200);
      return w.call(as, 'DELETE', `/faces/favourites/${mediaId}`);
    },
  },
];
