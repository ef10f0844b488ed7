import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // Vite 7 ignores tsconfig `paths`; keep `~` in step with tsconfig.app.json.
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
});
