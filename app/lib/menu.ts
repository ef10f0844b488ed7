import { ROLES } from "../../contracts/roles";
import type { Area } from "./access";

export type MenuIcon =
  | "grid"
  | "settings"
  | "key"
  | "info"
  | "arrow-right-left"
  | "folder"
  | "layers"
  | "book"
  | "app-window"
  | "languages"
  | "table"
  | "upload";

/** `roles`: only these roles in the selected company see the link (the area's roles see the rest). */
export type MenuLink = { label: string; path: string; icon: MenuIcon; roles?: readonly string[] };
export type MenuSection = { area: Area; label: string; icon: MenuIcon; items: MenuLink[] };

/** The sidebar of spec §2, in its order. "All Products" (the client portal dashboard) is added by the sidebar. */
export const MENU: MenuSection[] = [
  {
    area: "additionalOptions",
    label: "Additional Options",
    icon: "settings",
    items: [
      { label: "SQL Credentials", path: "/additional-options/sql-credentials/users", icon: "key" },
      { label: "Product Info", path: "/additional-options/product-info/details", icon: "info" },
      { label: "Audit Log", path: "/additional-options/audit-log", icon: "table" },
      { label: "Notifications", path: "/additional-options/notifications", icon: "upload" },
    ],
  },
  {
    area: "migration",
    label: "Migrations",
    icon: "arrow-right-left",
    items: [
      { label: "Projects", path: "/migration/projects", icon: "folder" },
      { label: "Master Templates", path: "/migration/master-templates", icon: "layers" },
      { label: "Data Dictionary", path: "/migration/data-dictionary", icon: "book" },
      { label: "Applications", path: "/migration/application", icon: "app-window" },
      // The company's own ClientAdmin manages its webhooks here; admins have them under Additional Options.
      { label: "Notifications", path: "/migration/notifications", icon: "upload", roles: [ROLES.ClientAdmin] },
    ],
  },
  {
    area: "translations",
    label: "Fusion PSI Configuration",
    icon: "languages",
    items: [
      { label: "Mappings", path: "/translations/mappings", icon: "table" },
      { label: "Master Templates", path: "/translations/master-templates", icon: "layers" },
    ],
  },
  {
    area: "onboarding",
    label: "Data Onboarding",
    icon: "upload",
    items: [
      { label: "Configurations", path: "/onboarding/configurations", icon: "folder" },
      { label: "Master Templates", path: "/onboarding/master-templates", icon: "layers" },
      { label: "Data Dictionary", path: "/onboarding/data-dictionary", icon: "book" },
    ],
  },
];

/** The area a portal path belongs to, from its first segment (e.g. "/migration/projects" → migration). */
export function areaOfPath(pathname: string): MenuSection | undefined {
  const segment = pathname.split("/")[1] ?? "";
  return MENU.find((section) => section.items[0]?.path.split("/")[1] === segment);
}
