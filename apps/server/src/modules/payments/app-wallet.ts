import { Keypair } from '@stellar/stellar-sdk/minimal';
import { ConfigError } from '../../config.js';

/** The app wallet's key pair from its secret seed; a seed that does not check out stops the start. */
export function appWalletOf(secret: string): Keypair {
  try {
    return Keypair.fromSecret(secret);
  } catch {
    throw new ConfigError(
      'Invalid configuration:\n  PI_WALLET_SECRET: not a valid Stellar secret seed',
    );
  }
}
