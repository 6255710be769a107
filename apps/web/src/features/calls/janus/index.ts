/**
 * Group calls' media: the browser's own client of Janus's VideoRoom (its HTTP API), which
 * the call screen gives the way into the room from POST /calls/:id/sfu.
 */
export { JanusError } from './api';
export {
  joinGroupCall,
  type GroupCall,
  type GroupCallEvent,
  type GroupCallOptions,
} from './group-call';
