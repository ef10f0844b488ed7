import type { UIMatch } from "react-router";
import { templateOwnerOf } from "./paths";

/** An owner's templates (an area's master templates, or a workspace's): the breadcrumb, and the pages below. */
export const handle = {
  breadcrumb: (match: UIMatch) => (templateOwnerOf(match.pathname).kind === "master" ? "Master Templates" : "Templates"),
};

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
