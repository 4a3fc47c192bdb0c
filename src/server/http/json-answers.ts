import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { JsonAnswer } from '../cache/read-caches.ts';
import {
  COMPRESS_THRESHOLD_BYTES,
  COMPRESSION_ENCODINGS,
  type ContentEncoding,
  GZIP_LEVEL,
  JSON_ENCODINGS,
} from './compression.ts';

// A remembered answer (read-caches.ts) is sent to thousands of readers, and every browser asks for it
// compressed: the compression plugin would compress the same text again for each of them, on the
// server's thread (Brotli at quality 4: about 85 µs for a 12-item list, more than the rest of the
// request). Each remembered answer is compressed once per encoding instead, when first asked for, and
// its bytes are sent as they are from then on, for as long as the answer is remembered (decision 075).
// A list, an item page or a profile is compressed on the server's thread: handing a few kilobytes to
// the thread pool costs more than compressing them (measured for a 12-item list: 160-200 µs of CPU
// through a zlib stream, 40-70 µs in place).

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const GZIP = { level: GZIP_LEVEL };

/** Answers up to this size are compressed in place; bigger ones in the thread pool (a millisecond or more). */
const COMPRESSED_IN_PLACE_BYTES = 256 * 1024;

type Compressed = Buffer | Promise<Buffer>;

/** The compressed forms of each answer, made once; they go when the answer is forgotten. */
const compressedForms = new WeakMap<JsonAnswer, Partial<Record<ContentEncoding, Compressed>>>();

/**
 * The encoding the browser prefers among those the server compresses with (`Accept-Encoding`, its
 * q-values and `;q=0` refusals read; a tie goes to the first of `ours`), or undefined for the text as
 * it is. Not remembered per header: a client could send endless different ones.
 */
export function acceptedEncoding(
  request: FastifyRequest,
  ours: readonly ContentEncoding[] = COMPRESSION_ENCODINGS,
): ContentEncoding | undefined {
  const header = request.headers['accept-encoding'];
  if (!header) return undefined;
  const chosen = negotiate(Array.isArray(header) ? header.join(', ') : header, [...ours]);
  return ours.find((encoding) => encoding === chosen);
}

/**
 * The bytes in memory of their own. zlib's synchronous calls answer a view of the 16 KB chunk they
 * compressed into, and a pooled buffer shares an 8 KB slab: remembered as they are, a 2 KB answer kept
 * 16 KB outside the heap alive for as long as it was remembered (measured on a campus day: 375 MB
 * outside the heap for 243 MB of answers counted).
 */
export function ownBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/** gzip at GZIP_LEVEL; Brotli at the compression plugin's quality, told the size so it sets up no more than it needs. */
function compress(json: string, encoding: ContentEncoding): Compressed {
  const text = Buffer.from(json);
  const inPlace = text.length <= COMPRESSED_IN_PLACE_BYTES;
  if (encoding === 'gzip')
    return inPlace ? ownBytes(gzipSync(text, GZIP)) : gzipAsync(text, GZIP).then(ownBytes);
  const options = {
    params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  };
  return inPlace ? ownBytes(brotliCompressSync(text, options)) : brotli(text, options).then(ownBytes);
}

/** The bytes remembered for an answer in an encoding, once made and compressed. */
export function rememberedBytes(answer: JsonAnswer, encoding: ContentEncoding): Compressed | undefined {
  return compressedForms.get(answer)?.[encoding];
}

/** The answer's bytes in `encoding`, compressed the first time they are asked for. */
function compressedOnce(answer: JsonAnswer, encoding: ContentEncoding): Compressed {
  let forms = compressedForms.get(answer);
  if (!forms) {
    forms = {};
    compressedForms.set(answer, forms);
  }
  let bytes = forms[encoding];
  if (!bytes) {
    // A failed compression is not remembered: the next reader tries again.
    bytes = compress(answer.json, encoding);
    forms[encoding] = bytes;
    if (bytes instanceof Promise) {
      const pending = bytes;
      pending.catch(() => {
        if (forms[encoding] === pending) delete forms[encoding];
      });
    }
  }
  return bytes;
}

/** Adds `Accept-Encoding` to the answer's Vary header, keeping what is there. */
function varyByEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary');
  const names =
    vary === undefined
      ? []
      : String(vary)
          .split(',')
          .map((name) => name.trim());
  if (names.some((name) => name === '*' || name.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...names.filter(Boolean), 'Accept-Encoding'].join(', '));
}

/**
 * Sends a JSON answer as the browser accepts it: a remembered answer compressed once, whoever asks;
 * a small one, or one for a browser that accepts no compression, as text. Fastify skips its
 * serializer for a string with a JSON content type, and the compression plugin any answer whose
 * encoding is set.
 */
export async function sendJson(request: FastifyRequest, reply: FastifyReply, answer: JsonAnswer) {
  reply.type('application/json; charset=utf-8');
  if (answer.json.length < COMPRESS_THRESHOLD_BYTES) return reply.send(answer.json);
  varyByEncoding(reply);
  const encoding = acceptedEncoding(request, JSON_ENCODINGS);
  if (!encoding) return reply.send(answer.json);
  let bytes: Buffer;
  try {
    bytes = await compressedOnce(answer, encoding);
  } catch (error) {
    request.log.warn({ err: error }, 'a remembered answer could not be compressed; sent as text');
    return reply.send(answer.json);
  }
  return reply.header('content-encoding', encoding).send(bytes);
}
