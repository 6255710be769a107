/** Query keys of server data that is not messaging. Everything of the user sits under `me`. */
export const queryKeys = {
  me: () => ['me'] as const,
  settings: () => ['me', 'settings'] as const,
  sessions: () => ['me', 'sessions'] as const,
  countries: () => ['meta', 'countries'] as const,
};
