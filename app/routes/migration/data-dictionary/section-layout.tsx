import type { UIMatch } from "react-router";

const LABELS: Record<string, string> = { "data-definition": "Data definition", "bulk-update": "Bulk update" };

/** edit/{id}/data-definition and edit/{id}/bulk-update: a breadcrumb above their pages (a table, the review). */
export const handle = {
  breadcrumb: (match: UIMatch) => LABELS[match.pathname.replace(/\/+$/, "").split("/").at(-1) ?? ""],
};

// No component: React Router renders the page below in its place (issue 8's initial JS bar).
