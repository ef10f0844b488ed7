import { z } from "zod";

/**
 * The one error body both services answer with. `errors` holds the lines the portal joins for
 * display (spec §8); `fieldErrors` names the fields a validation failure concerns.
 */
export const apiErrorSchema = z.object({
  status: z.number().int(),
  code: z.string(),
  errors: z.array(z.string()).min(1),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * A refused upload's choices as they were sent (its text fields, never its file): the portal streams an
   * upload through unread, and puts these back in the form posted without JavaScript.
   */
  values: z.record(z.string(), z.string()).optional(),
  requestId: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
