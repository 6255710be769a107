// The errors the engine's calls fail with are the REST client's.
export { ApiError, StepUpCancelled } from '@teltlk/client';
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
export { CALL_REQUEST_TIMEOUT_MS, CallsClient, type CallEvents } from './calls.js';
