import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KyselyPlugin } from "kysely";
import { createKysely } from "../../../../shared/db.ts";
import type { Database } from "../../db/schema.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { MASTER_TABLE_NEEDS_A_COLUMN, type Dictionary } from "../../../../../contracts/dictionary.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { FORBIDDEN_MESSAGE } from "../../access.ts";
import { STALE_MESSAGE } from "../../api-problem.ts";
import { DUPLICATE_DICTIONARY_MESSAGE } from "../../repositories/dictionaries.ts";
import { DUPLICATE_TABLE_MESSAGE, TABLE_NOT_FOUND_MESSAGE, TABLES_PER_BATCH, tablesInBatches, upsertTables } from "../../repositories/dictionary-tables.ts";
import { column } from "../../testing/project-fixtures.ts";
import { seedDictionary, send } from "../../testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { DICTIONARY_NOT_FOUND_MESSAGE } from "./shared.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;

const customers = {
  name: "Customers",
  description: "People who buy",
  columns: [
    { name: "CustomerId", type: "uniqueidentifier", nullable: false, isKey: true },
    { name: "Name", type: "nvarchar", length: 200, nullable: false },
    { name: "CreditLimit", type: "decimal", precision: 18, scale: 2 },
    { name: "BirthDate", type: "date", description: "Day of birth" },
  ],
};

describe.each(TEST_DATABASE_KINDS)("data dictionaries on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const path = (id: string, rest = "") => `/api/v1/data-dictionaries/${encodeURIComponent(id)}${rest}`;
  const get = (id: string, token = analyst) => api.get(`${path(id)}?tables=all`, token);
  const addTable = (d: Pick<Dictionary, "id" | "version">, table: object, token = analyst) =>
    send(api, "POST", path(d.id, "/tables"), token, { version: d.version, ...table });

  describe("create, list, read, rename", () => {
    it("creates an empty master dictionary of an application and reads it back", async () => {
      const app = await send(api, "POST", "/api/v1/applications", analyst, { companyId: acme.id, name: "Epicor" });
      const res = await send(api, "POST", "/api/v1/data-dictionaries", analyst, {
        companyId: acme.id,
        applicationId: app.body.id,
        name: "Epicor core",
        description: "Finance tables",
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        companyId: acme.id,
        applicationId: app.body.id,
        applicationName: "Epicor",
        name: "Epicor core",
        description: "Finance tables",
        tableCount: 0,
        columnCount: 0,
        updatedAt: expect.any(String),
        version: 1,
      });
      expect((await get(res.body.id)).body).toEqual({ ...res.body, tables: [] });
    });

    it("makes a dictionary once per create form (its id): sent again, or twice at once, it answers the one made; refused for another user, company, values or one that moved on", async () => {
      const app = await send(api, "POST", "/api/v1/applications", analyst, { companyId: acme.id, name: "Sent twice app" });
      const rows = (name: string) => api.db.selectFrom("dictionaries").select("id").where("name", "=", name).execute();
      const body = { id: crypto.randomUUID(), companyId: acme.id, applicationId: app.body.id, name: "Sent twice", description: null };
      const first = await send(api, "POST", "/api/v1/data-dictionaries", analyst, body);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ id: body.id, version: 1 });
      const again = await send(api, "POST", "/api/v1/data-dictionaries", analyst, body);
      expect([again.status, again.body]).toEqual([201, first.body]);
      expect(await rows("Sent twice")).toEqual([{ id: body.id }]);
      const atOnce = { ...body, id: crypto.randomUUID(), name: "Sent at once" };
      const both = await Promise.all([send(api, "POST", "/api/v1/data-dictionaries", analyst, atOnce), send(api, "POST", "/api/v1/data-dictionaries", analyst, atOnce)]);
      expect(both.map((r) => [r.status, r.body.id])).toEqual([
        [201, atOnce.id],
        [201, atOnce.id],
      ]);
      expect(await rows("Sent at once")).toEqual([{ id: atOnce.id }]);
      // Another user's sending of that id, and one for another company, are refused naming nothing.
      const birchApp = await send(api, "POST", "/api/v1/applications", analyst, { companyId: birch.id, name: "Sent twice app" });
      for (const refused of [
        await send(api, "POST", "/api/v1/data-dictionaries", await api.tokenFor(USERS.superAdmin), body),
        await send(api, "POST", "/api/v1/data-dictionaries", analyst, { ...body, companyId: birch.id, applicationId: birchApp.body.id }),
      ]) {
        expect(refused.status).toBe(409);
        expect(refused.body.errors).toEqual(["This form was sent already: nothing more was made. Reload the page to create another."]);
      }
      const renamed = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { ...body, name: "Sent twice, renamed" });
      expect(renamed.status).toBe(409);
      expect(renamed.body.errors[0]).toMatch(/^This form was sent already: the data dictionary Sent twice was made by it at \d\d:\d\d UTC\. Nothing more was made; reload the page to create another\.$/);
      // Once it moved on (a table added), the same form is refused too.
      expect((await addTable({ id: body.id, version: 1 }, customers)).status).toBe(201);
      expect((await send(api, "POST", "/api/v1/data-dictionaries", analyst, body)).status).toBe(409);
      expect(await rows("Sent twice")).toEqual([{ id: body.id }]);
      expect(await rows("Sent twice, renamed")).toEqual([]);
    });

    it("lists the company's master dictionaries sorted by name, with counts, optionally of one application", async () => {
      const first = await seedDictionary(api, analyst, birch.id, "Zeta");
      const second = await seedDictionary(api, analyst, birch.id, "Alpha");
      await addTable(first, customers);
      const all = await api.get(`/api/v1/data-dictionaries?companyId=${birch.id}`, analyst);
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total: 2, page: 1, pageSize: 25 });
      const names = all.body.items.map((d: { name: string }) => d.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(all.body.items.find((d: { id: string }) => d.id === first.id)).toMatchObject({ tableCount: 1, columnCount: 4, version: 2 });
      expect(all.body.items.every((d: { companyId: string }) => d.companyId === birch.id)).toBe(true);

      const one = await api.get(`/api/v1/data-dictionaries?companyId=${birch.id}&applicationId=${second.applicationId}`, analyst);
      expect(one.body.items.map((d: { id: string }) => d.id)).toEqual([second.id]);
      expect(one.body.total).toBe(1);
    });

    it("filters by name and application, sorts and paginates in SQL, answering the total; never project copies", async () => {
      const search = (query: Record<string, string>, token = analyst) => api.get(`/api/v1/data-dictionaries?${new URLSearchParams({ companyId: acme.id, ...query })}`, token);
      const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((d) => d.name);
      const alpha = (await send(api, "POST", "/api/v1/applications", analyst, { companyId: acme.id, name: "Sorted alpha app" })).body;
      const bravo = (await send(api, "POST", "/api/v1/applications", analyst, { companyId: acme.id, name: "SORTED bravo app" })).body;
      // Odd numbers in Alpha, even in Bravo; created out of name order, one at a time (distinct update times).
      const created: { id: string; name: string; applicationId: string; version: number }[] = [];
      for (const n of [7, 3, 12, 1, 10, 5, 9, 2, 11, 4, 8, 6]) {
        const name = `${n % 3 ? "Sorted" : "sorted"} ${String(n).padStart(2, "0")}`;
        const res = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: n % 2 ? alpha.id : bravo.id, name });
        expect(res.status).toBe(201);
        created.push(res.body);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      // A project of Alpha has its own copy named like the project: a copy is never listed.
      const project = await send(api, "POST", "/api/v1/projects", analyst, { companyId: acme.id, applicationId: alpha.id, name: "Sorted project", sourceType: "BackUp" });
      expect(project.status).toBe(201);

      const byName = created.map((d) => d.name).sort((a, b) => a.slice(-2).localeCompare(b.slice(-2)));
      const first = await search({ name: "SORTED", pageSize: "10" });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 12, page: 1, pageSize: 10 });
      expect(names(first)).toEqual(byName.slice(0, 10));
      const second = await search({ name: "sorted", pageSize: "10", page: "2" });
      expect(second.body).toMatchObject({ total: 12, page: 2, pageSize: 10 });
      expect(names(second)).toEqual(byName.slice(10));
      expect(names(await search({ name: "sorted", sort: "-name" }))).toEqual([...byName].reverse());

      const alphaNames = byName.filter((n) => Number(n.slice(-2)) % 2 === 1);
      const bravoNames = byName.filter((n) => Number(n.slice(-2)) % 2 === 0);
      const ofAlpha = await search({ name: "sorted", applicationId: alpha.id });
      expect(ofAlpha.body.total).toBe(6);
      expect(names(ofAlpha)).toEqual(alphaNames);
      expect(ofAlpha.body.items.every((d: { applicationName: string }) => d.applicationName === "Sorted alpha app")).toBe(true);
      expect(names(await search({ name: "sorted", sort: "application" }))).toEqual([...alphaNames, ...bravoNames]);
      expect(names(await search({ name: "sorted", sort: "-application" }))).toEqual([...[...bravoNames].reverse(), ...[...alphaNames].reverse()]);

      expect(names(await search({ name: "sorted", sort: "updatedAt" }))).toEqual(created.map((d) => d.name));
      // A change moves a dictionary to the most recently updated.
      const changed = created[0]!;
      expect((await send(api, "PATCH", path(changed.id), analyst, { version: changed.version, name: changed.name, description: "Changed" })).status).toBe(200);
      const recent = await search({ name: "sorted", sort: "-updatedAt", pageSize: "10" });
      expect(names(recent)).toEqual([changed.name, ...created.slice(1).map((d) => d.name).reverse()].slice(0, 10));

      // An application of another company filters to nothing; another company's list is not found.
      const birchDict = await seedDictionary(api, analyst, birch.id);
      expect((await search({ applicationId: birchDict.applicationId })).body).toMatchObject({ items: [], total: 0 });
      expect((await search({}, await api.tokenFor(USERS.clientAdmin))).status).toBe(404);
    });

    it("sorts names in natural order, a number by its value (2 before 10), renamed ones too, paging in SQL", async () => {
      const app = (await send(api, "POST", "/api/v1/applications", analyst, { companyId: acme.id, name: "Paging app" })).body;
      const create = (name: string) => send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: app.id, name });
      for (const n of [12, 1, 10, 2, 11, 3, 8, 4, 7, 5, 6]) expect((await create(`Paging ${n}`)).status).toBe(201);
      expect((await create("Paging 010 spare")).status).toBe(201);
      // Renamed: its key is written with its new name.
      const renamed = (await create("Still unnamed")).body;
      expect((await send(api, "PATCH", path(renamed.id), analyst, { version: renamed.version, name: "Paging 9", description: null })).status).toBe(200);
      const inOrder = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "010 spare", 11, 12].map((n) => `Paging ${n}`);
      const page = (sort: string, n: string) => api.get(`/api/v1/data-dictionaries?${new URLSearchParams({ companyId: acme.id, name: "paging", sort, pageSize: "10", page: n })}`, analyst);
      const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((d) => d.name);
      expect(names(await page("name", "1"))).toEqual(inOrder.slice(0, 10));
      expect(names(await page("name", "2"))).toEqual(inOrder.slice(10));
      expect(names(await page("-name", "1"))).toEqual([...inOrder].reverse().slice(0, 10));
      expect(names(await page("-name", "2"))).toEqual([...inOrder].reverse().slice(10));
      expect(names(await page("application", "1"))).toEqual(inOrder.slice(0, 10));
    });

    it("matches % and _ in the name literally, and refuses parameters it does not know", async () => {
      const app = (await send(api, "POST", "/api/v1/applications", analyst, { companyId: birch.id, name: "Literal app" })).body;
      for (const name of ["Rate 50% off", "Rate 50 percent", "Code_A", "CodeXA"]) {
        expect((await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: birch.id, applicationId: app.id, name })).status).toBe(201);
      }
      const search = (query: Record<string, string>) => api.get(`/api/v1/data-dictionaries?${new URLSearchParams({ companyId: birch.id, ...query })}`, analyst);
      expect((await search({ name: "50%" })).body.items.map((d: { name: string }) => d.name)).toEqual(["Rate 50% off"]);
      expect((await search({ name: "CODE_a" })).body.items.map((d: { name: string }) => d.name)).toEqual(["Code_A"]);
      for (const [query, field] of [
        [{ sort: "tables" }, "sort"],
        [{ pageSize: "1000" }, "pageSize"],
        [{ page: "-1" }, "page"],
        [{ applicationId: "" }, "applicationId"],
      ] as const) {
        const res = await search(query);
        expect(res.status, JSON.stringify(query)).toBe(400);
        expect(res.body.fieldErrors[field]).toHaveLength(1);
      }
    });

    it("refuses a second dictionary with the same name (any case) in the same application", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: dict.applicationId, name: dict.name.toUpperCase() });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: [DUPLICATE_DICTIONARY_MESSAGE] });
    });

    it("refuses an application of another company, or none, with 400 at the application, creating nothing", async () => {
      const birchDict = await seedDictionary(api, analyst, birch.id);
      const countInAcme = async () => (await api.get(`/api/v1/data-dictionaries?companyId=${acme.id}`, analyst)).body.total;
      const before = await countInAcme();
      const res = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: birchDict.applicationId, name: "Borrowed" });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ applicationId: ["Choose an application of this company."] });
      expect(await countInAcme()).toBe(before);
      const none = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: "", name: "Orphan" });
      expect(none.status).toBe(400);
      expect(none.body.fieldErrors.applicationId).toEqual(["Choose an application"]);
    });

    it("renames based on the version, and refuses a stale version without changing anything", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const renamed = await send(api, "PATCH", path(dict.id), analyst, { version: 1, name: "Renamed", description: "New" });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({ name: "Renamed", description: "New", version: 2 });

      // The same user's other tab is told apart from someone else.
      const stale = await send(api, "PATCH", path(dict.id), analyst, { version: 1, name: "Lost update", description: null });
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this dictionary in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/)]);
      const elsewhere = await send(api, "PATCH", path(dict.id), await api.tokenFor(USERS.superAdmin), { version: 1, name: "Lost update", description: null });
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.errors).toEqual([STALE_MESSAGE]);
      expect((await get(dict.id)).body).toMatchObject({ name: "Renamed", description: "New", version: 2 });
    });

    it("refuses renaming to another dictionary's name of the same application", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const other = await send(api, "POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: dict.applicationId, name: "Other" });
      const res = await send(api, "PATCH", path(other.body.id), analyst, { version: 1, name: dict.name, description: null });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: [DUPLICATE_DICTIONARY_MESSAGE] });
      expect((await get(other.body.id)).body).toMatchObject({ name: "Other", version: 1 });
    });
  });

  describe("tables and columns", () => {
    it("adds a table with its columns in order and answers the new table with the dictionary's new version, never its other tables", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await addTable(dict, customers);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ version: 2, tableCount: 1, columnCount: 4 });
      expect(res.body).not.toHaveProperty("tables");
      const added = [
        {
          id: expect.any(String),
          name: "Customers",
          description: "People who buy",
          order: 1,
          columns: [
            { id: expect.any(String), name: "CustomerId", type: "uniqueidentifier", length: null, precision: null, scale: null, nullable: false, isKey: true, description: null, order: 1 },
            { id: expect.any(String), name: "Name", type: "nvarchar", length: 200, precision: null, scale: null, nullable: false, isKey: false, description: null, order: 2 },
            { id: expect.any(String), name: "CreditLimit", type: "decimal", length: null, precision: 18, scale: 2, nullable: true, isKey: false, description: null, order: 3 },
            { id: expect.any(String), name: "BirthDate", type: "date", length: null, precision: null, scale: null, nullable: true, isKey: false, description: "Day of birth", order: 4 },
          ],
        },
      ];
      expect([res.body.table]).toEqual(added);
      expect((await get(dict.id)).body.tables).toEqual(added);
      const one = await api.get(path(dict.id, `/tables/${res.body.table.id}`), analyst);
      expect(one.status).toBe(200);
      expect(one.body).toEqual(res.body.table);

      const second = await addTable(res.body, { name: "Orders", columns: [{ name: "Id", type: "int" }] });
      expect(second.body).toMatchObject({ version: 3, tableCount: 2, columnCount: 5, table: { name: "Orders", order: 2 } });
    });

    it("reads the dictionary without its tables unless asked (tables=all), the counts still of them all", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      await addTable(dict, customers);
      const whole = await api.get(`${path(dict.id)}?tables=all`, analyst);
      expect(whole.body.tables).toHaveLength(1);
      for (const query of ["", "?tables=none"]) {
        const summary = await api.get(`${path(dict.id)}${query}`, analyst);
        expect(summary.status).toBe(200);
        expect(summary.body).toMatchObject({ id: dict.id, version: 2, tableCount: 1, columnCount: 4, tables: [] });
      }
      expect((await api.get(`${path(dict.id)}?tables=some`, analyst)).status).toBe(400);
      // A page of tables: with each table's columns in order when asked, else their counts alone.
      const listed = await api.get(path(dict.id, "/tables"), analyst);
      expect(listed.body.items).toEqual([expect.not.objectContaining({ columns: expect.anything() })]);
      const withColumns = await api.get(path(dict.id, "/tables?columns=all"), analyst);
      expect(withColumns.body.items[0]).toMatchObject({ name: "Customers", columnCount: 4 });
      expect(withColumns.body.items[0].columns.map((c: { name: string }) => c.name)).toEqual(["CustomerId", "Name", "CreditLimit", "BirthDate"]);
      // More tables than one batch of the streamed answer: every table once, in order, each with its columns, and valid JSON.
      const many = Array.from({ length: TABLES_PER_BATCH * 2 + 5 }, (_, i) => ({
        name: `T${String(i).padStart(3, "0")}`,
        columns: [column("Id", "int"), column("Note", "nvarchar")],
      }));
      await upsertTables(api.db, dict.id, many, { userId: "u-1" });
      const big = await api.get(`${path(dict.id)}?tables=all`, analyst);
      expect(big.status).toBe(200);
      expect(big.headers.get("content-type")).toContain("application/json");
      expect(big.body.tables.map((t: { name: string }) => t.name)).toEqual(["Customers", ...many.map((t) => t.name)]);
      expect(big.body.tables.at(-1).columns.map((c: { name: string; order: number }) => [c.name, c.order])).toEqual([
        ["Id", 1],
        ["Note", 2],
      ]);
      const batches = [];
      for await (const batch of tablesInBatches(api.db, dict.id, 100)) batches.push(batch.length);
      expect(batches).toEqual([100, 100, 100, 100, 6]);
    });

    it("breaks the whole dictionary's answer off when someone changes the dictionary while it is sent, and the next read has the change", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const many = Array.from({ length: TABLES_PER_BATCH + 5 }, (_, i) => ({ name: `T${String(i).padStart(3, "0")}`, columns: [column("Id", "int")] }));
      await upsertTables(api.db, dict.id, many, { userId: "u-1" });
      const { version } = (await api.get(path(dict.id), analyst)).body;
      // Someone adds a table right after the answer read its first batch of tables: through the API, on
      // an app of its own connection (SQLite's one connection is the answer's until its hook returns).
      const elsewhere = createKysely<Database>(api.databaseUrl);
      let added: Response | undefined;
      const addingMidway: KyselyPlugin = {
        transformQuery: ({ node }) => node,
        transformResult: async ({ result }) => {
          const first = result.rows[0];
          if (!added && result.rows.length === TABLES_PER_BATCH && first && "position" in first && "description" in first)
            added = await api.appWith({ db: elsewhere }).request(path(dict.id, "/tables"), {
              method: "POST",
              headers: { authorization: `Bearer ${analyst}`, "content-type": "application/json" },
              body: JSON.stringify({ version, name: "Arrived", columns: [column("Id", "int")] }),
            });
          return result;
        },
      };
      const res = await api
        .appWith({ db: api.db.withPlugin(addingMidway) })
        .request(`${path(dict.id)}?tables=all`, { headers: { authorization: `Bearer ${analyst}` } });
      await elsewhere.destroy();
      expect(res.status).toBe(200);
      await expect(res.text()).rejects.toThrow();
      expect(added?.status).toBe(201);

      const after = await get(dict.id);
      expect(after.body.version).toBe(version + 1);
      expect(after.body.tables.map((t: { name: string }) => t.name)).toEqual([...many.map((t) => t.name), "Arrived"]);
    });

    it("replaces a table's columns, keeping the ids of the columns whose names stay", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(dict, customers);
      const table = created.body.table;
      const idOf = (name: string) => table.columns.find((c: { name: string }) => c.name === name).id;
      const res = await send(api, "PATCH", path(dict.id, "/tables"), analyst, {
        version: created.body.version,
        tableId: table.id,
        name: "Clients",
        description: null,
        columns: [
          { name: "NAME", type: "nvarchar", length: 300, nullable: false },
          { name: "CustomerId", type: "uniqueidentifier", nullable: false, isKey: true },
          { name: "Email", type: "nvarchar", length: 320 },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 3, tableCount: 1, columnCount: 3 });
      const updated = res.body.table;
      expect((await get(dict.id)).body.tables).toEqual([updated]);
      expect(updated).toMatchObject({ id: table.id, name: "Clients", description: null });
      expect(updated.columns.map((c: { name: string; order: number; length: number | null }) => [c.name, c.order, c.length])).toEqual([
        ["NAME", 1, 300],
        ["CustomerId", 2, null],
        ["Email", 3, 320],
      ]);
      expect(updated.columns[0].id).toBe(idOf("Name"));
      expect(updated.columns[1].id).toBe(idOf("CustomerId"));
      expect([idOf("CreditLimit"), idOf("BirthDate")]).not.toContain(updated.columns[2].id);
    });

    it("lists tables a page at a time, filtered by name (wildcards taken literally), with column counts", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      let version = dict.version;
      for (const name of ["Orders", "Order_Lines", "OrderXLines", "Products"]) {
        const res = await addTable({ id: dict.id, version }, { name, columns: [{ name: "Id", type: "int" }] });
        version = res.body.version;
      }
      const page = await api.get(path(dict.id, "/tables?page=2&pageSize=2"), analyst);
      expect(page.status).toBe(200);
      expect(page.body).toEqual({
        items: [
          { id: expect.any(String), name: "OrderXLines", description: null, order: 3, columnCount: 1 },
          { id: expect.any(String), name: "Products", description: null, order: 4, columnCount: 1 },
        ],
        total: 4,
        page: 2,
        pageSize: 2,
      });
      const filtered = await api.get(path(dict.id, "/tables?name=order_"), analyst);
      expect(filtered.body.items.map((t: { name: string }) => t.name)).toEqual(["Order_Lines"]);
      expect(filtered.body.total).toBe(1);
    });

    it("removes a table with ?version and answers the new version and counts without it", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(dict, customers);
      const tableId = created.body.table.id;
      const stale = await send(api, "DELETE", path(dict.id, `/tables/${tableId}?version=1`), analyst);
      expect(stale.status).toBe(409);
      const res = await send(api, "DELETE", path(dict.id, `/tables/${tableId}?version=2`), analyst);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 3, tableCount: 0, columnCount: 0 });
      expect(res.body).not.toHaveProperty("table");
      expect((await get(dict.id)).body.tables).toEqual([]);
      expect((await api.get(path(dict.id, `/tables/${tableId}`), analyst)).status).toBe(404);
      const again = await send(api, "DELETE", path(dict.id, `/tables/${tableId}?version=3`), analyst);
      expect(again.status).toBe(404);
      expect(again.body.errors).toEqual([TABLE_NOT_FOUND_MESSAGE]);
      expect((await get(dict.id)).body.version).toBe(3);
      expect((await send(api, "DELETE", path(dict.id, `/tables/${tableId}`), analyst)).status).toBe(400);
    });

    it("refuses a stale table write and changes nothing", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(dict, customers);
      const stale = await send(api, "PATCH", path(dict.id, "/tables"), analyst, {
        version: 1,
        tableId: created.body.table.id,
        name: "Overwritten",
        columns: [{ name: "Id", type: "int" }],
      });
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this dictionary in another tab or window at /)]);
      expect((await addTable(dict, { name: "Late", columns: [{ name: "Id", type: "int" }] })).status).toBe(409);
      const { table, ...summary } = created.body;
      expect((await get(dict.id)).body).toEqual({ ...summary, tables: [table] });
    });

    it("lets exactly one of two simultaneous writes based on the same version through", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const results = await Promise.all(["First", "Second", "Third"].map((name) => addTable(dict, { name, columns: [{ name: "Id", type: "int" }] })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
      const after = (await get(dict.id)).body;
      expect(after.version).toBe(2);
      expect(after.tables).toHaveLength(1);
    });

    it("refuses a second table of the same name (any case) with a field error, and does not bump the version", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(dict, customers);
      const res = await addTable(created.body, { name: "CUSTOMERS", columns: [{ name: "Id", type: "int" }] });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: [DUPLICATE_TABLE_MESSAGE] });
      expect((await get(dict.id)).body.version).toBe(2);

      const other = await addTable(created.body, { name: "Orders", columns: [{ name: "Id", type: "int" }] });
      const rename = await send(api, "PATCH", path(dict.id, "/tables"), analyst, {
        version: other.body.version,
        tableId: other.body.table.id,
        name: "customers",
        columns: [{ name: "Id", type: "int" }],
      });
      expect(rename.status).toBe(409);
      expect(rename.body.fieldErrors).toEqual({ name: [DUPLICATE_TABLE_MESSAGE] });
    });

    it.each([
      ["a duplicate column", { columns: [{ name: "Id", type: "int" }, { name: "ID", type: "bigint" }] }, "columns.1.name", "Duplicate column ID"],
      ["an unknown type", { columns: [{ name: "Id", type: "varchar2" }] }, "columns.0.type", "Unknown type: use one of int, decimal, float, bigint, date, time, datetime, nvarchar, uniqueidentifier"],
      ["no type", { columns: [{ name: "Id" }] }, "columns.0.type", "Choose a type"],
      ["nvarchar without a length", { columns: [{ name: "Title", type: "nvarchar" }] }, "columns.0.length", "nvarchar needs a length"],
      ["a decimal scale above its precision", { columns: [{ name: "Amount", type: "decimal", precision: 5, scale: 7 }] }, "columns.0.scale", "Scale cannot be greater than precision"],
      ["an empty table name", { name: " ", columns: [{ name: "Id", type: "int" }] }, "name", "Required"],
      ["no column", { columns: [] }, "columns", MASTER_TABLE_NEEDS_A_COLUMN],
      // PostgreSQL cuts identifiers to 63 bytes: two such columns would be one, and the databases would not be made.
      ["an oversized table name", { name: "T".repeat(64), columns: [{ name: "Id", type: "int" }] }, "name", "At most 63 characters"],
      ["an oversized column name", { columns: [{ name: "C".repeat(64), type: "int" }] }, "columns.0.name", "At most 63 characters"],
      ["a system column's name", { columns: [{ name: "XMin", type: "int" }] }, "columns.0.name", "XMin is a name PostgreSQL keeps for its own columns: choose another"],
      ["a column name that is not an identifier", { columns: [{ name: "first name", type: "int" }] }, "columns.0.name", "Use letters, digits and underscores, starting with a letter or underscore"],
      ["a nullable key", { columns: [{ name: "Id", type: "int", isKey: true, nullable: true }] }, "columns.0.nullable", "A key column cannot be nullable"],
    ])("answers 400 naming the field for %s, and changes nothing", async (_what, patch, field, message) => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const res = await addTable(dict, { name: "Things", ...patch });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors[field][0]).toBe(message);
      expect((await get(dict.id)).body).toMatchObject({ version: 1, tables: [] });
    });

    it("refuses an edit that leaves a table without columns, 400 at columns, and changes nothing", async () => {
      const dict = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(dict, customers);
      const res = await send(api, "PATCH", path(dict.id, "/tables"), analyst, {
        version: created.body.version,
        tableId: created.body.table.id,
        name: "Customers",
        columns: [],
      });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ columns: [MASTER_TABLE_NEEDS_A_COLUMN] });
      const { table, ...summary } = created.body;
      expect((await get(dict.id)).body).toEqual({ ...summary, tables: [table] });
    });

    it("answers 404 for a table of another dictionary", async () => {
      const one = await seedDictionary(api, analyst, acme.id);
      const two = await seedDictionary(api, analyst, acme.id);
      const created = await addTable(one, customers);
      const tableId = created.body.table.id;
      expect((await api.get(path(two.id, `/tables/${tableId}`), analyst)).status).toBe(404);
      const patch = await send(api, "PATCH", path(two.id, "/tables"), analyst, { version: 1, tableId, name: "Stolen", columns: [{ name: "Id", type: "int" }] });
      expect(patch.status).toBe(404);
      expect((await get(two.id)).body.version).toBe(1);
    });
  });

  describe("who may see and change a dictionary", () => {
    let acmeDict: Dictionary;
    let birchDict: Dictionary;
    let cedarDict: Dictionary;
    beforeAll(async () => {
      acmeDict = await seedDictionary(api, analyst, acme.id, "Acme");
      birchDict = await seedDictionary(api, analyst, birch.id, "Birch");
      cedarDict = await seedDictionary(api, await api.tokenFor(USERS.superAdmin), cedar.id, "Cedar");
    });

    const everyRoute = (d: Dictionary) => [
      () => ["GET", path(d.id)] as const,
      () => ["PATCH", path(d.id), { version: 1, name: "X" }] as const,
      () => ["GET", path(d.id, "/tables")] as const,
      () => ["POST", path(d.id, "/tables"), { version: 1, name: "X", columns: [{ name: "Id", type: "int" }] }] as const,
      () => ["GET", path(d.id, "/tables/any")] as const,
      () => ["DELETE", path(d.id, "/tables/any?version=1")] as const,
      () => ["GET", path(d.id, "/bulk-uploads")] as const,
      () => ["GET", path(d.id, "/bulk-uploads/any")] as const,
      () => ["POST", path(d.id, "/bulk-uploads/any/apply")] as const,
      () => ["DELETE", path(d.id, "/bulk-uploads/any")] as const,
    ];

    it("answers 404, exactly as for an unknown id, to a user of another company (Acme Health asking for Birch Logistics)", async () => {
      const acmeUser = await api.tokenFor(USERS.viewer);
      const birchUser = await api.tokenFor(USERS.clientAdmin);
      for (const [token, dict] of [
        [acmeUser, birchDict],
        [birchUser, acmeDict],
      ] as const) {
        for (const route of everyRoute(dict)) {
          const [method, url, body] = route();
          const res = await send(api, method, url, token, body);
          expect(res.status, `${method} ${url}`).toBe(404);
          expect(res.body.errors).toEqual([DICTIONARY_NOT_FOUND_MESSAGE]);
        }
      }
      const unknown = await get("00000000-0000-4000-8000-000000000000");
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors).toEqual([DICTIONARY_NOT_FOUND_MESSAGE]);
      // The list of another company's dictionaries is a 404 too (the company is not visible).
      expect((await api.get(`/api/v1/data-dictionaries?companyId=${birch.id}`, acmeUser)).status).toBe(404);
      // Nothing was changed by the refused writes.
      expect((await get(acmeDict.id)).body.version).toBe(1);
      expect((await get(birchDict.id)).body.version).toBe(1);
    });

    it.each([
      ["Viewer", () => USERS.viewer, () => acmeDict],
      ["Manager", () => USERS.manager, () => cedarDict],
    ])("answers 403 to a %s of the dictionary's company, on every route", async (_who, user, dict) => {
      const token = await api.tokenFor(user());
      for (const route of everyRoute(dict())) {
        const [method, url, body] = route();
        const res = await send(api, method, url, token, body);
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.errors).toEqual([FORBIDDEN_MESSAGE]);
      }
      expect((await api.get(`/api/v1/data-dictionaries?companyId=${dict().companyId}`, token)).status).toBe(403);
    });

    it("lets Support read any company's dictionary", async () => {
      const res = await get(cedarDict.id, await api.tokenFor(USERS.support));
      expect(res.status).toBe(200);
    });

    it("requires a bearer token", async () => {
      expect((await api.get(path(acmeDict.id))).status).toBe(401);
    });
  });
});
