import { ApiError, backoffDelay } from '@teltlk/im-sdk';
import { routes } from '@teltlk/client';
import type { MediaUrlsResult } from '@teltlk/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mediaUrls = vi.fn<(ids: string[]) => Promise<MediaUrlsResult>>();
// The client's calls of other endpoints are no part of these tests: they fail loudly.
vi.mock('./client', () => ({
  api: {
    call: (endpoint: unknown, input: { body: { ids: string[] } }) =>
      endpoint === routes.media.urls
        ? mediaUrls(input.body.ids)
        : Promise.reject(new Error('an unexpected call')),
  },
}));

const { forgetMediaAddresses, knownMediaAddress, wantMediaAddress } = await import('./media-urls');

function signed(ids: string[]): MediaUrlsResult {
  const expiresAt = Date.now() + 60 * 60 * 1000;
  return {
    urls: ids.map((id) => ({ id, url: `/api/v1/media/${id}`, thumb: null, expiresAt })),
  };
}

/** Lets the microtask that sends the request, and the request's answer, run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
}

describe("the media's signed addresses", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    mediaUrls.mockReset();
  });
  afterEach(() => {
    forgetMediaAddresses();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('asks once for the media wanted in one turn, and keeps what it was given', async () => {
    mediaUrls.mockImplementation((ids) => Promise.resolve(signed(ids.filter((id) => id !== 'b'))));
    wantMediaAddress('a');
    wantMediaAddress('b');
    wantMediaAddress('a');
    await settle();
    expect(mediaUrls.mock.calls).toEqual([[['a', 'b']]]);
    expect(knownMediaAddress('a')).toMatchObject({ url: '/api/v1/media/a' });
    expect(knownMediaAddress('b')).toBe('missing');

    wantMediaAddress('a');
    wantMediaAddress('b');
    await settle();
    expect(mediaUrls).toHaveBeenCalledTimes(1);
  });

  it('asks again after a failed request, waiting longer each time, until it has them', async () => {
    mediaUrls
      .mockRejectedValueOnce(new ApiError('NETWORK_ERROR', 0))
      .mockRejectedValueOnce(new ApiError('TIMEOUT', 0))
      .mockImplementation((ids) => Promise.resolve(signed(ids)));
    // The top of each backoff's random range, so each wait is the longest it can be.
    const top = () => 0.999;
    vi.spyOn(Math, 'random').mockImplementation(top);
    wantMediaAddress('c');
    await settle();
    expect(mediaUrls).toHaveBeenCalledTimes(1);
    expect(knownMediaAddress('c')).toBeNull();

    for (const [failure, wait] of [backoffDelay(0, top), backoffDelay(1, top)].entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(mediaUrls).toHaveBeenCalledTimes(failure + 1);
      await vi.advanceTimersByTimeAsync(1);
      await settle();
      expect(mediaUrls).toHaveBeenCalledTimes(failure + 2);
    }
    expect(knownMediaAddress('c')).toMatchObject({ url: '/api/v1/media/c' });

    // Once given, nothing is asked again.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mediaUrls).toHaveBeenCalledTimes(3);
  });

  it('asks nothing again for someone who signed out meanwhile', async () => {
    mediaUrls.mockRejectedValue(new ApiError('NETWORK_ERROR', 0));
    wantMediaAddress('d');
    await settle();
    forgetMediaAddresses();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mediaUrls).toHaveBeenCalledTimes(1);
  });
});
