import http from 'node:http';
import net from 'node:net';

// A load balancer for tests, with node's own http module: each request and each WebSocket upgrade goes to
// the next instance in turn (round robin, no sticky sessions), with X-Forwarded-For/-Proto/-Host as a real
// one adds them. It notes which instance served what, so a test can show that one person's requests and
// socket were spread over several instances (docs/deploy.md).

export interface Served {
  method: string;
  path: string;
  /** Index of the instance in the list the proxy was started with. */
  instance: number;
  upgrade: boolean;
}

export interface ReverseProxy {
  url: string;
  served: Served[];
  close(): Promise<void>;
}

export async function startReverseProxy(instances: string[]): Promise<ReverseProxy> {
  const targets = instances.map((url) => new URL(url));
  const served: Served[] = [];
  let turn = 0;
  const next = (request: http.IncomingMessage, upgrade: boolean) => {
    const instance = turn;
    turn = (turn + 1) % targets.length;
    served.push({ method: request.method ?? 'GET', path: request.url ?? '/', instance, upgrade });
    return targets[instance]!;
  };
  const forwardedHeaders = (request: http.IncomingMessage) => ({
    ...request.headers,
    'x-forwarded-for': request.socket.remoteAddress ?? '',
    'x-forwarded-proto': 'http',
    'x-forwarded-host': request.headers.host ?? '',
  });
  const sockets = new Set<net.Socket>();

  const server = http.createServer((request, response) => {
    const target = next(request, false);
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: forwardedHeaders(request),
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });

  // A WebSocket upgrade: the request as received (with the forwarded headers), then bytes both ways.
  server.on('upgrade', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = next(request, true);
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(forwardedHeaders(request)).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}`),
      );
      upstream.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      client.pipe(upstream).pipe(client);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
