import type { Channel } from '@teltlk/protocol';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * The phone number or email being typed on the register, code sign-in and reset
 * pages; kept while the person visits the area-code list and between those pages.
 */
interface ContactDraft {
  channel: Channel;
  /** Region whose dial code prefixes the phone number; null until chosen or guessed. */
  dialCountry: string | null;
  phoneNumber: string;
  email: string;
  update: (patch: Partial<Omit<ContactDraft, 'update'>>) => void;
}

export const useContactDraft = create<ContactDraft>()(
  persist(
    (set) => ({
      channel: 'phone',
      dialCountry: null,
      phoneNumber: '',
      email: '',
      update: (patch) => set(patch),
    }),
    {
      name: 'teltlk.contact',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ channel, dialCountry, phoneNumber, email }) => ({
        channel,
        dialCountry,
        phoneNumber,
        email,
      }),
    },
  ),
);
