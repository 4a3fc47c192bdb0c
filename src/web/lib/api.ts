import { t } from '@lingui/core/macro';

// The one way the web app talks to the API: same-origin JSON with the session cookie. Its own messages
// (no connection, an answer without one) are written in the app's language when the request fails.

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly code?: string,
    public readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function toError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as {
      message?: string;
      code?: string;
      issues?: { path: string; message: string }[];
    };
    if (body.message) return new ApiError(response.status, body.message, body.code, body.issues);
  } catch {
    // Not JSON (a proxy's error page, say): fall through to the status text.
  }
  const status = response.status;
  return new ApiError(status, text.trim() || response.statusText || t`Request failed (${status})`);
}

function networkError(): ApiError {
  return new ApiError(0, t`Network error: check your connection and try again.`, 'NETWORK');
}

/** Requests that change something carry an Idempotency-Key (decision 039); reads do not need one. */
const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Pauses before asking again when the answer was lost (no connection), was "try again" (503), or the
 * first try is still being processed: the same key, so the server does the action once and a retry
 * gets its first answer.
 */
const RETRY_DELAYS_MS = [300, 1000];

function answerLost(error: ApiError): boolean {
  return error.code === 'NETWORK' || error.status === 503 || error.code === 'IDEMPOTENCY_KEY_IN_FLIGHT';
}

/** A fresh key: `crypto.randomUUID` exists only in secure contexts, `getRandomValues` everywhere. */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** One user action: `idempotencyKey` is new for each, unless the caller retries an action of its own. */
export async function apiRequest<T>(
  method: string,
  path: string,
  body?: unknown,
  options: { idempotencyKey?: string } = {},
): Promise<T> {
  const key = CHANGES.has(method) ? (options.idempotencyKey ?? newKey()) : undefined;
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['idempotency-key'] = key;
  for (let attempt = 0; ; attempt++) {
    try {
      return await send<T>(method, path, headers, body);
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (!key || delay === undefined || !(error instanceof ApiError) || !answerLost(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

async function send<T>(method: string, path: string, headers: Record<string, string>, body: unknown) {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers: Object.keys(headers).length ? headers : undefined,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw networkError();
  }
  if (!response.ok) throw await toError(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A multipart upload (a profile photo): the browser sets the boundary; the same errors as JSON calls. */
export async function apiUpload<T>(path: string, form: FormData): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { 'idempotency-key': newKey() },
      body: form,
    });
  } catch {
    throw networkError();
  }
  if (!response.ok) throw await toError(response);
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** The server's message for a failed request, else the fallback the spec gives for that action. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}
