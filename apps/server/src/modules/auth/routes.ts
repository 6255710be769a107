import type { authEndpoints, sessionEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { byPhonePrefix, type Handlers, type Servings } from '../../http/endpoints.js';
import { meteringAccountAnswers } from './account-answers.js';

// The Pi sign-in routes meter their answers and count their codes the same way.
export { byDestination } from '../../http/endpoints.js';
export { meteringAccountAnswers } from './account-answers.js';

/** Codes, registration, sign-in and password reset. */
export function authHandlers({ services, limits }: AppContext): Handlers<typeof authEndpoints> {
  const { auth, codes } = services;
  return {
    sendCode: ({ body, request, language }) =>
      meteringAccountAnswers(limits, request, () => codes.send(body, { ip: request.ip, language })),
    verifyCode: ({ body }) => codes.verifyForRegistration(body),
    register: ({ body, client }) => auth.register(body, client),
    login: ({ body, client, request }) =>
      meteringAccountAnswers(limits, request, () => auth.login(body, client)),
    loginWithCode: ({ body, client }) => auth.loginWithCode(body, client),
    resetPassword: ({ body, client }) => auth.resetPassword(body, client),
  };
}

export const authServing: Servings<typeof authEndpoints> = {
  sendCode: {
    keys: {
      // Phone codes only, all together; counted before the account is known, so known and
      // unknown numbers cost the same.
      smsGlobal: (request) => (byPhonePrefix(request) === null ? null : 'all'),
    },
  },
};

/** Sign-out and the session list. */
export function sessionHandlers({ services }: AppContext): Handlers<typeof sessionEndpoints> {
  const { sessions, security } = services;
  return {
    logout: ({ auth }) => services.auth.logout(auth),
    list: async ({ auth }) => ({ sessions: await sessions.list(auth) }),
    signOut: ({ auth, params, client }) => security.signOut(auth, params.id, client),
  };
}
