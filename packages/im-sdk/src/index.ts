export {
  ApiClient,
  type ApiClientOptions,
  type Method,
  type RequestOptions,
  type StepUpAsk,
} from './api-client.js';
export { ApiError, StepUpCancelled } from './api-error.js';
export { backoffDelay } from './connection.js';
export {
  ImEngine,
  PAGE_SIZE,
  PENDING_MEDIA_ID,
  type EngineOptions,
  type MediaUploader,
  type UploadEvents,
  type UploadJob,
  type UploadProgress,
} from './engine.js';
export type {
  ConnectionState,
  ConversationHandle,
  ConversationSnapshot,
  ConversationView,
  EngineError,
  EngineEvents,
  EngineSnapshot,
  EngineState,
  EngineStatus,
  EngineView,
  LocalMessage,
  OutgoingMedia,
} from './types.js';
export { newClientMsgId } from './outbox.js';
export { needsTranslation, translationTarget, type TranslationScope } from './translation.js';
