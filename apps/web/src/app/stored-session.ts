/*
 * The session token as this device keeps it: a bare string in localStorage, so the entry
 * can tell a signed-in visitor from a signed-out one before loading the app, and other
 * tabs can follow. auth-store.ts is the app's reader and writer.
 */

export const TOKEN_STORAGE_KEY = 'teltlk.token';

export function readStoredToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_STORAGE_KEY) || null;
  } catch {
    // Storage can throw when disabled (private modes, blocked cookies).
    return null;
  }
}

export function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Without storage the session lasts for this visit only.
  }
}
