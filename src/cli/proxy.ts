// `scheme-sim proxy`: sits between a client and a target (staging, a simulator), passes every
// request and answer through as it streams, and records each exchange, secrets masked, to a JSON
// lines file that `scheme-sim replay` turns into a conformance check of another target.
import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CliError } from './cli-errors.ts';
import { resolveTarget } from './connection.ts';
import { authOf, type Exchange, maskHeaders, recordBody } from './exchange-record.ts';
import { parseCommand, usageError } from './usage.ts';

const HELP = `Usage: scheme-sim proxy --record FILE [--target URL] [--port N] [-- COMMAND ...]

Listens on --port (default 8090; 0 picks a free one) and passes every request to the target and
every answer back, streamed, all methods, headers and bodies as they are; each exchange is
appended to FILE as one JSON line, secrets masked (Authorization, cookies, Signature and
x-jws-signature headers, client_secret, access_token and other secrets in bodies; a token keeps a
fingerprint so a replay knows which token a request used). FILE is started afresh.

  --target URL  where requests go (may carry a path prefix: http://host/sandboxes/ID); default the
                simulator the CLI finds (SCHEME_SIM_URL, else a running simulator's profile)
  --record FILE the recording (JSON lines)
  --port N      the proxy's port (default 8090)
  --host H      the address it listens on (default 127.0.0.1)
  -- COMMAND    run COMMAND with PROXY_URL and SCHEME_SIM_URL set to the proxy, stop when it ends,
                and exit with its status; without it the proxy runs until SIGINT or SIGTERM
  -h, --help    this help

Replay the recording against another target: scheme-sim replay FILE --help.`;

export interface RunningProxy {
  url: string;
  close(): Promise<void>;
}

/** Hop-by-hop headers a proxy does not forward (RFC 9110 7.6.1), and the Host it rewrites. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'host']);

function forwardHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  // Answers come back unencoded, so the recording holds readable bodies.
  delete out['accept-encoding'];
  return out;
}

/**
 * A recording proxy in front of `target`: each exchange is appended to `file` once its answer has
 * ended (or its connection failed), numbered in the order the requests arrived.
 */
export function startProxy(target: string, file: string, port = 0, host = '127.0.0.1'): Promise<RunningProxy> {
  const base = new URL(target);
  const prefix = base.pathname.replace(/\/$/, '');
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  writeFileSync(file, '');
  let seq = 0;
  const write = (exchange: Exchange) => appendFileSync(file, `${JSON.stringify(exchange)}\n`);

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const exchange: Exchange = {
      seq: ++seq,
      started_at: new Date().toISOString(),
      request: {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: maskHeaders(req.headers),
        ...(req.headers.authorization ? { auth: authOf(req.headers.authorization)! } : {}),
      },
    };
    const sent: Buffer[] = [];
    const upstream = send(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method: req.method,
        path: `${prefix}${req.url ?? '/'}`,
        headers: forwardHeaders(req.headers),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
        const got: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          got.push(chunk);
          res.write(chunk);
        });
        let recorded = false;
        const finish = () => {
          if (recorded) return;
          recorded = true;
          res.end();
          exchange.request = {
            ...exchange.request,
            ...recordBody(Buffer.concat(sent), req.headers['content-type']),
          };
          exchange.response = {
            status: answer.statusCode ?? 0,
            headers: maskHeaders(answer.headers),
            ...recordBody(Buffer.concat(got), answer.headers['content-type']),
          };
          write(exchange);
        };
        answer.on('end', finish);
        // A stream the client left (an event stream) is recorded with what it carried so far.
        answer.on('close', finish);
        res.on('close', () => answer.destroy());
      },
    );
    upstream.on('error', (err) => {
      exchange.request = { ...exchange.request, ...recordBody(Buffer.concat(sent), req.headers['content-type']) };
      exchange.error = err.message;
      write(exchange);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_message: `scheme-sim proxy: the target did not answer: ${err.message}` }));
    });
    req.on('data', (chunk: Buffer) => {
      sent.push(chunk);
      upstream.write(chunk);
    });
    req.on('end', () => upstream.end());
  };

  return new Promise((resolve, reject) => {
    const server = createServer(handle);
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      resolve({
        url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/** `scheme-sim proxy`: resolves with the exit code (the command's, when one is run). */
export async function proxyCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const dash = argv.indexOf('--');
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? [] : argv.slice(dash + 1);
  const { values } = parseCommand(
    own,
    {
      target: { type: 'string' },
      record: { type: 'string' },
      port: { type: 'string', default: '8090' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    HELP,
  );
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.record) throw usageError('--record FILE names the recording', HELP);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usageError(`--port must be a port number, got '${values.port}'`, HELP);
  if (dash !== -1 && command.length === 0) throw usageError('-- must be followed by a command', HELP);
  const target = resolveTarget({ url: values.target }, env);
  const proxy = await startProxy(target.base, values.record as string, port, values.host as string).catch(
    (err: Error) => {
      throw new CliError(`cannot listen on ${values.host}:${port}: ${err.message}`);
    },
  );
  console.error(
    `scheme-sim proxy: ${proxy.url} → ${target.base} (from ${values.target !== undefined ? '--target' : target.source}), recording to ${values.record}`,
  );
  if (command.length > 0) {
    const child = spawn(command[0]!, command.slice(1), {
      stdio: 'inherit',
      env: { ...env, PROXY_URL: proxy.url, SCHEME_SIM_URL: proxy.url },
    });
    const code = await new Promise<number>((done) => {
      child.on('error', (err) => {
        console.error(`scheme-sim proxy: cannot run ${command[0]}: ${err.message}`);
        done(127);
      });
      child.on('close', (c) => done(c ?? 1));
    });
    await proxy.close();
    return code;
  }
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await proxy.close();
  return 0;
}
