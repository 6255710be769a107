import { create } from 'zustand';

/** Badge counts of the tab bar; contacts will count pending friend requests. */
interface TabBadges {
  home: number;
  contacts: number;
  setBadge: (tab: 'home' | 'contacts', count: number) => void;
}

export const useTabBadges = create<TabBadges>()((set) => ({
  home: 0,
  contacts: 0,
  setBadge: (tab, count) => set({ [tab]: Math.max(0, count) }),
}));

/** Badge text: nothing for zero, "99+" past 99 (spec: badge text, empty when none). */
export function badgeText(count: number | undefined): string | null {
  if (!count || count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
