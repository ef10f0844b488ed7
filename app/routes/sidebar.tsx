import { redirect } from "react-router";
import { readFormData } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { sidebarCookie } from "~/lib/sidebar-cookie.server";
import type { Route } from "./+types/sidebar";

/** Remembers the sidebar choice (a POST from the "Collapse sidebar" or "Expand sidebar" button) and goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const state = form.get("state");
  const back = safeRedirect(form.get("redirectTo"));
  // Only a forged post names another state: go back with the choice unchanged, never a page of raw JSON.
  if (state !== "expanded" && state !== "collapsed") return redirect(back);
  return redirect(back, {
    headers: { "Set-Cookie": await sidebarCookie.serialize(state) },
  });
}

export async function loader() {
  return redirect("/");
}
