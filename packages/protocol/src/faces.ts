import { z } from 'zod';
import { endpoint } from './contract.js';
import { imageMediaSchema, mediaIdSchema } from './media.js';

/**
 * Stickers ("face" messages): the app's own pack, drawn for it and served with the web
 * app (`/stickers/<id>.svg`), and each user's favourites, photos they received and kept.
 */

/** The built-in pack, in the order the panel shows it. */
export const STICKERS = [
  'smile',
  'grin',
  'laugh',
  'love',
  'wink',
  'cool',
  'think',
  'wow',
  'cry',
  'angry',
  'sleepy',
  'thanks',
  'thumbs',
  'clap',
  'heart',
  'party',
] as const;
export type StickerId = (typeof STICKERS)[number];

/** Favourites one user may keep. */
export const FACE_FAVOURITES_MAX = 100;

/**
 * A sticker: one of the pack, or a favourite (a photo, written by the server from what it
 * stored, as a photo message is). Exactly one of the two.
 */
export const faceContentSchema = z
  .object({
    kind: z.literal('face'),
    sticker: z.enum(STICKERS, { error: 'sticker' }).optional(),
    image: imageMediaSchema.optional(),
    /** Sent with "forward": shown with a forwarded label. */
    forwarded: z.boolean().optional(),
  })
  .refine((face) => (face.sticker === undefined) !== (face.image === undefined), {
    error: 'sticker',
  });
export type FaceContent = z.infer<typeof faceContentSchema>;

/** Keeps a photo the caller can see as a favourite sticker. */
export const addFavouriteBody = z.object({ mediaId: mediaIdSchema });
export const favouriteParams = z.object({ mediaId: mediaIdSchema });

/** The caller's favourites, newest first. */
export const favouritesResult = z.object({ favourites: z.array(imageMediaSchema) });
export type FavouritesResult = z.infer<typeof favouritesResult>;

/** The signed-in person's favourite stickers. */
export const favouriteEndpoints = {
  favourites: endpoint({
    method: 'GET',
    path: '/faces/favourites',
    result: favouritesResult,
    errors: [],
    access: 'session',
    limits: ['accountReadPerUser'],
    summary: 'Your favourite stickers (photos you kept), newest first',
    tags: ['media'],
  }),
  add: endpoint({
    method: 'POST',
    path: '/faces/favourites',
    body: addFavouriteBody,
    result: favouritesResult,
    errors: ['MEDIA_NOT_FOUND', 'MEDIA_TYPE_UNSUPPORTED', 'FAVOURITES_FULL'],
    access: 'session',
    limits: ['faceFavouritePerUser'],
    summary: 'Keep a photo you can see as a sticker',
    tags: ['media'],
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/faces/favourites/:mediaId',
    params: favouriteParams,
    result: favouritesResult,
    errors: ['MEDIA_NOT_FOUND'],
    access: 'session',
    limits: ['faceFavouritePerUser'],
    summary: 'Remove a favourite sticker',
    tags: ['media'],
  }),
};
