import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  AVATAR_MAX_BYTES,
  AVATAR_SIZE_PX,
  LOGIN_FREE_FAILURES,
  TELTLK_ID_CHANGE_INTERVAL_DAYS,
  type AuthResult,
  type Me,
  type SessionListResult,
  type Settings,
} from '@teltlk/protocol';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, SECOND } from '../../lib/clock.js';
import {
  createTestApp,
  dialects,
  expectError,
  PASSWORD,
  type RegisteredUser,
  type TestApp,
} from '../../test/harness.js';

/** A multipart/form-data body with one file part, built by hand so tests control every byte. */
function multipart(field: string, filename: string, contentType: string, data: Buffer) {
  const boundary = '----teltlk-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .png()
    .toBuffer();
}

describe.each(dialects)('users on $dialect', ({ dialect }) => {
  let t: TestApp;
  let user: RegisteredUser;
  beforeEach(async () => {
    t = await createTestApp({ dialect });
    user = await t.register();
  });
  afterEach(async () => {
    await t.close();
  });

  const me = (token = user.token) => t.call('GET', '/api/v1/me', { token });
  const patchMe = (body: unknown) => t.call('PATCH', '/api/v1/me', { token: user.token, body });
  const changeId = (teltlkId: string, token = user.token) =>
    t.call('PUT', '/api/v1/me/teltlk-id', { token, body: { teltlkId } });
  const uploadAvatar = (field: string, filename: string, contentType: string, data: Buffer) => {
    const { payload, headers } = multipart(field, filename, contentType, data);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/me/avatar',
      payload,
      headers: { ...headers, authorization: `Bearer ${user.token}` },
    });
  };

  describe('profile', () => {
    it('edits nickname, country and mother tongue, one or all at a time', async () => {
      const edited = await patchMe({
        nickname: '  小明 Ming ',
        country: 'TW',
        motherTongue: 'zh-Hant',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json<Me>()).toMatchObject({
        nickname: '小明 Ming',
        country: 'TW',
        motherTongue: 'zh-Hant',
      });
      const partial = await patchMe({ country: 'US' });
      expect(partial.json<Me>()).toMatchObject({ nickname: '小明 Ming', country: 'US' });
      expect((await me()).json<Me>()).toEqual(partial.json<Me>());
      expect((await patchMe({})).json<Me>()).toEqual(partial.json<Me>());
    });

    it('refuses unknown countries and languages, bad nicknames and unknown fields', async () => {
      const cases: [unknown, { path: string; rule: string }][] = [
        [{ country: 'XX' }, { path: 'country', rule: 'country' }],
        [{ country: 'cn' }, { path: 'country', rule: 'country' }],
        [{ motherTongue: 'klingon' }, { path: 'motherTongue', rule: 'motherTongue' }],
        [{ nickname: '   ' }, { path: 'nickname', rule: 'nickname' }],
        [{ nickname: 'x'.repeat(33) }, { path: 'nickname', rule: 'nicknameLength' }],
        [{ nickname: 'tab\there' }, { path: 'nickname', rule: 'nameCharacters' }],
        [{ email: 'new@example.com' }, { path: '', rule: 'invalid' }],
      ];
      for (const [body, issue] of cases) {
        const error = expectError(await patchMe(body), 'VALIDATION_FAILED');
        expect(error.issues, JSON.stringify(body)).toEqual([issue]);
      }
      expect((await me()).json<Me>().country).toBe('CN');
    });
  });

  describe('Teltlk ID', () => {
    it('changes once per interval, counted from the last change by the user', async () => {
      const changed = await changeId('Ada2025x');
      expect(changed.statusCode, changed.body).toBe(200);
      const interval = TELTLK_ID_CHANGE_INTERVAL_DAYS * DAY;
      expect(changed.json<Me>()).toMatchObject({
        teltlkId: 'Ada2025x',
        teltlkIdChangeableAt: t.clock.now() + interval,
      });

      const login = await t.call('POST', '/api/v1/auth/login', {
        body: { account: 'ada2025X', password: PASSWORD },
      });
      expect(login.statusCode).toBe(200);
      const old = await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.user.teltlkId, password: PASSWORD },
      });
      expectError(old, 'ACCOUNT_NOT_FOUND');

      t.clock.advance(interval - SECOND);
      const early = expectError(await changeId('Ada2026x'), 'TELTLK_ID_MONTHLY');
      expect(early.message).toBe('TeltlkID can only be modified once a month');
      t.clock.advance(SECOND);
      expect((await me()).json<Me>().teltlkIdChangeableAt).toBeNull();
      expect((await changeId('Ada2026x')).statusCode).toBe(200);
    });

    it('is unique regardless of case', async () => {
      const other = await t.register();
      expect((await changeId('TakenName1', other.token)).statusCode).toBe(200);
      expectError(await changeId('takenname1'), 'TELTLK_ID_TAKEN');
      const third = await t.register();
      expectError(await changeId(third.user.teltlkId.toUpperCase()), 'TELTLK_ID_TAKEN');
      // A refused change does not use up this month's change.
      expect((await changeId('FreeName1')).statusCode).toBe(200);
    });

    it('treats the current ID as no change, but a change of case as a change', async () => {
      const same = await changeId(user.user.teltlkId);
      expect(same.statusCode).toBe(200);
      expect(same.json<Me>().teltlkIdChangeableAt).toBeNull();

      expect((await changeId('MyName99')).statusCode).toBe(200);
      const again = await changeId('MyName99');
      expect(again.statusCode).toBe(200);
      expectError(await changeId('myname99'), 'TELTLK_ID_MONTHLY');
      t.clock.advance(TELTLK_ID_CHANGE_INTERVAL_DAYS * DAY);
      expect((await changeId('myname99')).json<Me>().teltlkId).toBe('myname99');
    });

    it('follows the ID rule: a letter first, 7 to 16 letters or digits', async () => {
      for (const bad of [
        '1abcdefg',
        'abc',
        'a'.repeat(17),
        'abc_defg',
        'abc defg',
        '中文名字字字字',
      ]) {
        expect(expectError(await changeId(bad), 'VALIDATION_FAILED').issues).toEqual([
          { path: 'teltlkId', rule: 'teltlkId' },
        ]);
      }
      expect((await changeId('abcdefg')).statusCode).toBe(200);
    });
  });

  describe('avatar', () => {
    it('stores any image as a square WebP without metadata and serves it', async () => {
      const photo = await sharp(await png(600, 400))
        .jpeg()
        .withMetadata({ exif: { IFD0: { Copyright: 'secret place' } } })
        .toBuffer();
      const response = await uploadAvatar('file', 'me.jpg', 'image/jpeg', photo);
      expect(response.statusCode, response.body).toBe(200);
      const { avatarUrl } = response.json<Me>();
      expect(avatarUrl).toMatch(/^\/files\/avatars\/[0-9a-z]+\.webp$/);

      const served = await t.call('GET', avatarUrl ?? '');
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      const meta = await sharp(served.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: AVATAR_SIZE_PX, height: AVATAR_SIZE_PX });
      expect(meta.exif).toBeUndefined();
      expect((await me()).json<Me>().avatarUrl).toBe(avatarUrl);
    });

    it('replaces the old file, whatever type the client claims', async () => {
      const first =
        (await uploadAvatar('file', 'a.png', 'image/png', await png(300, 300))).json<Me>()
          .avatarUrl ?? '';
      const second = await uploadAvatar(
        'file',
        'b.bin',
        'application/octet-stream',
        await png(100, 500),
      );
      expect(second.statusCode).toBe(200);
      expect(second.json<Me>().avatarUrl).not.toBe(first);
      expect(existsSync(join(t.dataDir, first))).toBe(false);
      expect((await t.call('GET', first)).statusCode).toBe(404);
    });

    it('refuses what is not an image, too large a file, a wrong field and a non-multipart body', async () => {
      expectError(
        await uploadAvatar('file', 'x.png', 'image/png', Buffer.from('not an image at all')),
        'IMAGE_TYPE_UNSUPPORTED',
      );
      const huge = Buffer.concat([await png(10, 10), Buffer.alloc(AVATAR_MAX_BYTES)]);
      expectError(await uploadAvatar('file', 'big.png', 'image/png', huge), 'PAYLOAD_TOO_LARGE');
      expect(
        expectError(
          await uploadAvatar('photo', 'a.png', 'image/png', await png(10, 10)),
          'VALIDATION_FAILED',
        ).issues,
      ).toEqual([{ path: 'file', rule: 'required' }]);
      expectError(
        await t.call('POST', '/api/v1/me/avatar', {
          token: user.token,
          body: { file: 'data:image/png;base64,AAAA' },
        }),
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expect((await me()).json<Me>().avatarUrl).toBeNull();
    });
  });

  describe('password change', () => {
    const change = (currentPassword: string, newPassword: string) =>
      t.call('PUT', '/api/v1/me/password', {
        token: user.token,
        body: { currentPassword, newPassword },
      });

    it('needs the current password and signs other sessions out', async () => {
      const other = (
        await t.call('POST', '/api/v1/auth/login', {
          body: { account: user.destination, password: PASSWORD },
        })
      ).json<AuthResult>().token;
      expectError(await change('Wrong1234', 'N3wPassword'), 'PASSWORD_INCORRECT');
      const changed = await change(PASSWORD, 'N3wPassword');
      expect(changed.statusCode, changed.body).toBe(204);
      expect((await me()).statusCode).toBe(200);
      expectError(await me(other), 'TOKEN_EXPIRED');
      const sessions = (
        await t.call('GET', '/api/v1/sessions', { token: user.token })
      ).json<SessionListResult>();
      expect(sessions.sessions).toHaveLength(1);
      const login = (password: string) =>
        t.call('POST', '/api/v1/auth/login', { body: { account: user.destination, password } });
      expectError(await login(PASSWORD), 'PASSWORD_INCORRECT');
      expect((await login('N3wPassword')).statusCode).toBe(200);
    });

    it('counts wrong current passwords toward the sign-in lock', async () => {
      for (let i = 0; i < LOGIN_FREE_FAILURES; i += 1)
        expectError(await change('Wrong1234', 'N3wPassword'), 'PASSWORD_INCORRECT');
      expectError(await change(PASSWORD, 'N3wPassword'), 'LOGIN_LOCKED');
      const login = await t.call('POST', '/api/v1/auth/login', {
        body: { account: user.destination, password: PASSWORD },
      });
      expectError(login, 'LOGIN_LOCKED');
    });

    it('checks the new password rule', async () => {
      expect(expectError(await change(PASSWORD, 'short1A'), 'VALIDATION_FAILED').issues).toEqual([
        { path: 'newPassword', rule: 'passwordLength' },
      ]);
    });
  });

  describe('settings', () => {
    const settings = () => t.call('GET', '/api/v1/me/settings', { token: user.token });
    const patch = (body: unknown) =>
      t.call('PATCH', '/api/v1/me/settings', { token: user.token, body });

    it('reads defaults and changes any subset', async () => {
      expect((await settings()).json<Settings>()).toEqual(user.settings);
      const changed = await patch({ uiLanguage: 'zh_TW', vibration: false });
      expect(changed.statusCode).toBe(200);
      expect(changed.json<Settings>()).toEqual({
        uiLanguage: 'zh_TW',
        motherTongueFirst: true,
        notifications: true,
        vibration: false,
        alertSound: true,
        notificationPreviews: false,
      });
      await patch({
        motherTongueFirst: false,
        notifications: false,
        alertSound: false,
        vibration: true,
        notificationPreviews: true,
      });
      expect((await settings()).json<Settings>()).toEqual({
        uiLanguage: 'zh_TW',
        motherTongueFirst: false,
        notifications: false,
        vibration: true,
        alertSound: false,
        notificationPreviews: true,
      });
    });

    it('refuses unknown keys and values', async () => {
      expect(expectError(await patch({ uiLanguage: 'fr_FR' }), 'VALIDATION_FAILED').issues).toEqual(
        [{ path: 'uiLanguage', rule: 'uiLanguage' }],
      );
      expectError(await patch({ vibration: 'yes' }), 'VALIDATION_FAILED');
      expectError(await patch({ theme: 'dark' }), 'VALIDATION_FAILED');
    });
  });

  it('acts only on the caller: another user sees their own data', async () => {
    const other = await t.register();
    await patchMe({ nickname: 'Changed' });
    expect((await me(other.token)).json<Me>()).toMatchObject({
      id: other.user.id,
      nickname: 'Tester',
    });
  });
});
