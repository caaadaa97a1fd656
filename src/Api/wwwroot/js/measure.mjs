// Measures one download the way the page reports it: the body read as a stream (for progress and cancelling), the
// times to its first and last byte from Resource Timing, and the decode in a worker, so that the page stays
// responsive and a cancel takes effect even while a million members are being parsed.

/** Formats whose reader ships with the API, so the page can time a decode: JSON.parse, and our binary reader. */
export const decodedFormats = new Set(['json', 'binary']);

/** The request for a format, as its absolute URL and the headers the page sends. */
export function requestFor(format, count) {
  const url = new URL(`/api/organization?count=${count}`, location.href).href;
  return { url, headers: { Accept: format.mediaType } };
}

/** A curl command that makes the same request and prints the same three measures. */
export function curlFor(format, count) {
  const { url } = requestFor(format, count);
  return `curl -sS --compressed -o /dev/null -H 'Accept: ${format.mediaType}' `
    + `-w 'transferred %{size_download} B, first byte %{time_starttransfer} s, last byte %{time_total} s\\n' '${url}'`;
}

/**
 * Downloads the organization in one format and returns { bytes, transferred, encoding, firstByteMs, lastByteMs,
 * timing }. onReceived(bytes) is called as chunks arrive. Rejects with an AbortError when signal aborts.
 */
export async function download(format, count, signal, onReceived) {
  const { url, headers } = requestFor(format, count);

  // Only this request's entry is left to find afterwards: every format asks for the same URL.
  performance.clearResourceTimings();
  const started = performance.now();
  const response = await fetch(url, { headers, signal, cache: 'no-store' });
  const headersAt = performance.now();
  if (!response.ok) {
    const problem = await response.json().catch(() => null);
    throw new Error(`${response.status} ${problem?.detail ?? response.statusText}`);
  }

  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  let firstChunkAt;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }

    firstChunkAt ??= performance.now();
    chunks.push(value);
    received += value.length;
    onReceived(received);
  }

  const lastChunkAt = performance.now();
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }

  const entry = await resourceEntry(url);
  const result = {
    body,
    bytes: received,
    encoding: response.headers.get('Content-Encoding') ?? 'identity',
    transferred: entry && entry.encodedBodySize > 0 ? entry.encodedBodySize : received,
  };

  // Resource Timing measures from the request's start to the response's first and last byte, as curl's
  // time_starttransfer and time_total do; the stream's own times stand in when the browser gives no entry.
  if (entry && entry.responseStart > 0 && entry.responseEnd >= entry.responseStart) {
    return { ...result, firstByteMs: entry.responseStart - entry.startTime, lastByteMs: entry.responseEnd - entry.startTime, timing: 'resource-timing' };
  }

  return { ...result, firstByteMs: (firstChunkAt ?? headersAt) - started, lastByteMs: lastChunkAt - started, timing: 'stream' };
}

// The entry is queued when the body is done, which may be a task after the last read resolves.
async function resourceEntry(url) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const entry = performance.getEntriesByName(url, 'resource').at(-1);
    if (entry && entry.responseEnd > 0) {
      return entry;
    }

    await new Promise((resolve) => setTimeout(resolve, 10));
  }

  return undefined;
}

/**
 * Decodes a body in a worker and returns { ms, members }. The body's buffer is handed over, not copied. On abort the
 * worker is ended and the promise rejects with an AbortError.
 */
export function decode(formatKey, body, signal) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./decode-worker.mjs', import.meta.url), { type: 'module' });
    const finish = (settle, value) => {
      signal.removeEventListener('abort', abort);
      worker.terminate();
      settle(value);
    };
    const abort = () => finish(reject, new DOMException('The run was cancelled.', 'AbortError'));
    signal.addEventListener('abort', abort, { once: true });
    worker.onmessage = ({ data }) => (data.error ? finish(reject, new Error(data.error)) : finish(resolve, data));
    worker.onerror = (event) => {
      event.preventDefault();
      finish(reject, new Error(event.message || 'the decoder failed to start'));
    };
    worker.postMessage({ format: formatKey, buffer: body.buffer }, [body.buffer]);
  });
}
