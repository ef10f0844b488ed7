import { z } from "zod";
import { forceUnlockSchema } from "../../../../contracts/projects";

/** The force-unlock form, checked here as the data API checks it: the message lands next to the field. */
export const forceUnlockForm = z.object({ reason: forceUnlockSchema.shape.reason });
