import fs from "node:fs";
import { startStack } from "./stack.ts";
import { signIn } from "./sign-in.ts";
const s = await startStack({ basePort: 4250 });
try {
  const jar = await signIn(s.urls.portal, "analyst@demo.test");
  for (let i = 0; i < 24; i++) {
    // create projects through the portal's own form
  }
  const url = `${s.urls.portal}/migration/projects?companyId=2b7d9e13-5a8c-4f60-b2d4-7e91c3a5f802`;
  const html = await (await fetch(url, { headers: { cookie: jar.header(s.urls.portal) } })).text();
  fs.writeFileSync("/tmp/list.html", html);
} finally { await s.stop(); }
