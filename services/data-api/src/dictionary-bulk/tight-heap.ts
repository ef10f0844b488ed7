/**
 * A tighter heap while dictionary reviews are stored (decision 014). Storing a review promotes its
 * batches to V8's old generation faster than they die, and V8 lets the old generation grow up to four
 * times what survived its last full collection before it collects again: the data API peaked at
 * 259–299 MiB over the bench's uploads, against a goal of 250. With the next collection due once the
 * heap is half again what survived, they peak at 165–210 MiB in the same times.
 *
 * The setting is the whole process's, and a flat-file load collecting as often measured 1.18–1.41×
 * psql's `\copy` against 1.07–1.22×: so it holds only while a review is stored, and the default (V8
 * choosing the factor itself) comes back when the last one is done.
 */
import v8 from "node:v8";

/** The old generation's next limit: what survived the last full collection, and this much again (percent). */
const GROWING_PERCENT = 50;

let storing = 0;

/** Runs `work` with the tighter heap, restoring V8's own choice once no other such work runs. */
export async function withTightHeap<T>(work: () => Promise<T>): Promise<T> {
  if (storing++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${GROWING_PERCENT}`);
  try {
    return await work();
  } finally {
    // 0 is V8's default: the factor is chosen from the collector's and the program's speeds.
    if (--storing === 0) v8.setFlagsFromString("--heap-growing-percent=0");
  }
}
