import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { useAuthStore } from './auth-store';
import { forgetLocalData } from './engine';
import { paths } from './paths';
import { confirmModal } from '../ui/modal';

/** Log out after a confirmation: the server ends the session, this device forgets it. */
export function useLogout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useMutation({
    mutationFn: async () => {
      try {
        await api.logout();
      } catch {
        // Signed out here either way; an unreachable server lets the token expire on its own.
      }
      try {
        await forgetLocalData();
      } catch {
        // A cache that cannot be deleted now (blocked by another tab) is no reason to stay.
      }
    },
    onSettled: () => {
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
