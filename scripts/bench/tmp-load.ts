import { startStack, cpuMs } from "./stack.ts";
import { signIn } from "./sign-in.ts";
import autocannon from "autocannon";
const s = await startStack({ basePort: 4250 });
try {
  const jar = await signIn(s.urls.portal, "analyst@demo.test");
  const url = `${s.urls.portal}/migration/projects?companyId=2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802`;
  const r1 = await fetch(url, { headers: { cookie: jar.header(s.urls.portal) }, redirect: "manual" });
  console.log("single", r1.status, (await r1.text()).length);
  for (const c of [1, 5, 50]) {
    const before = [s.pids.portal, s.pids.dataApi, s.pids.clientPortal].map(cpuMs);
    const res: any = await new Promise((res, rej) => autocannon({ url, connections: c, duration: 4, headers: { cookie: jar.header(s.urls.portal) } }, (e, r) => (e ? rej(e) : res(r))));
    const after = [s.pids.portal, s.pids.dataApi, s.pids.clientPortal].map(cpuMs);
    console.log(c, "conns", res.requests.total, "reqs", "non2xx", res.non2xx, "errors", res.errors, "timeouts", res.timeouts, "cpu", after.map((a, i) => ((a - before[i]!) / Math.max(1, res.requests.total)).toFixed(2)));
  }
} finally { await s.stop(); }
