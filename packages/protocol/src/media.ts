import { z } from 'zod';
import { endpoint } from './contract.js';
import {
  FILE_NAME_MAX_LENGTH,
  MEDIA_ID_PATTERN,
  MEDIA_URLS_MAX,
  VOICE_MAX_MS,
  WAVEFORM_BARS,
} from './media-rules.js';

export * from './media-rules.js';

export const mediaIdSchema = z.string().regex(MEDIA_ID_PATTERN, { error: 'mediaId' });

const sizeSchema = z.number().int().min(0);
const mimeSchema = z.string().min(1).max(127);
const pixelsSchema = z.number().int().min(1).max(100_000);

/**
 * A photo as a message carries it. The server writes every field from what it stored (the
 * sender's copy counts only for its id): the size after metadata was stripped, the type
 * its bytes show, and a ThumbHash placeholder (base64) drawn while the photo loads.
 */
export const imageMediaSchema = z.object({
  id: mediaIdSchema,
  width: pixelsSchema,
  height: pixelsSchema,
  size: sizeSchema,
  mime: mimeSchema,
  placeholder: z.string().max(64).optional(),
});
export type ImageMedia = z.infer<typeof imageMediaSchema>;

/** A file as a message carries it; written by the server from what it stored. */
export const fileMediaSchema = z.object({
  id: mediaIdSchema,
  name: z
    .string()
    .min(1)
    .max(FILE_NAME_MAX_LENGTH * 4),
  size: sizeSchema,
  mime: mimeSchema,
});
export type FileMedia = z.infer<typeof fileMediaSchema>;

/** Milliseconds of sound or film, as the recording browser measured them. */
const durationSchema = z
  .number()
  .int()
  .min(0)
  .max(24 * 60 * 60 * 1000);

/**
 * A voice message: its length and a waveform (WAVEFORM_BARS bytes of loudness, base64),
 * both measured by the recording browser, and the recording itself.
 */
export const voiceMediaSchema = z.object({
  id: mediaIdSchema,
  durationMs: durationSchema.max(VOICE_MAX_MS + 1000),
  size: sizeSchema,
  mime: mimeSchema,
  waveform: z
    .string()
    .max(Math.ceil(WAVEFORM_BARS / 3) * 4)
    .optional(),
});
export type VoiceMedia = z.infer<typeof voiceMediaSchema>;

/** A video: its size, length and a poster frame (a photo made from the video by the sender's browser). */
export const videoMediaSchema = z.object({
  id: mediaIdSchema,
  width: pixelsSchema,
  height: pixelsSchema,
  durationMs: durationSchema,
  size: sizeSchema,
  mime: mimeSchema,
  poster: imageMediaSchema,
});
export type VideoMedia = z.infer<typeof videoMediaSchema>;

export const imageContentSchema = z.object({
  kind: z.literal('image'),
  image: imageMediaSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type ImageContent = z.infer<typeof imageContentSchema>;

export const fileContentSchema = z.object({
  kind: z.literal('file'),
  file: fileMediaSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type FileContent = z.infer<typeof fileContentSchema>;

export const voiceContentSchema = z.object({
  kind: z.literal('voice'),
  voice: voiceMediaSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type VoiceContent = z.infer<typeof voiceContentSchema>;

export const videoContentSchema = z.object({
  kind: z.literal('video'),
  video: videoMediaSchema,
  /** Sent with "forward": shown with a forwarded label. */
  forwarded: z.boolean().optional(),
});
export type VideoContent = z.infer<typeof videoContentSchema>;

/** What the server stored of a finished upload: the fields a message carries. */
export const uploadedMediaSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('image'), image: imageMediaSchema }),
  z.object({ kind: z.literal('file'), file: fileMediaSchema }),
  z.object({ kind: z.literal('voice'), voice: voiceMediaSchema }),
  z.object({ kind: z.literal('video'), video: videoMediaSchema }),
]);
export type UploadedMedia = z.infer<typeof uploadedMediaSchema>;

/** Per-kind limits in bytes, and the daily total per person (null: no daily limit). */
export const mediaLimitsSchema = z.object({
  image: z.number().int().min(1),
  file: z.number().int().min(1),
  voice: z.number().int().min(1),
  video: z.number().int().min(1),
  dailyBytes: z.number().int().min(1).nullable(),
});
export type MediaLimits = z.infer<typeof mediaLimitsSchema>;

export const mediaUrlsBody = z.object({
  ids: z.array(mediaIdSchema).min(1).max(MEDIA_URLS_MAX),
});
export type MediaUrlsBody = z.infer<typeof mediaUrlsBody>;

/**
 * Short-lived signed addresses of media the caller may see; ids they may not see (or
 * that are gone) are left out. `thumb` is null where there is no thumbnail (files).
 */
export const mediaUrlsResult = z.object({
  urls: z.array(
    z.object({
      id: mediaIdSchema,
      url: z.string(),
      thumb: z.string().nullable(),
      expiresAt: z.number(),
    }),
  ),
});
export type MediaUrlsResult = z.infer<typeof mediaUrlsResult>;

export const mediaParams = z.object({ id: mediaIdSchema });

/** A media's object by its signed address: the original or the thumbnail, until `e`. */
export const mediaVariantParams = z.object({
  id: mediaIdSchema,
  variant: z.enum(['original', 'thumb']),
});
export const mediaSignatureQuery = z.object({
  e: z.string().regex(/^\d{1,12}$/),
  s: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
});

/**
 * Media of chats: limits, stored media, signed addresses, and the resumable uploads (the
 * tus protocol 1.0.0, spoken by the client's tus library: headers in, headers out, the
 * chunks streamed to disk as they come).
 */
export const mediaEndpoints = {
  limits: endpoint({
    method: 'GET',
    path: '/media/limits',
    result: mediaLimitsSchema,
    errors: [],
    access: 'session',
    limits: ['accountReadPerUser'],
    summary: 'Largest photo and file, and the daily upload total',
    tags: ['media'],
  }),
  media: endpoint({
    method: 'GET',
    path: '/media/:id',
    params: mediaParams,
    result: uploadedMediaSchema,
    errors: ['MEDIA_NOT_FOUND'],
    access: 'session',
    limits: ['mediaInfoPerUser'],
    summary: 'A stored media you uploaded or can see in a chat',
    tags: ['media'],
  }),
  urls: endpoint({
    method: 'POST',
    path: '/media/urls',
    body: mediaUrlsBody,
    result: mediaUrlsResult,
    errors: [],
    access: 'session',
    limits: ['mediaUrlsPerUser'],
    summary: 'Short-lived addresses of media you can see',
    tags: ['media'],
  }),
  /**
   * No session: an <img> or <video> sends no bearer token. The address names one object
   * until it expires; byte ranges are served, so a video seeks and a download resumes.
   */
  object: endpoint({
    method: 'GET',
    path: '/media/:id/:variant',
    params: mediaVariantParams,
    query: mediaSignatureQuery,
    result: 'bytes',
    errors: ['MEDIA_NOT_FOUND'],
    access: 'public',
    limits: ['mediaReadPerAddress'],
    summary: 'A media object by its signed address (byte ranges served)',
    tags: ['media'],
  }),
  beginUpload: endpoint({
    method: 'POST',
    path: '/uploads',
    result: 'bytes',
    errors: [
      'UPLOAD_UNSUPPORTED',
      'MEDIA_TOO_LARGE',
      'MEDIA_QUOTA_EXCEEDED',
      'MEDIA_TYPE_UNSUPPORTED',
      'IMAGE_INVALID',
    ],
    access: 'session',
    limits: ['mediaUploadPerUser'],
    summary: 'Begin a resumable upload (tus 1.0.0; metadata kind and name)',
    tags: ['media'],
  }),
  uploadOffset: endpoint({
    method: 'HEAD',
    path: '/uploads/:id',
    params: mediaParams,
    result: 'bytes',
    errors: ['NOT_FOUND', 'UPLOAD_EXPIRED', 'UPLOAD_UNSUPPORTED'],
    access: 'session',
    limits: ['mediaChunkPerUser'],
    summary: 'HEAD of a resumable upload (tus 1.0.0)',
    tags: ['media'],
  }),
  uploadChunk: endpoint({
    method: 'PATCH',
    path: '/uploads/:id',
    params: mediaParams,
    body: 'bytes',
    result: 'bytes',
    errors: [
      'NOT_FOUND',
      'UPLOAD_EXPIRED',
      'UPLOAD_UNSUPPORTED',
      'UPLOAD_CONFLICT',
      'FORBIDDEN',
      'MEDIA_TYPE_UNSUPPORTED',
      'IMAGE_INVALID',
    ],
    access: 'session',
    limits: ['mediaChunkPerUser'],
    summary: 'PATCH of a resumable upload (tus 1.0.0)',
    tags: ['media'],
  }),
  cancelUpload: endpoint({
    method: 'DELETE',
    path: '/uploads/:id',
    params: mediaParams,
    result: 'bytes',
    errors: ['NOT_FOUND', 'UPLOAD_EXPIRED', 'UPLOAD_UNSUPPORTED'],
    access: 'session',
    limits: ['mediaChunkPerUser'],
    summary: 'DELETE of a resumable upload (tus 1.0.0)',
    tags: ['media'],
  }),
};
