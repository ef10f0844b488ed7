/**
 * A file read while its upload is still writing it (decision 016, "The load starts as the file
 * arrives"): the request's thread says how many bytes are on disk, and at the end whether all came;
 * the load worker reads up to there and waits for more. Shared memory, not messages: the worker
 * waits on it with Atomics, so a chunk written is a chunk readable at once, whatever the worker's
 * thread is busy with.
 */
import { FlatFileProblem } from "./flat-file-problem.ts";

/** Int32 slots: a counter bumped at each change (what a reader waits on), and the state. */
const CHANGES = 0;
const STATE = 1;
const ARRIVING = 0;
const COMPLETE = 1;
const STOPPED = 2;

export const UPLOAD_STOPPED_MESSAGE = "The upload stopped before the end of the file";

/** The writer's side, on the request's thread. */
export class ArrivingFile {
  /** What the reader is given (LoadFile.arriving): the state and the bytes on disk. */
  readonly shared = new SharedArrayBuffer(16);
  readonly #ints = new Int32Array(this.shared, 0, 2);
  readonly #bytes = new Float64Array(this.shared, 8, 1);

  /** `bytes` of the file are on disk (written, so readable). */
  grew(bytes: number) {
    if (Atomics.load(this.#ints, STATE) !== ARRIVING) return;
    this.#bytes[0] = bytes;
    this.#changed();
  }

  /** All of it is there: `bytes` in all. */
  complete(bytes: number) {
    this.#end(COMPLETE, bytes);
  }

  /** It never will be: the reader fails (UPLOAD_STOPPED_MESSAGE). Nothing once complete. */
  stop() {
    this.#end(STOPPED, this.#bytes[0]!);
  }

  get ended() {
    return Atomics.load(this.#ints, STATE) !== ARRIVING;
  }

  #end(state: number, bytes: number) {
    if (this.ended) return;
    this.#bytes[0] = bytes;
    Atomics.store(this.#ints, STATE, state);
    this.#changed();
  }

  #changed() {
    Atomics.add(this.#ints, CHANGES, 1);
    Atomics.notify(this.#ints, CHANGES);
  }
}

/** The reader's side, in the worker. */
export type Arrival = {
  /**
   * The bytes on disk once there are more than `position`, or once all came (then `position` or
   * fewer means the end). Throws a FlatFileProblem when the upload stopped.
   */
  beyond(position: number): Promise<number>;
  /** The whole file's size, once it is all there (an .xlsx is read from its end). */
  whole(): Promise<number>;
};

export function arrivalOf(shared: SharedArrayBuffer): Arrival {
  const ints = new Int32Array(shared, 0, 2);
  const bytes = new Float64Array(shared, 8, 1);
  const beyond = async (position: number) => {
    for (;;) {
      const seen = Atomics.load(ints, CHANGES);
      const state = Atomics.load(ints, STATE);
      if (state === STOPPED) throw new FlatFileProblem(UPLOAD_STOPPED_MESSAGE);
      const onDisk = bytes[0]!;
      if (onDisk > position || state === COMPLETE) return onDisk;
      // Woken by the next change; the timeout only bounds a wait whose wake-up was missed.
      const wait = Atomics.waitAsync(ints, CHANGES, seen, 1_000);
      if (wait.async) await wait.value;
    }
  };
  return { beyond, whole: () => beyond(Number.MAX_SAFE_INTEGER) };
}
