/**
 * Writes app/components/ui/icons.svg: the Lucide icons the portal uses, as one SVG sprite that pages
 * reference with <use> (components/ui/icon.tsx). A page then carries a short reference per icon
 * instead of its whole drawing, and no icon code reaches the browser's JavaScript.
 *
 * Run after changing ICON_NAMES: `npx tsx scripts/icon-sprite.ts`.
 */
import fs from "node:fs";
import path from "node:path";
import * as Lucide from "lucide-react";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ICON_NAMES } from "../app/components/ui/icon-names.ts";

const pascal = (name: string) => name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
const symbols = ICON_NAMES.map((name) => {
  const icon = (Lucide as unknown as Record<string, ComponentType | undefined>)[pascal(name)];
  if (!icon) throw new Error(`lucide-react has no icon ${pascal(name)}`);
  const drawing = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(renderToStaticMarkup(createElement(icon)))![1];
  return `<symbol id="${name}" viewBox="0 0 24 24">${drawing}</symbol>`;
});
const out = path.resolve(import.meta.dirname, "../app/components/ui/icons.svg");
fs.writeFileSync(out, `<svg xmlns="http://www.w3.org/2000/svg">\n${symbols.join("\n")}\n</svg>\n`);
console.log(`wrote ${symbols.length} icons to ${path.relative(process.cwd(), out)}`);
