import {
  contactEndpoints,
  groupEndpoints,
  mediaEndpoints,
  userEndpoints,
  type Group,
  type Me,
  type MyGroup,
} from '@teltlk/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { ApiClient } from './api-client.js';

/** Never called: the calls below are checked by the compiler, not run. */
function _typed(api: ApiClient) {
  return {
    me: () => api.call(userEndpoints.me),
    update: () => api.call(groupEndpoints.update, { params: { id: 'g1' }, body: { name: 'n' } }),
    list: () => api.call(groupEndpoints.list),
    block: () => api.call(contactEndpoints.block, { params: { id: 'u2' } }),
    object: () =>
      api.call(mediaEndpoints.object, {
        params: { id: 'm1', variant: 'thumb' },
        query: { e: '1', s: 's' },
      }),
    avatar: () => api.call(userEndpoints.setAvatar, { body: new FormData() }),
  };
}

describe('the types of a call', () => {
  it('follow the declaration: its result, void for 204, a Blob for bytes', () => {
    type Calls = ReturnType<typeof _typed>;
    expectTypeOf<Awaited<ReturnType<Calls['me']>>>().toEqualTypeOf<Me>();
    expectTypeOf<Awaited<ReturnType<Calls['update']>>>().toEqualTypeOf<Group>();
    expectTypeOf<Awaited<ReturnType<Calls['list']>>>().toEqualTypeOf<{ groups: MyGroup[] }>();
    expectTypeOf<Awaited<ReturnType<Calls['block']>>>().toEqualTypeOf<void>();
    expectTypeOf<Awaited<ReturnType<Calls['object']>>>().toEqualTypeOf<Blob>();
    expectTypeOf<Awaited<ReturnType<Calls['avatar']>>>().toEqualTypeOf<Me>();
  });

  it('refuse an input the declaration does not take', () => {
    const api = new ApiClient({ getToken: () => null });
    // Each call sits in a function that is never run: only the compiler reads them.
    return [
      // @ts-expect-error a body of the wrong shape
      () => api.call(groupEndpoints.update, { params: { id: 'g1' }, body: { name: 5 } }),
      // @ts-expect-error the params are missing
      () => api.call(groupEndpoints.update, { body: { name: 'n' } }),
      // @ts-expect-error a body where the endpoint takes none
      () => api.call(userEndpoints.me, { body: { nickname: 'x' } }),
      // @ts-expect-error JSON where the endpoint takes a form
      () => api.call(userEndpoints.setAvatar, { body: { file: 'x' } }),
      // @ts-expect-error no input at all where params are needed
      () => api.call(contactEndpoints.block),
      // @ts-expect-error a result of another type than the declared one
      (): Promise<string> => api.call(userEndpoints.me),
    ];
  });
});
