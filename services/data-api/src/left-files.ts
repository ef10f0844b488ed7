/**
 * What a dead process left on disk (a killed data API mid-upload, mid-load, mid-backup), found and
 * removed when the next one starts (server.ts). With several processes sharing the data folder only
 * what was last written before a cut-off goes: another process may be writing the rest now.
 */
import fs from "node:fs";
import path from "node:path";

/** The entries of `dir` whose names `pick` chooses, as paths; none when `dir` does not exist. */
export async function entriesOf(dir: string, pick: (name: string) => boolean): Promise<string[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return names.filter(pick).map((name) => path.join(dir, name));
}

/** Removes each of `paths` (a file, or a folder with what it holds); with `olderThan` only those last written before then. Answers how many went. */
export async function removeLeft(paths: readonly string[], olderThan?: Date): Promise<number> {
  let removed = 0;
  for (const at of paths) {
    const stat = await fs.promises.stat(at).catch(() => undefined);
    if (!stat || (olderThan && stat.mtime >= olderThan)) continue;
    await fs.promises.rm(at, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
