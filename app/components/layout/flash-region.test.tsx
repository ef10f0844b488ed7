import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { FlashMessage } from "~/lib/flash";
import { FlashRegion } from "./flash-region";

/** The flash region as the page after a redirect shows it without JavaScript. */
function render(flash: FlashMessage) {
  const Stub = createRoutesStub([{ path: "/migration/projects", Component: () => <FlashRegion flash={flash} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/migration/projects"]} />);
}

describe("the flash message", () => {
  it("an error (a refused download) is an alert that takes focus, as a refused post's message does", () => {
    const html = render({ kind: "error", text: "The translation failed: there is no file to download." });
    expect(html).toMatch(
      /<div role="status" aria-live="polite"><div role="alert"[^>]* tabindex="-1" autofocus=""[^>]*>.*The translation failed: there is no file to download\./,
    );
  });

  it("a success is read out politely and leaves focus where it is", () => {
    const html = render({ kind: "success", text: "Table CUSTOMER saved." });
    expect(html).toContain("Table CUSTOMER saved.");
    expect(html).not.toContain("autofocus");
    expect(html).not.toContain('role="alert"');
  });
});
