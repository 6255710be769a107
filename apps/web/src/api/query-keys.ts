/** Query keys of server data that is not messaging. Everything of the user sits under `me`. */
export const queryKeys = {
  me: () => ['me'] as const,
  settings: () => ['me', 'settings'] as const,
  sessions: () => ['me', 'sessions'] as const,
  /** Whether this session may do sensitive actions now, and how the account can prove it. */
  stepUp: () => ['me', 'step-up'] as const,
  securityActivity: () => ['me', 'security-activity'] as const,
  deviceLogin: (id: string) => ['device-login', id] as const,
  countries: () => ['meta', 'countries'] as const,
  friends: () => ['me', 'friends'] as const,
  friendRequests: () => ['me', 'friend-requests'] as const,
  blocks: () => ['me', 'blocks'] as const,
  /** Another user as the signed-in user sees them (relation, remark, blocked). */
  person: (userId: string) => ['me', 'people', userId] as const,
  officialAccounts: () => ['official-accounts'] as const,
  mediaLimits: () => ['meta', 'media-limits'] as const,
  favourites: () => ['me', 'face-favourites'] as const,
  piConfig: () => ['meta', 'pi'] as const,
};
