import type { Channel, StepUpStatus } from '@teltlk/protocol';
import type { StepUpRequest } from '../../api/step-up-gate';

/** The ways of proving it is you that the step-up sheet offers. */
export type StepUpMethod = 'password' | 'code' | 'payment' | 'pi';

/**
 * What this account can prove itself with here, in the order offered: the payment
 * password only for money and never on a device on hold (the server takes it for nothing
 * else), Pi only inside the Pi Browser (where Pi can be asked for a token).
 */
export function stepUpMethods(
  status: StepUpStatus,
  request: StepUpRequest,
  inPiBrowser: boolean,
): StepUpMethod[] {
  const methods: StepUpMethod[] = [];
  if (status.methods.password) methods.push('password');
  if (codeChannels(status).length > 0) methods.push('code');
  const held = request.reason === 'hold' || status.heldUntil !== null;
  if (request.money && !held && status.methods.payment) methods.push('payment');
  if (status.methods.pi && inPiBrowser) methods.push('pi');
  return methods;
}

/** The account's own addresses a code can go to. */
export function codeChannels(status: StepUpStatus): Channel[] {
  const channels: Channel[] = [];
  if (status.methods.email !== null) channels.push('email');
  if (status.methods.phone !== null) channels.push('phone');
  return channels;
}

/**
 * Whether the session may already do what was refused: proven meanwhile, in another tab
 * or a moment ago, and not on hold; a payment-password proof counts for money only.
 */
export function mayActNow(status: StepUpStatus, request: StepUpRequest): boolean {
  if (status.heldUntil !== null || status.provenUntil === null) return false;
  return status.proof !== 'payment' || request.money;
}
