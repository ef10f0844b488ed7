import { Icon, type IconName } from "~/components/ui/icon";
import type { MenuIcon as MenuIconName } from "~/lib/menu";

const ICONS = {
  grid: "layout-grid",
  settings: "settings",
  key: "key-round",
  info: "info",
  "arrow-right-left": "arrow-right-left",
  folder: "folder",
  layers: "layers",
  book: "book-open",
  "app-window": "app-window",
  languages: "languages",
  table: "table",
  upload: "upload",
} satisfies Record<MenuIconName, IconName>;

/** Decorative: the link or heading next to it carries the name. Its size comes from .menu-link and .menu-heading (app.css). */
export function MenuIcon({ name, className }: { name: MenuIconName; className?: string }) {
  return <Icon name={ICONS[name]} className={className} />;
}
