/**
 * What other packages' tests take from the server: the app in-process (harness.ts), a
 * socket client that waits for frames, and a translation provider that answers on cue.
 */
export * from './harness.js';
export { TestSocket } from './test-client.js';
export { FakeProvider, type FakeMode } from './fake-provider.js';
