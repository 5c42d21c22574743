// The playground's HTTP calls: the key goes in the Authorization header; errors come back as the spec's envelope
// and are shown with their code and request id.

export class ApiError extends Error {
  constructor(status, envelope, requestId) {
    const error = envelope?.error ?? {};
    super(error.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = error.code ?? 'http_error';
    this.requestId = error.request_id ?? requestId ?? '';
  }

  describe() {
    return `${this.status} ${this.code}: ${this.message}${this.requestId ? ` (request ${this.requestId})` : ''}`;
  }
}

async function failure(response) {
  let envelope;
  try {
    envelope = await response.json();
  } catch {
    envelope = undefined;
  }
  return new ApiError(response.status, envelope, response.headers.get('X-Request-Id'));
}

export function createApi(getKey) {
  const headers = (json) => ({ Authorization: `Bearer ${getKey()}`, ...(json ? { 'Content-Type': 'application/json' } : {}) });

  return {
    async voices() {
      const response = await fetch('/v1/voices?group_by=language', { headers: headers(false) });
      if (!response.ok) throw await failure(response);
      return response.json();
    },

    async generate(body) {
      const response = await fetch('/v1/tts/generate', { method: 'POST', headers: headers(true), body: JSON.stringify(body) });
      if (!response.ok) throw await failure(response);
      return response.json();
    },

    /** Reads the whole stream, reporting when the first bytes arrived. */
    async stream(body, onFirstBytes) {
      const response = await fetch('/v1/tts/stream', { method: 'POST', headers: headers(true), body: JSON.stringify(body) });
      if (!response.ok) throw await failure(response);
      const reader = response.body.getReader();
      const parts = [];
      let length = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (length === 0) onFirstBytes();
        parts.push(value);
        length += value.length;
      }
      const bytes = new Uint8Array(length);
      let offset = 0;
      for (const part of parts) {
        bytes.set(part, offset);
        offset += part.length;
      }
      return { bytes, charactersUsed: Number(response.headers.get('X-Characters-Used')) };
    },

    async simulateCall(body) {
      const response = await fetch('/v1/playground/call-sim', { method: 'POST', headers: headers(true), body: JSON.stringify(body) });
      if (!response.ok) throw await failure(response);
      return response.json();
    },
  };
}
