import { data, redirect } from "react-router";
import { readFormData } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { sidebarCookie } from "~/lib/sidebar-cookie.server";
import type { Route } from "./+types/sidebar";

/** Remembers the sidebar choice (a POST from the "Toggle sidebar" button) and goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const state = form.get("state");
  if (state !== "expanded" && state !== "collapsed") return data({ error: "Unknown sidebar state." }, { status: 400 });
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": await sidebarCookie.serialize(state) },
  });
}

export async function loader() {
  return redirect("/");
}
