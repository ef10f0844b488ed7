/**
 * Uploads kept between their preview and their load (issue 9 §2): the files a user sent, on disk under
 * `${dataDir}/tmp/staged/{uploadId}/`, with a manifest naming the workspace they belong to, who sent
 * them, the table each file goes into and the preview shown. "Load" then starts from the files
 * already here: a file of gigabytes is sent once. A staged upload belongs to one workspace: asked for
 * under another it does not exist. What is never loaded is removed after STAGED_UPLOAD_TTL_MS.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { StagedUpload } from "../../../../../contracts/loads.ts";
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { ReceivedFile } from "../../dictionary-bulk/receive-upload.ts";

/** A preview not followed by a load within a day is forgotten, and its files removed. */
export const STAGED_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

/** `table`: the table the file was sent for (chosen, or named by the file's name), whether or not the dictionary has it. */
export type StagedFile = { name: string; size: number; path: string; table: string };

export type StagedManifest = {
  id: string;
  projectId: string;
  userId: string;
  createdAt: string;
  /** Sent as Multiple files: the preview lists the tables no file matches. */
  multipleFiles: boolean;
  /** The form's choices sent with the files (absent from a manifest written before they were kept: the defaults). */
  mode?: StagedUpload["mode"];
  onRejected?: StagedUpload["onRejected"];
  files: StagedFile[];
  /** What the preview was read with: when either changes, it is read again. */
  dictionaryVersion: number;
  parameters: FlatFileParameters;
  preview: StagedUpload;
};

const ID = /^[0-9a-f]{32}$/;

export function stagedUploadsDir(dataDir: string) {
  return path.join(dataDir, "tmp", "staged");
}

/** Moves the received files into a new staged upload's folder; answers its id and the files' new places. */
export async function stageFiles(dataDir: string, received: readonly ReceivedFile[]): Promise<{ id: string; dir: string; files: ReceivedFile[] }> {
  const id = randomBytes(16).toString("hex");
  const dir = path.join(stagedUploadsDir(dataDir), id);
  await fs.promises.mkdir(dir, { recursive: true });
  const files: ReceivedFile[] = [];
  for (const [i, file] of received.entries()) {
    const to = path.join(dir, `${i}.file`);
    // The same file system (both under DATA_DIR/tmp): a rename, never a copy of the bytes.
    await fs.promises.rename(file.path, to);
    files.push({ ...file, path: to });
  }
  return { id, dir, files };
}

export async function writeManifest(dataDir: string, manifest: StagedManifest): Promise<void> {
  await fs.promises.writeFile(path.join(stagedUploadsDir(dataDir), manifest.id, "manifest.json"), JSON.stringify(manifest));
}

/** The staged upload `id` of workspace `projectId`, or null (unknown, expired, or another workspace's). */
export async function readManifest(dataDir: string, projectId: string, id: string): Promise<StagedManifest | null> {
  if (!ID.test(id)) return null;
  let manifest: StagedManifest;
  try {
    manifest = JSON.parse(await fs.promises.readFile(path.join(stagedUploadsDir(dataDir), id, "manifest.json"), "utf8")) as StagedManifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  if (manifest.projectId !== projectId || Date.now() - Date.parse(manifest.createdAt) > STAGED_UPLOAD_TTL_MS) return null;
  return manifest;
}

/** Removes a staged upload's folder and files; safe to call twice. Asynchronous: files of gigabytes take the file system a while. */
export function removeStaged(dataDir: string, id: string): Promise<void> {
  if (!ID.test(id)) return Promise.resolve();
  return fs.promises.rm(path.join(stagedUploadsDir(dataDir), id), { recursive: true, force: true });
}

/**
 * A load takes the staged upload: its folder becomes `{id}.loading`, which no preview or second load
 * finds any more, and which the load removes when it ends (or the next start, if its process died).
 * `giveBack` undoes it when the load could not start (the workspace was locked meanwhile).
 */
export async function takeStaged(
  dataDir: string,
  manifest: StagedManifest,
): Promise<{ files: StagedFile[]; remove(): Promise<void>; giveBack(): Promise<void> }> {
  const from = path.join(stagedUploadsDir(dataDir), manifest.id);
  const to = `${from}${LOADING}`;
  await fs.promises.rename(from, to);
  return {
    files: manifest.files.map((f) => ({ ...f, path: path.join(to, path.basename(f.path)) })),
    remove: () => fs.promises.rm(to, { recursive: true, force: true }),
    giveBack: () => fs.promises.rename(to, from),
  };
}

const LOADING = ".loading";

/**
 * Removes staged uploads older than `olderThan`: previews nobody loaded, and the files of loads a
 * killed process left (`{id}.loading`, all of them when `loadsToo`: this process is the only one).
 * A folder's age is its creation's. Answers how many went.
 */
export async function removeExpiredStaged(dataDir: string, olderThan: Date, options: { loadsToo?: boolean } = {}): Promise<number> {
  let names: string[];
  try {
    names = await fs.promises.readdir(stagedUploadsDir(dataDir));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const id = name.endsWith(LOADING) ? name.slice(0, -LOADING.length) : name;
    if (!ID.test(id)) continue;
    const at = path.join(stagedUploadsDir(dataDir), name);
    const stat = await fs.promises.stat(at).catch(() => undefined);
    if (!stat || (stat.mtime >= olderThan && !(options.loadsToo && name !== id))) continue;
    await fs.promises.rm(at, { recursive: true, force: true });
    removed++;
  }
  return removed;
}
