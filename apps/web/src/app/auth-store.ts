import { create } from 'zustand';
import { persist, type PersistStorage } from 'zustand/middleware';
import { readStoredToken, storeToken, TOKEN_STORAGE_KEY } from './stored-session';

interface AuthState {
  token: string | null;
  signIn: (token: string) => void;
  signOut: () => void;
}

type Persisted = Pick<AuthState, 'token'>;

/**
 * Keeps only the token, as a plain string, so other tabs and tools can read it; who
 * the user is comes from the server through TanStack Query.
 */
const tokenStorage: PersistStorage<Persisted> = {
  getItem: () => {
    const token = readStoredToken();
    return token ? { state: { token } } : null;
  },
  setItem: (_name, value) => storeToken(value.state.token),
  removeItem: () => storeToken(null),
};

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      token: null,
      signIn: (token) => set({ token }),
      signOut: () => set({ token: null }),
    }),
    {
      name: TOKEN_STORAGE_KEY,
      storage: tokenStorage,
      partialize: (state) => ({ token: state.token }),
    },
  ),
);

/** Signing in or out in another tab applies here too. */
export function followOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== TOKEN_STORAGE_KEY) return;
    if (event.newValue !== useAuthStore.getState().token) {
      useAuthStore.setState({ token: event.newValue });
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
