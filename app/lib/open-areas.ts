import { useRouteLoaderData } from "react-router";
import type { loader as shellLoader } from "~/routes/shell";

/** The areas the signed-in user's role opens in the selected company, as the shell's loader found them. */
export function useOpenAreas() {
  return useRouteLoaderData<typeof shellLoader>("routes/shell")?.areas ?? [];
}
