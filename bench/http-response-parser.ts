// A minimal incremental HTTP/1.1 response parser for the paced load generator (bench/paced.ts):
// status line, headers, then a Content-Length or chunked body. It only counts responses; bodies
// are skipped, never decoded or kept (a load generator that builds strings from bodies measures
// itself). Responses may arrive split anywhere, or several in one chunk.

/** Malformed or unsupported response: the connection it came on cannot be trusted any more. */
export class HttpParseError extends Error {}

/** A response head larger than this is taken as garbage rather than buffered forever. */
const MAX_HEAD_BYTES = 64 * 1024;

type State = 'head' | 'body' | 'chunk-size' | 'chunk-data' | 'trailers';

export class ResponseParser {
  private state: State = 'head';
  /** Bytes of a head, chunk-size or trailer line not complete yet. */
  private pending: Buffer | null = null;
  /** Body bytes (or chunk bytes plus their CRLF) still to skip. */
  private remaining = 0;
  private status = 0;
  private close = false;

  /** `onResponse` is called once per complete response; `close` says the server will close the connection after it. */
  constructor(private readonly onResponse: (status: number, close: boolean) => void) {}

  /** No response partly read: a connection in this state may be reused or closed without loss. */
  get idle(): boolean {
    return this.state === 'head' && this.pending === null;
  }

  /** Feeds received bytes; throws HttpParseError on a malformed response. */
  push(chunk: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let i = 0;
    while (i < data.length) {
      if (this.state === 'body' || this.state === 'chunk-data') {
        const n = Math.min(this.remaining, data.length - i);
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) {
          if (this.state === 'body') this.done();
          else this.state = 'chunk-size';
        }
        continue;
      }
      const end = this.state === 'head' ? data.indexOf('\r\n\r\n', i, 'latin1') : data.indexOf('\r\n', i, 'latin1');
      if (end < 0) {
        if (data.length - i > MAX_HEAD_BYTES) throw new HttpParseError('response head or chunk line too long');
        this.pending = Buffer.from(data.subarray(i)); // a copy: the socket may reuse its buffer
        return;
      }
      const text = data.toString('latin1', i, end);
      i = end + (this.state === 'head' ? 4 : 2);
      if (this.state === 'head') this.head(text);
      else if (this.state === 'chunk-size') this.chunkSize(text);
      else if (text === '') this.done(); // the empty line that ends the trailers
    }
  }

  private head(text: string): void {
    const lines = text.split('\r\n');
    const statusLine = lines[0]!;
    const status = Number(statusLine.slice(9, 12));
    if (!statusLine.startsWith('HTTP/1.') || statusLine[8] !== ' ' || !Number.isInteger(status) || status < 100) {
      throw new HttpParseError(`bad status line: ${JSON.stringify(statusLine.slice(0, 40))}`);
    }
    let length: number | undefined;
    let chunked = false;
    let close = statusLine.startsWith('HTTP/1.0');
    for (let h = 1; h < lines.length; h++) {
      const line = lines[h]!;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new HttpParseError(`bad header line: ${JSON.stringify(line.slice(0, 40))}`);
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') {
        length = Number(value);
        if (!Number.isSafeInteger(length) || length < 0) throw new HttpParseError(`bad content-length: ${value}`);
      } else if (name === 'transfer-encoding') chunked = value.split(',').at(-1)!.trim() === 'chunked';
      else if (name === 'connection') close = value.split(',').some((v) => v.trim() === 'close');
    }
    this.status = status;
    this.close = close;
    // 1xx (interim), 204 and 304 carry no body whatever their headers say (RFC 9112 §6.3).
    if (status < 200) {
      this.state = 'head'; // an interim response: the real one follows, not counted
    } else if (status === 204 || status === 304) {
      this.done();
    } else if (chunked) {
      this.state = 'chunk-size';
    } else if (length !== undefined) {
      this.remaining = length;
      this.state = 'body';
      if (length === 0) this.done();
    } else {
      // A body delimited by closing the connection cannot be told apart from a dropped one.
      throw new HttpParseError('response without Content-Length or chunked encoding');
    }
  }

  private chunkSize(text: string): void {
    const hex = text.split(';')[0]!.trim(); // chunk extensions are ignored
    const size = /^[0-9a-fA-F]{1,12}$/.test(hex) ? parseInt(hex, 16) : NaN;
    if (Number.isNaN(size)) throw new HttpParseError(`bad chunk size: ${JSON.stringify(text.slice(0, 20))}`);
    if (size === 0) {
      this.state = 'trailers';
    } else {
      this.remaining = size + 2; // the chunk's data and the CRLF after it
      this.state = 'chunk-data';
    }
  }

  private done(): void {
    this.state = 'head';
    this.remaining = 0;
    this.onResponse(this.status, this.close);
  }
}
