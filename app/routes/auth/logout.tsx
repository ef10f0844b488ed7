import { redirect } from "react-router";
import { logout } from "~/lib/auth.server";
import type { Route } from "./+types/logout";

/** Logging out is a POST; a GET changes nothing and goes home. */
export async function loader(_: Route.LoaderArgs) {
  return redirect("/");
}

export async function action({ request }: Route.ActionArgs) {
  return logout(request);
}
