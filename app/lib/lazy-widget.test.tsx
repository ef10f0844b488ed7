/**
 * A widget loaded on demand (decision 029) is in the page's HTML as the server sends it: entry.server
 * streams from the shell on, and a widget sent after the shell is hidden until an inline script moves it
 * in, which a browser without JavaScript never runs.
 */
import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BOUNDARIES_INLINE, lazyWidget, widgetsLoaded } from "./lazy-widget";

const Greeting = lazyWidget(() => import("~/test/lazy-widget-fixture").then((m) => m.Greeting));

/** What the server sends at once, as entry.server renders (its options, from the shell on): the first flush. */
function firstFlush(element: React.ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe } = renderToPipeableStream(element, {
      ...BOUNDARIES_INLINE,
      onShellReady() {
        const body = new PassThrough();
        let first = "";
        body.on("data", (chunk: Buffer) => (first += chunk.toString()));
        pipe(body);
        // What pipe wrote before this turn ends is the shell's flush; anything later would come after it.
        setImmediate(() => resolve(first));
      },
      onShellError: reject,
    });
  });
}

/** A page as large as a real one (React sends a large boundary apart once a page passes 12.8 KB), the widget in it. */
function Page({ rows }: { rows: number }) {
  return (
    <main>
      <h1>Load a flat file</h1>
      <p>{"Columns are matched to the table's by header name. ".repeat(300)}</p>
      <Greeting name="Orders.csv" rows={rows} />
    </main>
  );
}

describe("a widget loaded on demand, rendered on the server", () => {
  it("is in the first flush of the page, where it stands, never a fallback filled in by a script", async () => {
    await widgetsLoaded();
    const html = await firstFlush(<Page rows={40} />);
    expect(html.length).toBeGreaterThan(15_000);
    // A completed boundary (<!--$-->) holding the table, not a pending one (<!--$?-->) with the table in a hidden div.
    expect(html).toMatch(
      /<!--\$--><table aria-label="Rows for Orders.csv"><tbody>(<tr><td>Row <!-- -->\d+<\/td><\/tr>){40}<\/tbody><\/table><!--\/\$--><\/main>/,
    );
    expect(html).not.toContain("<!--$?-->");
    expect(html).not.toContain("<div hidden");
  });

  it("is waited for by entry.server: once its module is loaded there is nothing left to wait for", async () => {
    await widgetsLoaded();
    expect(widgetsLoaded()).toBeNull();
  });
});
