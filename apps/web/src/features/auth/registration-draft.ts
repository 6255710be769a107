import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { emptyDraft, type RegistrationDraft } from './registration-steps';

export { missingStep, type RegisterStep, type RegistrationDraft } from './registration-steps';

interface DraftStore extends RegistrationDraft {
  update: (patch: Partial<RegistrationDraft>) => void;
  reset: () => void;
}

/** What registration has gathered so far, page by page (sessionStorage, minus the password). */
export const useRegistrationDraft = create<DraftStore>()(
  persist(
    (set) => ({
      ...emptyDraft,
      update: (patch) => set(patch),
      reset: () => set(emptyDraft),
    }),
    {
      name: 'teltlk.registration',
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({
        channel,
        destination,
        ticket,
        nickname,
        country,
        motherTongue,
        inviteCode,
        pi,
      }) => ({
        channel,
        destination,
        ticket,
        nickname,
        country,
        motherTongue,
        inviteCode,
        pi,
      }),
    },
  ),
);
