import {
  AppWindow,
  ArrowRightLeft,
  BookOpen,
  Folder,
  Info,
  KeyRound,
  Languages,
  Layers,
  LayoutGrid,
  Settings,
  Table,
  Upload,
} from "lucide-react";
import type { MenuIcon as MenuIconName } from "~/lib/menu";

const ICONS = {
  grid: LayoutGrid,
  settings: Settings,
  key: KeyRound,
  info: Info,
  "arrow-right-left": ArrowRightLeft,
  folder: Folder,
  layers: Layers,
  book: BookOpen,
  "app-window": AppWindow,
  languages: Languages,
  table: Table,
  upload: Upload,
} satisfies Record<MenuIconName, unknown>;

/** Decorative: the link or heading next to it carries the name. */
export function MenuIcon({ name, className }: { name: MenuIconName; className?: string }) {
  const Icon = ICONS[name];
  return <Icon aria-hidden="true" className={className ?? "size-4 shrink-0"} />;
}
