import Fastify from 'fastify';

// The machine's ceiling: a bare Fastify hello-world (Fastify's own benchmark), started like the app
// (its own process, same host and port), so every scenario can be read as a share of it.

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

const port = Number(process.env.PORT ?? 5000);
const host = process.env.HOST ?? '127.0.0.1';
await app.listen({ port, host });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
