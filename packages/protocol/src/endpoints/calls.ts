import { callParams, currentCallsResult, iceServersResult, sfuJoinResult } from '../calls.js';
import { endpoint } from '../contract.js';

/**
 * What a calling device reads over HTTP: the transitions themselves are socket frames
 * (calls.ts), these are the state read back after a reconnect, the ICE servers with
 * their short-lived TURN credentials, and a group call's way into the SFU.
 */
export const callEndpoints = {
  current: endpoint({
    method: 'GET',
    path: '/calls/current',
    result: currentCallsResult,
    errors: [],
    access: 'session',
    limits: ['callReadPerUser'],
    summary: 'The calls one is in that have not ended (ringing, accepted or connected)',
    tags: ['calls'],
  }),
  iceServers: endpoint({
    method: 'GET',
    path: '/calls/ice-servers',
    result: iceServersResult,
    errors: [],
    access: 'session',
    limits: ['callReadPerUser'],
    summary: 'STUN and TURN servers, with TURN credentials that expire',
    tags: ['calls'],
  }),
  sfu: endpoint({
    method: 'POST',
    path: '/calls/:id/sfu',
    params: callParams,
    result: sfuJoinResult,
    errors: ['CALL_NOT_FOUND', 'CALL_STATE_CHANGED', 'FEATURE_UNAVAILABLE'],
    access: 'session',
    limits: ['callSfuPerUser'],
    summary: "A group call's room on the SFU and this person's join token (once joined)",
    tags: ['calls'],
  }),
};
