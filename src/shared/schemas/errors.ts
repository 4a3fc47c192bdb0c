import { z } from 'zod';

/** Every API error has this shape, so a client reads any refusal the same way. */
export const apiError = z.object({
  message: z.string(),
  code: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof apiError>;
