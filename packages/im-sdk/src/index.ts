export { ApiClient, type ApiClientOptions } from './api-client.js';
export { ApiError } from './api-error.js';
export { ImEngine, PAGE_SIZE, type EngineOptions } from './engine.js';
export type {
  ConnectionState,
  ConversationHandle,
  ConversationSnapshot,
  ConversationView,
  EngineError,
  EngineEvents,
  EngineSnapshot,
  EngineStatus,
  LocalMessage,
} from './types.js';
export { newClientMsgId } from './outbox.js';
export { needsTranslation, translationTarget, type TranslationScope } from './translation.js';
