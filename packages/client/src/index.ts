export {
  ApiClient,
  type ApiClientOptions,
  type CallArgs,
  type CallOptions,
  type StepUpAsk,
} from './api-client.js';
export { ApiError, StepUpCancelled } from './api-error.js';
export type { EndpointOf, ResultKind, Route, RoutesOf } from './route.js';
export { routes } from './routes.js';
