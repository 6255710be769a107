export * from './api.js';
export * from './chat.js';
export * from './groups.js';
export * from './constants.js';
export * from './errors.js';
export * from './validation.js';
export { LANGUAGES, findLanguage, isLanguageCode, type Language } from './languages.js';
export * from './translation.js';
export * from './media.js';
