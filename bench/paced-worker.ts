// The load worker of bench/paced.ts (started by it on a worker thread; not a benchmark of its own).
// Raw keep-alive sockets with request bytes built once, one request in flight per socket, and a
// 1 ms timer that sends every request whose due time has passed: a timer sleeps between ticks
// where a setImmediate loop would burn the core the server under test needs.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { ResponseParser } from './http-response-parser.ts';
import type { PacedResult, PacedWorkerInput } from './paced.ts';

interface Connection {
  socket: net.Socket | null;
  parser: ResponseParser;
  /** The request in flight (its index in the schedule), or -1. */
  k: number;
  due: number;
  sentAt: number;
}

/** Each body's whole request (head and body), built once so sending is one write of ready bytes. */
function requestBuffers(o: PacedWorkerInput, url: URL): Buffer[] {
  const names = new Set(Object.keys(o.headers).map((h) => h.toLowerCase()));
  let head = `${o.method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  if (!names.has('host')) head += `Host: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(o.headers)) {
    if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`; // ours is the true one
  }
  return o.bodies.map((text) => {
    const body = Buffer.from(text);
    const length = body.length > 0 || !['GET', 'DELETE'].includes(o.method) ? `Content-Length: ${body.length}\r\n` : '';
    return Buffer.concat([Buffer.from(`${head}${length}\r\n`), body]);
  });
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

async function main(o: PacedWorkerInput): Promise<PacedResult> {
  const url = new URL(o.url);
  if (url.protocol !== 'http:') throw new Error(`paced: only http:// URLs (${o.url})`);
  const port = Number(url.port || 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const buffers = requestBuffers(o, url);

  const interval = 1000 / o.rate;
  const warmup = Math.round(o.rate * o.warmupSeconds);
  const total = warmup + Math.round(o.rate * o.durationSeconds);
  const latencies = new Float64Array(total - warmup);
  const lags = new Float64Array(total - warmup);
  let sent = 0,
    completed = 0,
    errors = 0,
    non2xx = 0,
    completedInTime = 0;
  // Requests [sendNext, dueNext) are due and wait for a free connection, oldest first.
  let dueNext = 0,
    sendNext = 0;
  let t0 = 0;
  let end = Infinity;
  const measured = (k: number) => k >= warmup;

  const conns: Connection[] = [];
  const free: Connection[] = []; // oldest-freed first, so every socket keeps being used (no idle keep-alive timeouts)

  const drop = (c: Connection) => {
    const s = c.socket;
    c.socket = null; // first, so its 'close' is known as ours and not counted again
    s?.destroy();
  };
  /** The socket is unusable: its request in flight, if any, is an error; a new socket is opened on next use. */
  const fail = (c: Connection) => {
    if (c.k >= 0) {
      if (measured(c.k)) errors++;
      c.k = -1;
      free.push(c);
    }
    drop(c);
  };
  const answered = (c: Connection, status: number, close: boolean) => {
    if (c.k < 0) return fail(c); // a response to no request: the stream is out of step
    if (measured(c.k)) {
      completed++;
      if (status < 200 || status >= 300) non2xx++;
      const now = performance.now();
      latencies[completed - 1] = now - c.due;
      if (now <= end) completedInTime++;
    }
    c.k = -1;
    if (close) drop(c);
    free.push(c);
  };
  const pump = () => {
    while (sendNext < dueNext && free.length > 0) send(free.shift()!, sendNext++);
  };
  const open = (c: Connection): net.Socket => {
    const socket = net.connect({ host, port });
    socket.setNoDelay(true);
    c.socket = socket;
    c.parser = new ResponseParser((status, close) => answered(c, status, close));
    socket.on('data', (chunk: Buffer) => {
      if (c.socket !== socket) return;
      try {
        c.parser.push(chunk);
      } catch {
        fail(c); // a parse error: the stream cannot be trusted
      }
      pump(); // after the whole chunk, so stray bytes are never taken for the next request's answer
    });
    socket.on('error', () => {}); // 'close' follows and does the counting
    socket.on('close', () => {
      if (c.socket !== socket) return;
      fail(c);
      pump();
    });
    return socket;
  };
  const send = (c: Connection, k: number) => {
    const socket = c.socket ?? open(c);
    c.k = k;
    c.due = t0 + k * interval;
    c.sentAt = performance.now();
    if (measured(k)) lags[sent++] = c.sentAt - c.due;
    socket.write(buffers[k % buffers.length]!);
  };

  // Connect every socket before the clock starts (bounded): connection set-up is not the server's latency.
  const connected: Promise<void>[] = [];
  for (let i = 0; i < o.connections; i++) {
    const c: Connection = { socket: null, parser: new ResponseParser(() => {}), k: -1, due: 0, sentAt: 0 };
    conns.push(c);
    free.push(c);
    const socket = open(c);
    connected.push(new Promise((done) => socket.once('connect', done).once('close', done)));
  }
  await Promise.race([Promise.all(connected), new Promise((done) => setTimeout(done, 2000))]);

  t0 = performance.now();
  end = t0 + total * interval;
  await new Promise<void>((finished) => {
    const tick = () => {
      const now = performance.now();
      // Request k is due at t0 + k·interval, answered or not the ones before (open loop).
      dueNext = Math.max(dueNext, Math.min(total, Math.floor((now - t0) / interval) + 1));
      for (const c of conns) if (c.k >= 0 && now - c.sentAt > o.timeoutMs) fail(c);
      pump();
      // Queued requests still go out after the end (late, and charged for it); the drain bounds that.
      const idle = sendNext === total && free.length === conns.length;
      if (dueNext === total && (idle || now > end + o.drainMs)) {
        clearInterval(timer);
        finished();
      }
    };
    const timer = setInterval(tick, 1);
    tick();
  });

  const unsent = total - Math.max(sendNext, warmup);
  for (const c of conns) fail(c); // still in flight after the drain: timeouts
  const lat = latencies.subarray(0, completed).sort();
  const lag = lags.subarray(0, sent).sort();
  return {
    rate: o.rate,
    sent,
    completed,
    errors,
    non2xx,
    unsent,
    achievedRate: completedInTime / o.durationSeconds,
    p50: percentile(lat, 0.5),
    p90: percentile(lat, 0.9),
    p99: percentile(lat, 0.99),
    p999: percentile(lat, 0.999),
    max: lat.length ? lat[lat.length - 1]! : NaN,
    sendLag: { p50: percentile(lag, 0.5), p99: percentile(lag, 0.99) },
  };
}

const input = workerData as PacedWorkerInput | undefined;
if (!parentPort || !input?.rate)
  throw new Error('bench/paced-worker.ts is the load worker of bench/paced.ts: start it with paced()');
const port = parentPort;
main(input).then((result) => port.postMessage(result));
