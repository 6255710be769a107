/**
 * What the browser tests, the benchmarks and the server's crash test share: a server on
 * a free port, waited for until healthy, and accounts and friendships made through the
 * public API.
 */
export {
  freePort,
  inTempDataDir,
  spawnServer,
  waitForHealth,
  type ServerOptions,
  type SpawnedServer,
} from './server.js';
export {
  befriend,
  callApi,
  codeFor,
  registerAccount,
  type Account,
  type CallOptions,
  type NewAccount,
} from './api.js';
export { LocalPushService, type LocalSubscription, type ReceivedPush } from './push-service.js';
export {
  GroupCallDevice,
  serveGroupCallPage,
  type EvaluatingPage,
  type GroupCallPageServer,
  type PageIceServer,
  type PageJoin,
  type PageJoinError,
  type PageReceived,
  type PageSeen,
  type SfuWay,
} from './group-call-page.js';
