import type { Group, groupEndpoints, Me, MyGroup } from '@teltlk/protocol';
import { describe, expectTypeOf, it } from 'vitest';
import { ApiClient } from './api-client.js';
import type { EndpointOf, Route } from './route.js';
import { routes } from './routes.js';

/** Never called: the calls below are checked by the compiler, not run. */
function _typed(api: ApiClient) {
  return {
    me: () => api.call(routes.users.me),
    update: () => api.call(routes.groups.update, { params: { id: 'g1' }, body: { name: 'n' } }),
    list: () => api.call(routes.groups.list),
    block: () => api.call(routes.contacts.block, { params: { id: 'u2' } }),
    object: () =>
      api.call(routes.media.object, {
        params: { id: 'm1', variant: 'thumb' },
        query: { e: '1', s: 's' },
      }),
    avatar: () => api.call(routes.users.setAvatar, { body: new FormData() }),
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

  it('carry the declaration in the route, and refuse a route that differs from it', () => {
    expectTypeOf<EndpointOf<typeof routes.groups.update>>().toEqualTypeOf<
      typeof groupEndpoints.update
    >();
    const wrong: Route<typeof groupEndpoints.update> = {
      // @ts-expect-error the declaration's method is PATCH
      method: 'POST',
      path: '/groups/:id',
      result: 'json',
    };
    return wrong;
  });

  it('refuse an input the declaration does not take', () => {
    const api = new ApiClient({ getToken: () => null });
    // Each call sits in a function that is never run: only the compiler reads them.
    return [
      // @ts-expect-error a body of the wrong shape
      () => api.call(routes.groups.update, { params: { id: 'g1' }, body: { name: 5 } }),
      // @ts-expect-error the params are missing
      () => api.call(routes.groups.update, { body: { name: 'n' } }),
      // @ts-expect-error a body where the endpoint takes none
      () => api.call(routes.users.me, { body: { nickname: 'x' } }),
      // @ts-expect-error JSON where the endpoint takes a form
      () => api.call(routes.users.setAvatar, { body: { file: 'x' } }),
      // @ts-expect-error no input at all where params are needed
      () => api.call(routes.contacts.block),
      // @ts-expect-error a result of another type than the declared one
      (): Promise<string> => api.call(routes.users.me),
    ];
  });
});
