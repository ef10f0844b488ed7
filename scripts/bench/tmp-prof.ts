import fs from "node:fs";
import { spawn } from "node:child_process";
import { startStack } from "./stack.ts";
import { signIn } from "./sign-in.ts";
import autocannon from "autocannon";
const s = await startStack({ basePort: 4250 });
try {
  const env = Object.fromEntries(fs.readFileSync(`/proc/${s.pids.portal}/environ`, "utf8").split("\0").filter(Boolean).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
  const cmd = fs.readFileSync(`/proc/${s.pids.portal}/cmdline`, "utf8").split("\0").filter(Boolean);
  process.kill(s.pids.portal, "SIGKILL");
  await new Promise((r) => setTimeout(r, 300));
  fs.rmSync("/tmp/pprof", { recursive: true, force: true });
  const child = spawn(cmd[0]!, ["--cpu-prof", "--cpu-prof-dir=/tmp/pprof", ...cmd.slice(1)], { env, cwd: process.cwd(), stdio: "ignore" });
  for (let i = 0; i < 100; i++) { if (await fetch(`${s.urls.portal}/healthz`).then((r) => r.ok, () => false)) break; await new Promise((r) => setTimeout(r, 200)); }
  const jar = await signIn(s.urls.portal, "analyst@demo.test");
  const url = `${s.urls.portal}/migration/projects?companyId=2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802`;
  const res: any = await new Promise((res, rej) => autocannon({ url, connections: 10, duration: 8, headers: { cookie: jar.header(s.urls.portal) } }, (e, r) => (e ? rej(e) : res(r))));
  console.log("reqs", res.requests.total, "non2xx", res.non2xx);
  child.kill("SIGINT");
  await new Promise((r) => child.once("exit", r));
} finally { await s.stop(); }
