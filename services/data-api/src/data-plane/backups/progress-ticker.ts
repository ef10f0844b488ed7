import { Transform } from "node:stream";

/**
 * Progress of a long COPY, reported once a second while it runs. A report that fails (the control
 * plane briefly away, a job already ended) is dropped: progress is a courtesy to the user, never a
 * reason to stop the work, and never an unhandled rejection that would end the process.
 */
export function reportEverySecond(report: (() => Promise<void> | void) | undefined): () => void {
  if (!report) return () => undefined;
  const timer = setInterval(() => {
    try {
      void Promise.resolve(report()).catch(() => undefined);
    } catch {
      // Dropped, as above.
    }
  }, 1000);
  return () => clearInterval(timer);
}

/** A pass-through of a COPY's input that tells `add` the bytes of each chunk as it goes by: the bytes read so far. */
export function countingBytes(add: (bytes: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, callback) {
      add(chunk.length);
      callback(null, chunk);
    },
  });
}
