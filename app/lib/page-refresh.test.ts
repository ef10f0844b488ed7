/**
 * A job's page reads its loaders again when its poll says the job ended (useLivePoll); that refresh
 * must not restart the page the user is going to. Played on a real React Router (a memory router), whose revalidate()
 * during a navigation's load starts that load again.
 */
import { createMemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { mayRefresh } from "./page-refresh";

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/** A job's page at / and a page /next whose loader answers when the test lets it, counting its calls. */
async function routerGoingToNext() {
  const next = { calls: 0, answer: () => {} };
  const router = createMemoryRouter(
    [
      { path: "/", id: "job", loader: () => "job" },
      {
        path: "/next",
        id: "next",
        loader: async () => {
          next.calls++;
          await new Promise<void>((resolve) => (next.answer = resolve));
          return "next";
        },
      },
    ],
    { initialEntries: ["/"] },
  );
  router.initialize();
  await settle();
  void router.navigate("/next");
  await settle();
  return { router, next };
}

/** A job's page reading its loaders again: what useLivePoll does through usePageRefresh (its job ended, a poll refused). */
function tick(router: Awaited<ReturnType<typeof routerGoingToNext>>["router"]) {
  if (mayRefresh({ navigation: router.state.navigation.state, revalidation: router.state.revalidation })) void router.revalidate();
}

describe("a job's page refreshing itself", () => {
  it("lets the page the user is going to load once, and arrive", async () => {
    const { router, next } = await routerGoingToNext();
    expect(router.state.navigation.state).toBe("loading");
    tick(router);
    tick(router);
    await settle();
    expect(next.calls).toBe(1);
    next.answer();
    await settle();
    expect(router.state.location.pathname).toBe("/next");
    expect(router.state.loaderData.next).toBe("next");
  });

  it("where an unguarded revalidate starts that page's load again at each tick (why the guard is there)", async () => {
    const { router, next } = await routerGoingToNext();
    void router.revalidate();
    await settle();
    void router.revalidate();
    await settle();
    expect(next.calls).toBe(3);
  });

  it("refreshes when nothing else is under way, and not while a refresh or a post is", () => {
    expect(mayRefresh({ navigation: "idle", revalidation: "idle" })).toBe(true);
    expect(mayRefresh({ navigation: "idle", revalidation: "loading" })).toBe(false);
    expect(mayRefresh({ navigation: "submitting", revalidation: "idle" })).toBe(false);
    expect(mayRefresh({ navigation: "loading", revalidation: "idle" })).toBe(false);
  });
});
