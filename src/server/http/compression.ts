import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// API answers (JSON), sitemap.xml, the shell and the other text answers go out compressed
// when the browser accepts Brotli or gzip: a Browse page of 12 items is ~9 KB of JSON, ~2 KB
// compressed, which a phone on a slow network feels. The types compressed are the ones named below
// and those mime-db marks compressible (JavaScript, CSS, SVG, the web app manifest). Never compressed:
// - photos: JPEG, PNG, GIF, WebP, AVIF are compressed already (mime-db: not compressible);
// - a text/event-stream (not compressible in mime-db: a compressor would hold events back);
// - pre-rendered pages and the built assets: web.ts sends pages compressed itself (and remembers them
//   so), and @fastify/static sends the build's .br/.gz copies of scripts and styles; the read caches'
//   answers are compressed once each and sent so (json-answers.ts); an answer that already has a
//   Content-Encoding is left alone;
// - the chat's WebSocket (an upgraded connection, no reply to compress).
// gzip (at GZIP_LEVEL) when the browser takes both (JSON_ENCODINGS); Brotli at quality 4 for a browser that takes only
// Brotli: the answers compressed here are made per request, so the highest qualities would cost more
// time than they save on the wire.
// Request bodies are not decompressed: nobody sends compressed ones, and the body limits stay simple.

/** Smaller answers are sent as they are: compressing them saves no round trip. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** The encodings answers are compressed with, the first preferred when the browser takes both. */
export const COMPRESSION_ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof COMPRESSION_ENCODINGS)[number];

/**
 * For JSON made per request or remembered: gzip first. On lists, item pages and profiles of 2-40 KB,
 * gzip at its default level came within 1 % of Brotli's size at quality 4, for about half its time
 * (decision 075). Pages rendered once and kept compressed prefer Brotli (web.ts).
 */
export const JSON_ENCODINGS: readonly ContentEncoding[] = ['gzip', 'br'];

/**
 * gzip's level for answers compressed as they are asked for. Level 3 measured a third faster than the
 * default (6) on a 12-item list (32 µs against 48 µs, 9.7 KB) and half as long on 40 items (74 µs against
 * 146 µs), for 3 % more bytes (1,973 against 1,909): the same round trips on a phone's network, and
 * the server's thread is what the campus day waits for. Levels 1 and 2 took as long, for more bytes.
 */
export const GZIP_LEVEL = 3;

/** The types that are compressed: JSON, XML, plain text, and the app shell (HTML not compressed yet). */
const COMPRESSIBLE = /^(application\/(json|xml|problem\+json)|text\/(html|plain|xml))(;|$)/;

export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      globalDecompression: false,
      encodings: [...JSON_ENCODINGS],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: COMPRESSIBLE,
      brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
      zlibOptions: { level: GZIP_LEVEL },
    });
  },
  { name: 'compression' },
);
