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

export async function apiRequest<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
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
    response = await fetch(path, { method: 'POST', credentials: 'include', body: form });
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
