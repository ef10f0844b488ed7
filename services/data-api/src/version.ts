import fs from "node:fs";

/** The product version: the root package.json's, which the portal's footer shows as v{version}. */
export function readProductVersion(): string {
  const file = new URL("../../../package.json", import.meta.url);
  const { version } = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown };
  if (typeof version !== "string" || !version) throw new Error(`no version in ${file.pathname}`);
  return version;
}
