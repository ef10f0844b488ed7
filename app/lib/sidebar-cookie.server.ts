import { createCookie } from "react-router";
import type { SidebarState } from "~/components/layout/sidebar";
import { env } from "./env.server";

/** The user's remembered sidebar choice; without one the window width decides. */
export const sidebarCookie = createCookie("dt_sidebar", {
  httpOnly: true,
  sameSite: "lax",
  secure: env.secureCookies,
  path: "/",
  maxAge: 365 * 24 * 60 * 60,
});

export async function readSidebarState(request: Request): Promise<SidebarState> {
  const value: unknown = await sidebarCookie.parse(request.headers.get("Cookie"));
  return value === "expanded" || value === "collapsed" ? value : "auto";
}
