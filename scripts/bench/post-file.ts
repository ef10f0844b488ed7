/**
 * A file posted as multipart/form-data the way a browser sends one: the fields, then the file read
 * from disk as a stream onto the socket. Node's own HTTP client, because undici's fetch with a
 * FormData spends more than the transfer itself on a file of tens of megabytes (56 MB: 210–350 ms
 * against 75–125 ms here, and curl's 90–115 ms), which a load's figure would count as its own.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";

/**
 * `bytesPerSecond`: the file comes at that pace (scripts/bench/throttled-cat.mjs), as over a link of
 * that speed. `fieldsLast`: the fields follow the file (the data API then receives it whole before
 * it starts a load).
 */
export async function postFile(
  url: string,
  options: {
    fields: Record<string, string>;
    file: string;
    fileName: string;
    headers?: Record<string, string>;
    bytesPerSecond?: number;
    fieldsLast?: boolean;
  },
): Promise<{ status: number; text: string }> {
  const boundary = `----bench${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
  const fields = Object.entries(options.fields)
    .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  const filePart = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${options.fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`;
  const head = Buffer.from(options.fieldsLast ? filePart : `${fields}${filePart}`);
  const tail = Buffer.from(`\r\n${options.fieldsLast ? fields : ""}--${boundary}--\r\n`);
  const size = fs.statSync(options.file).size;
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": head.length + size + tail.length },
        // A connection of its own: one kept alive from the last upload may be closing (the server's
        // keep-alive ends after 5 s) just as this one is sent on it, and it would hang up.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    request.write(head);
    const cat =
      options.bytesPerSecond &&
      spawn(process.execPath, [new URL("./throttled-cat.mjs", import.meta.url).pathname, options.file, String(options.bytesPerSecond)], {
        stdio: ["ignore", "pipe", "inherit"],
      });
    const file = cat ? cat.stdout : fs.createReadStream(options.file, { highWaterMark: 1024 * 1024 });
    request.on("error", (err) => {
      // Nothing more to send: the throttled reader stops too.
      if (cat) cat.kill();
      reject(err);
    });
    file.on("error", reject);
    file.pipe(request, { end: false });
    file.on("end", () => request.end(tail));
  });
}
