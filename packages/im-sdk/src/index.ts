export { ApiClient, ApiError, type ApiClientOptions } from './api-client.js';
