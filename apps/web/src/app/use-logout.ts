import { useMutation } from '@tanstack/react-query';
import { usePageTexts } from '../i18n/pages';
import { useNavigate } from 'react-router';
import { routes } from '@teltlk/client';
import { api } from '../api/client';
import { forgetMediaAddresses } from '../api/media-urls';
import { useAuthStore } from './auth-store';
import { forgetLocalData } from './engine';
import { paths } from './paths';
import { confirmModal } from '../ui/modal';

/** Log out after a confirmation: the server ends the session, this device forgets it. */
export function useLogout() {
  const { t } = usePageTexts();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: async () => {
      // The engine stops first, at once: ending the session makes the server close this
      // very session's socket, and that must not read as being signed out elsewhere
      // (which keeps the chats on the device) before they are deleted.
      const forgetting = forgetLocalData().catch(() => {
        // A cache that cannot be deleted now (blocked by another tab) is no reason to stay.
      });
      try {
        await api.call(routes.sessions.logout);
      } catch {
        // Signed out here either way; an unreachable server lets the token expire on its own.
      }
      await forgetting;
    },
    onSettled: () => {
      forgetMediaAddresses();
      useAuthStore.getState().signOut();
      void navigate(paths.root, { replace: true });
    },
  });
  return {
    isPending: logout.isPending,
    confirmAndLogout: async () => {
      if (await confirmModal(t('settings.logoutConfirm'))) logout.mutate();
    },
  };
}
