import { Navigate, Outlet } from 'react-router';
import { useAuthStore } from './auth-store';
import { paths } from './paths';

export function useSignedIn(): boolean {
  return useAuthStore((state) => state.token !== null);
}

/** Pages that need a session; signed-out visitors go to the root page (sign in). */
export function RequireAuth() {
  return useSignedIn() ? <Outlet /> : <Navigate to={paths.root} replace />;
}

/** Sign-in and registration pages; a signed-in person goes to the chat list. */
export function GuestOnly() {
  return useSignedIn() ? <Navigate to={paths.root} replace /> : <Outlet />;
}
