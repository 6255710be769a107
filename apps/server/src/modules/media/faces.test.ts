import {
  FACE_FAVOURITES_MAX,
  STICKERS,
  type FavouritesResult,
  type Message,
  type MyGroup,
} from '@teltlk/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  dialects,
  expectError,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';
import { storedMedia, userApi } from '../../test/fixtures.js';

describe.each(dialects)('stickers on $dialect', ({ dialect }) => {
  let t: TestApp;
  const { call, ok, send, pair } = userApi(() => t);

  const storedPhoto = (owner: RegisteredUser, kind: 'image' | 'file' = 'image') =>
    storedMedia(t, owner, kind);

  const favourites = async (user: RegisteredUser) =>
    ok<FavouritesResult>(await call(user, 'GET', '/faces/favourites')).favourites.map(
      ({ id }) => id,
    );

  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(() => t.close());

  it('sends a sticker of the pack, and refuses one it does not have', async () => {
    const [a, b, id] = await pair();
    const sent = ok<Message>(await send(a, id, { kind: 'face', sticker: 'party' }));
    expect(sent.content).toEqual({ kind: 'face', sticker: 'party' });
    const page = ok<{ messages: Message[] }>(await call(b, 'GET', `/conversations/${id}/messages`));
    expect(page.messages.at(-1)?.content).toEqual({ kind: 'face', sticker: 'party' });
    expect(STICKERS).toContain('party');
    for (const content of [
      { kind: 'face', sticker: 'nope' },
      { kind: 'face' },
      {
        kind: 'face',
        sticker: 'smile',
        image: { id: 'a'.repeat(20), width: 1, height: 1, size: 1, mime: 'image/png' },
      },
    ]) {
      expectError(await send(a, id, content), 'VALIDATION_FAILED');
    }
  });

  it('keeps a received photo as a favourite that outlives its message, and sends it', async () => {
    const [a, b, id] = await pair();
    const photo = await storedPhoto(a);
    const message = ok<Message>(
      await send(a, id, {
        kind: 'image',
        image: { id: photo, width: 1, height: 1, size: 1, mime: 'x' },
      }),
    );
    // Someone who cannot see it may not keep it.
    const stranger = await t.register();
    expectError(
      await call(stranger, 'POST', '/faces/favourites', { mediaId: photo }),
      'MEDIA_NOT_FOUND',
    );
    const kept = ok<FavouritesResult>(
      await call(b, 'POST', '/faces/favourites', { mediaId: photo }),
    );
    expect(kept.favourites).toMatchObject([
      { id: photo, width: 64, height: 64, mime: 'image/png' },
    ]);
    // Kept twice is kept once.
    ok(await call(b, 'POST', '/faces/favourites', { mediaId: photo }));
    expect(await favourites(b)).toEqual([photo]);

    // The message goes; the favourite, and its photo, stay.
    ok(await call(a, 'POST', `/conversations/${id}/messages/${message.seq}/revoke`));
    await t.ctx.services.media.drain();
    await t.ctx.services.media.sweep();
    expect(await favourites(b)).toEqual([photo]);
    const sticker = ok<Message>(
      await send(b, id, {
        kind: 'face',
        image: { id: photo, width: 1, height: 1, size: 1, mime: 'x' },
      }),
    );
    // Written from what was stored, not from what was sent.
    expect(sticker.content).toEqual({
      kind: 'face',
      image: { id: photo, width: 64, height: 64, size: 10, mime: 'image/png' },
    });
    // Only the keeper's: a favourite is no way into someone else's photos.
    const [c, , other] = await pair();
    expectError(
      await send(c, other, {
        kind: 'face',
        image: { id: photo, width: 1, height: 1, size: 1, mime: 'x' },
      }),
      'MEDIA_NOT_FOUND',
    );

    // Let go, and no message holds it: the photo goes at the next sweep.
    ok(await call(b, 'POST', `/conversations/${id}/messages/${sticker.seq}/revoke`));
    expect(
      ok<FavouritesResult>(await call(b, 'DELETE', `/faces/favourites/${photo}`)).favourites,
    ).toEqual([]);
    expectError(await call(b, 'DELETE', `/faces/favourites/${photo}`), 'MEDIA_NOT_FOUND');
    await t.ctx.services.media.drain();
    await t.ctx.services.media.sweep();
    const left = await t.ctx.db.selectFrom('media').select('id').where('id', '=', photo).execute();
    expect(left).toEqual([]);
  });

  it('keeps photos only, up to the limit', async () => {
    const [a] = await pair();
    const file = await storedPhoto(a, 'file');
    expectError(
      await call(a, 'POST', '/faces/favourites', { mediaId: file }),
      'MEDIA_TYPE_UNSUPPORTED',
    );
    const now = t.clock.now();
    const photos = await Promise.all(
      Array.from({ length: FACE_FAVOURITES_MAX }, () => storedPhoto(a)),
    );
    await t.ctx.db
      .insertInto('face_favourites')
      .values(photos.map((mediaId) => ({ user_id: a.user.id, media_id: mediaId, created_at: now })))
      .execute();
    const one = await storedPhoto(a);
    const full = expectError(
      await call(a, 'POST', '/faces/favourites', { mediaId: one }),
      'FAVOURITES_FULL',
    );
    expect(full.params).toEqual({ max: FACE_FAVOURITES_MAX });
    expectError(
      await call(a, 'POST', '/faces/favourites', { mediaId: 'bad' }),
      'VALIDATION_FAILED',
    );
  });

  it("follows a group's choice of kinds: stickers are allowed until switched off", async () => {
    const [owner, member] = await pair();
    const group = ok<MyGroup>(
      await call(owner, 'POST', '/groups', { memberIds: [member.user.id] }),
    );
    expect(group.allowedKinds).toContain('face');
    const id = `sg_${group.id}`;
    ok<Message>(await send(member, id, { kind: 'face', sticker: 'thumbs' }));
    ok(
      await t.call('PATCH', `/api/v1/groups/${group.id}`, {
        token: owner.token,
        body: { allowedKinds: ['text'] },
      }),
    );
    expectError(
      await send(member, id, { kind: 'face', sticker: 'thumbs' }),
      'MESSAGE_KIND_NOT_ALLOWED',
    );
  });
});
