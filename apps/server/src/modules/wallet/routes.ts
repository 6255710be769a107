import type { walletEndpoints } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import type { Handlers } from '../../http/endpoints.js';

/** The signed-in person's wallet and payment password. */
export function walletHandlers({
  services: { wallets },
}: AppContext): Handlers<typeof walletEndpoints> {
  return {
    wallet: ({ auth }) => wallets.wallet(auth),
    create: ({ auth }) => wallets.create(auth),
    setPassword: ({ auth, body, client }) => wallets.setPassword(auth, body.password, client),
    changePassword: ({ auth, body, client }) => wallets.changePassword(auth, body, client),
    verifyPassword: ({ auth, body }) => wallets.verify(auth, body.password),
    sendResetCode: ({ auth, body, request, language }) =>
      wallets.sendResetCode(auth, body, { ip: request.ip, language }),
    resetPassword: ({ auth, body, client }) => wallets.resetPassword(auth, body, client),
  };
}
