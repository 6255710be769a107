import { useMutation, useQueryClient } from '@tanstack/react-query';
import { routes } from '@teltlk/client';
import type { UpdateProfileBody } from '@teltlk/protocol';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';

/** PATCH /me; the answer replaces the cached profile. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileBody) => api.call(routes.users.updateProfile, { body }),
    onSuccess: (me) => queryClient.setQueryData(queryKeys.me(), me),
  });
}
