export {
  type ApiDownload,
  type ApiResponse,
  type CallArgs,
  type CallOptions,
  type ClientOptions,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_USER_AGENT,
  type DownloadOperationId,
  type ListItem,
  type PathParams,
  type QueryParams,
  type RateLimit,
  type RequestBody,
  type RequestOptions,
  type ResponseData,
  WorkcellClient,
} from './client.js';
export type { components, operations } from './generated/v1-types.js';
export { endpointFor } from './endpoint.js';
export {
  type ApiErrorItem,
  apiErrorFor,
  WorkcellApiError,
  WorkcellAuthenticationError,
  WorkcellClientError,
  WorkcellConflictError,
  WorkcellConnectionError,
  WorkcellError,
  WorkcellNotFoundError,
  WorkcellPermissionError,
  WorkcellRateLimitError,
  WorkcellServerError,
  WorkcellTimeoutError,
  WorkcellValidationError,
} from './errors.js';
export { type OperationId, OPERATIONS, type OperationSpec, REGISTRY_DIGEST } from './generated/operations.js';
export { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, type RetryPolicy, shouldRetry } from './retry.js';
export { verifyWebhook, type WebhookEvent, WorkcellWebhookVerificationError } from './webhooks.js';
