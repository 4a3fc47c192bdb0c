import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safeEncoded } from '../cache/answer-json.ts';

// Every route's response goes out as its schema encodes it, as fastify-type-provider-zod sends it,
// with the read caches' choice (cache/answer-json.ts): a schema that reads the same both ways is
// parsed, which zod compiles, rather than encoded. A failure is the library's own error, which the
// error replies answer as a 500 without its details. A schema given in any other form than a zod
// schema or `{ properties }` of one goes to the library as it is.

/** The serializer compiler of the app's routes. */
export const responseSerializer: FastifySerializerCompiler<unknown> = (route) => {
  const given = route.schema as { properties?: unknown };
  const schema = given instanceof z.ZodType ? given : given?.properties;
  if (!(schema instanceof z.ZodType))
    return serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
  return (data) => {
    const result = safeEncoded(schema, data);
    if (!result.success)
      throw new ResponseSerializationError(route.method, route.url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
