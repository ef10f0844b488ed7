import { redirect } from "react-router";
import { requireArea } from "~/lib/guards.server";
import { areaOfPath } from "~/lib/menu";
import type { Route } from "./+types/layout";

/**
 * The layout of each area (/additional-options, /migration, /translations, /onboarding), registered
 * once per area in routes.ts. Its middleware adds the area's role list and cloud target to the
 * shell's guards, for every loader and action below it.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    const section = areaOfPath(new URL(args.request.url).pathname);
    if (!section) throw redirect("/");
    return requireArea(section.area)(args, next);
  },
];

export const handle = {
  breadcrumb: (match: { pathname: string }) => areaOfPath(match.pathname)?.label,
};

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
