/**
 * Every test file renders its widgets as the server does (decision 029): once their modules, imported as
 * the test's modules were evaluated, are loaded. entry.server waits for the same before it renders.
 */
import { beforeAll } from "vitest";
import { widgetsLoaded } from "~/lib/lazy-widget";

beforeAll(() => widgetsLoaded());
