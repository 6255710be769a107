import type { Sensitivity } from '@teltlk/protocol';
import type { onRequestAsyncHookHandler } from 'fastify';
import type { StepUpRule } from '../modules/security/step-up.js';
import { authOf } from './auth.js';

/**
 * A sensitive route (see StepUpRule) and where its proof comes from: `session`, a step-up
 * made on the session (checked by the hook below before any work); `inline`, a secret in
 * the request that its service checks (a payment password, the current password);
 * `conditional`, only some calls are sensitive and the service says which (replacing an
 * address, not adding a first one). The permission matrix reads this.
 */
export interface RouteSensitivity {
  level: Sensitivity;
  proof: 'session' | 'inline' | 'conditional';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    sensitive?: RouteSensitivity;
  }
}

/** Refuses a `session`-proven sensitive route with STEP_UP_REQUIRED unless the session may. */
export function requireStepUp(rule: StepUpRule): onRequestAsyncHookHandler {
  return async (request) => {
    const sensitive = request.routeOptions.config.sensitive;
    if (sensitive?.proof === 'session') await rule.require(authOf(request), sensitive.level);
  };
}
