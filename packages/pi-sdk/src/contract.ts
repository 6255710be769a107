/** What both sides of the SDK share, without the browser: rules, types, host messages. */
export * from './rules.js';
export type * from './types.js';
export * from './host-protocol.js';
