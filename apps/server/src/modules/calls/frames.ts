import type { ClientFrame, ServerFrame } from '@teltlk/protocol';
import type { AppContext } from '../../context.js';
import { FRAME_LIMITS } from '../../realtime/limits.js';
import type { AuthInfo } from '../auth/sessions.js';
import type { CallAction } from './service.js';

/** The socket frames of calls (their transitions, and the relay of one-to-one signalling). */
export type CallFrame = Extract<ClientFrame, { t: `call${string}` }>;

export function isCallFrame(frame: ClientFrame): frame is CallFrame {
  return frame.t.startsWith('call');
}

/**
 * Handles a call frame of an open socket: counted in its FRAME_LIMITS class, then
 * answered with the call as it now stands (`call` with the frame's rid) or an error (a
 * relayed signal is answered only if it fails).
 */
export async function handleCallFrame(
  ctx: AppContext,
  auth: AuthInfo,
  frame: CallFrame,
  reply: (frame: ServerFrame) => void,
  fail: (rid: string | null, error: unknown) => void,
): Promise<void> {
  const { calls } = ctx.services;
  const rid = frame.t === 'callSignal' ? null : frame.rid;
  try {
    await ctx.limits.consume(FRAME_LIMITS[frame.t], auth.userId);
    switch (frame.t) {
      case 'callSignal':
        return await calls.signal(auth, frame.callId, frame.signal);
      case 'callInvite':
        return reply({ t: 'call', rid: frame.rid, call: await calls.invite(auth, frame) });
      default:
        return reply({
          t: 'call',
          rid: frame.rid,
          call: await calls.act(auth, frame.callId, actionOf(frame)),
        });
    }
  } catch (error) {
    fail(rid, error);
  }
}

function actionOf(frame: Exclude<CallFrame, { t: 'callInvite' | 'callSignal' }>): CallAction {
  switch (frame.t) {
    case 'callAccept':
      return { type: 'accept' };
    case 'callReject':
      return { type: 'reject' };
    case 'callCancel':
      return { type: 'cancel' };
    case 'callHangup':
      return { type: 'hangup' };
    case 'callMedia':
      return { type: 'media', state: frame.state };
  }
}
