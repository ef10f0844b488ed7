import { z } from "zod";

/**
 * Every development default secret starts with this prefix, so that production can recognise
 * and refuse it. They exist only so a developer can start one process by hand; `npm start`
 * generates real random secrets under the data folder instead (scripts/start-all.ts).
 */
export const DEV_DEFAULT_PREFIX = "dev-only-";

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses `source` once with `schema`; a missing or bad value throws an EnvError naming the variable. */
export function parseEnv<S extends z.ZodType>(
  processName: string,
  schema: S,
  source: Record<string, string | undefined> = process.env,
): z.output<S> {
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "(environment)";
    return `  ${variable}: ${issue.message}`;
  });
  throw new EnvError(`${processName}: invalid environment\n${lines.join("\n")}`);
}

/** Adds an issue for every listed variable that still holds a development default in production. */
export function refuseDevDefaultsInProduction<T extends { NODE_ENV: string }>(keys: (keyof T & string)[]) {
  return (env: T, ctx: z.RefinementCtx) => {
    if (env.NODE_ENV !== "production") return;
    for (const key of keys) {
      const value = env[key];
      const values = Array.isArray(value) ? value : [value];
      if (values.some((v) => typeof v === "string" && v.startsWith(DEV_DEFAULT_PREFIX))) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: "holds a development default; production needs a real value",
        });
      }
    }
  };
}

/** Shared field parsers for environment schemas. */
export const envFields = {
  nodeEnv: z.enum(["development", "production", "test"]).default("development"),
  port: (fallback: number) => z.coerce.number().int().min(1).max(65535).default(fallback),
  url: (fallback: string) => z.url({ protocol: /^https?$/ }).default(fallback).transform((u) => u.replace(/\/+$/, "")),
  list: (fallback: string) =>
    z
      .string()
      .default(fallback)
      .transform((s) => s.split(",").map((v) => v.trim()).filter(Boolean))
      .pipe(z.array(z.string()).min(1, "needs at least one value")),
  flag: z
    .enum(["true", "false", "1", "0", ""])
    .default("false")
    .transform((v) => v === "true" || v === "1"),
};
