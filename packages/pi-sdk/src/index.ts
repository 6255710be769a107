export * from './contract.js';
export { HostChannel, parentWindowPort, type HostPort } from './host-channel.js';
export * from './client.js';
export { isPiBrowserAgent } from './agent.js';
