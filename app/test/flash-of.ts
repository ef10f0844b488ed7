/**
 * The flash message a redirect sets, as the next page would read it. flash.server is imported when
 * asked, not at this module's import: the portal reads its environment once, after the live services.
 */
import type { FlashMessage } from "~/lib/flash";

export async function flashOf(response: unknown): Promise<FlashMessage | null> {
  const setCookie = response instanceof Response ? response.headers.get("Set-Cookie") : null;
  if (!setCookie) return null;
  const { readFlash } = await import("~/lib/flash.server");
  return readFlash(new Request("http://portal.test/", { headers: { Cookie: setCookie.split(";")[0]! } }));
}
