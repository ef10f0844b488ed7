/**
 * The tenancy rule, route by route: a user of one company never receives another company's data,
 * and never changes it. Every operation of the data API's OpenAPI document is called by an analyst
 * of Acme and Birch with the ids of Cedar's things (a company the analyst has no role in): each must
 * answer 404, or 400/413/415 for a body refused before anything is looked up. Then, where a path
 * nests one thing in another, with the analyst's own Acme project, dictionary or template around
 * Cedar's child ids: 404 again, never Cedar's rows through a parent the caller may open. A route
 * added later is swept without a word here.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Template } from "../../../contracts/templates.ts";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { OPENAPI_PATH } from "./openapi.ts";
import { seedDictionary } from "./testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";
import { addProjectTable, column, makeApplication, makeConfiguration, makeMappingProject, makeProject } from "./testing/project-fixtures.ts";

const [cedar, acme] = DEMO_COMPANIES;

type Schema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  minimum?: number;
  minItems?: number;
  format?: string;
};
type Parameter = { in: string; name: string; required?: boolean; schema?: Schema };
type Operation = { method: string; path: string; query: Parameter[]; body: Schema | undefined; multipart: boolean };

/**
 * A value the schema accepts, so that a request passes validation and reaches the route's lookups:
 * the given fields as given (the company, the version), the rest the least the schema asks for.
 */
function sampleOf(schema: Schema | undefined, given: Record<string, unknown>, components: Record<string, Schema>, key = ""): unknown {
  if (!schema) return undefined;
  if (key in given) return given[key];
  if (schema.$ref) return sampleOf(components[schema.$ref.split("/").at(-1)!], given, components, key);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => sampleOf(s, given, components, key)));
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return sampleOf(choice.find((s) => s.type !== "null") ?? choice[0], given, components, key);
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case "object":
      return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleOf(schema.properties?.[name], given, components, name)]));
    case "array":
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items, given, components));
    case "integer":
    case "number":
      return Math.max(1, schema.minimum ?? 1);
    case "boolean":
      return false;
    default:
      return schema.nullable ? null : "Sample".padEnd(schema.minLength ?? 1, "x");
  }
}

/**
 * What is known of a company's things: the path's `{id}` by its collection, the other path
 * parameters by name (a table's id by its dictionary's owner), and the names that must not leak.
 */
type Things = { byCollection: Record<string, string>; children: Record<string, string>; masterTableId: string; names: string[] };

/** Statuses that say nothing of the other company's thing: not found, or a request refused before any lookup. */
const REFUSALS = [400, 404, 413, 415];

describe.each(TEST_DATABASE_KINDS)("another company's ids on every route, on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  let operations: Operation[];
  let components: Record<string, Schema>;
  let theirs: Things;
  let ours: Things;
  /** Cedar's things as the admin read them before the sweeps. */
  let before: unknown[];
  const readTheirs = async () => {
    const admin = await api.tokenFor(USERS.superAdmin);
    const things = Object.entries(theirs.byCollection).filter(([collection]) => collection !== "companies");
    return Promise.all(
      things.map(async ([collection, id]) => {
        const res = await api.get(`/api/v1/${collection}/${id}`, admin);
        expect(res.status, collection).toBe(200);
        return res.body;
      }),
    );
  };

  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
    const admin = await api.tokenFor(USERS.superAdmin);
    expect(USERS.analyst.permissions.map((p) => p.companyId)).not.toContain(cedar.id);

    type Doc = {
      paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> } }>>;
      components?: { schemas?: Record<string, Schema> };
    };
    const doc = (await api.get(OPENAPI_PATH)).body as Doc;
    components = doc.components?.schemas ?? {};
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        query: (op.parameters ?? []).filter((p) => p.in === "query"),
        body: op.requestBody?.content["application/json"]?.schema,
        multipart: op.requestBody !== undefined && !op.requestBody.content["application/json"],
      })),
    );
    theirs = await thingsOf(cedar.id, admin, "Cedar");
    ours = await thingsOf(acme.id, analyst, "Acme");
    before = await readTheirs();
  }, 120_000);
  afterAll(() => api?.close());

  /** A company's application, dictionary with a table, migration and mapping projects with a table, and a template with a level and a script. */
  async function thingsOf(companyId: string, token: string, label: string): Promise<Things> {
    const name = (what: string) => `${label} secret ${what} ${randomUUID().slice(0, 6)}`;
    const application = await makeApplication(api, companyId, name("application"));
    const dictionary = await seedDictionary(api, token, companyId, name("dictionary"));
    const dictionaryTable = await api.send("POST", `/api/v1/data-dictionaries/${dictionary.id}/tables`, token, {
      version: dictionary.version,
      name: "SecretTable",
      description: null,
      columns: [column("Id", "int", { isKey: true, nullable: false })],
    });
    expect(dictionaryTable.status, JSON.stringify(dictionaryTable.body)).toBe(201);
    const project = await makeProject(api, token, { companyId, applicationId: application.id, name: name("project") });
    const [scheme] = demoAdminDataSources(companyId);
    const configuration = await makeConfiguration(api, token, {
      companyId,
      applicationId: application.id,
      name: name("configuration"),
      schemeIds: [scheme!.id],
    });
    const projectTable = await addProjectTable(api, project.id, {
      name: "SecretOrders",
      columns: [column("OrderId", "int", { isKey: true, nullable: false })],
    });
    const mapping = await makeMappingProject(api, token, { companyId, applicationId: application.id, name: name("mapping") });

    const created = await api.send("POST", "/api/v1/master-templates", token, { companyId, area: "migration", name: name("template"), type: "Core" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const leveled: Template = (
      await api.send("POST", `/api/v1/master-templates/${created.body.id}/levels`, token, { version: created.body.version, name: "Load" })
    ).body;
    const level = leveled.levels[0]!;
    const script = await api.send("POST", `/api/v1/master-templates/${leveled.id}/levels/${level.id}/scripts`, token, {
      version: leveled.version,
      name: "SecretScript",
      sql: "select 1;",
      comment: null,
    });
    expect(script.status, JSON.stringify(script.body)).toBe(201);

    return {
      byCollection: {
        "data-dictionaries": dictionary.id,
        "master-templates": leveled.id,
        projects: project.id,
        "audit-projects": configuration.id,
        "mapping-projects": mapping.id,
        companies: companyId,
      },
      masterTableId: (dictionaryTable.body as { tables: { id: string }[] }).tables[0]!.id,
      children: {
        tableId: projectTable.tableId,
        dictionaryId: dictionary.id,
        templateId: leveled.id,
        levelId: level.id,
        scriptId: script.body.id,
        companyId,
      },
      names: [application.name, dictionary.name, project.name, configuration.name, mapping.name, leveled.name],
    };
  }

  /**
   * The operation called with `parent` for `{id}`, `child` for the other path parameters, and a query
   * and body its schemas accept naming `companyId`; `version` is the parent's current one, so that a
   * stale check never answers before the lookups.
   */
  function call(op: Operation, parent: (collection: string) => string, child: (name: string, collection: string) => string, companyId: string, version = 1) {
    const collection = op.path.split("/")[3]!;
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(name === "id" ? parent(collection) : child(name, collection)));
    const given = {
      companyId,
      version,
      name: `Changed_${randomUUID().slice(0, 6)}`,
      sql: "select 2;",
      url: "https://hooks.example.test/dt",
      expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      userId: USERS.viewer.id,
      backupId: randomUUID(),
    };
    const query = new URLSearchParams();
    for (const p of op.query)
      if (p.required || p.name === "companyId" || p.name === "version") query.set(p.name, String(sampleOf(p.schema, given, components, p.name)));
    const body = op.body ? sampleOf(op.body, given, components) : undefined;
    return api.send(op.method, query.size ? `${path}?${query}` : path, analyst, body);
  }

  /** A refusal for the caller's role alone: the same route answers 403 for the caller's own company too. */
  async function refusedAnywhere(op: Operation) {
    return (await call(op, parentOf(ours), childOf(ours), acme.id)).status === 403;
  }

  /**
   * What is wrong with the answer, if anything: a status other than a refusal (a 403 only when the
   * caller's role is refused for its own company too), or any of Cedar's names in the body.
   */
  async function unlessRefused(op: Operation, res: { status: number; body: unknown }): Promise<string | undefined> {
    const text = JSON.stringify(res.body ?? "");
    const leaked = theirs.names.some((n) => text.includes(n));
    if (!leaked && (REFUSALS.includes(res.status) || (res.status === 403 && (await refusedAnywhere(op))))) return undefined;
    return `${op.method} ${op.path}: ${res.status} ${text.slice(0, 160)}`;
  }

  /** `{id}` of a collection: the company's thing there (a project for the companies' sub-routes). */
  const parentOf = (things: Things) => (collection: string) => things.byCollection[collection] ?? things.byCollection.projects!;
  /** Any other path parameter: the company's child of that name, or a value that names nothing. */
  const childOf = (things: Things) => (name: string, collection: string) => {
    if (name === "tableId" && collection === "data-dictionaries") return things.masterTableId;
    return things.children[name] ?? (name === "version" ? "1" : name === "kind" ? "source" : name === "table" ? "SecretOrders" : randomUUID());
  };

  it("answers 404 (or refuses the body first) for Cedar's ids on every route that names a company's thing", async () => {
    const answered: string[] = [];
    let swept = 0;
    for (const op of operations) {
      const collection = op.path.split("/")[3]!;
      const namesAThing = op.path.includes("{") || op.query.some((p) => p.name === "companyId") || op.body || op.multipart;
      // The document itself, the caller's own lists of companies and product facts name nothing of a company.
      if (!namesAThing || collection === "productInfo") continue;
      swept++;
      const wrong = await unlessRefused(op, await call(op, parentOf(theirs), childOf(theirs), cedar.id));
      if (wrong) answered.push(wrong);
    }
    expect(swept).toBeGreaterThan(250);
    expect(answered).toEqual([]);
  }, 120_000);

  it("answers 404 for Cedar's child ids inside the caller's own project, dictionary or template", async () => {
    const answered: string[] = [];
    let swept = 0;
    for (const op of operations) {
      const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      // Only children that Cedar has: its table, template, level, script and dictionary.
      const foreign = params.filter((p) => p !== "id" && theirs.children[p] !== undefined);
      if (!params.includes("id") || foreign.length === 0) continue;
      const collection = op.path.split("/")[3]!;
      const parentId = ours.byCollection[collection] ?? ours.byCollection.projects!;
      // The version a write is based on: the project's own dictionary's for its dictionary routes.
      const parent = await api.get(`/api/v1/${collection}/${parentId}${op.path.includes("/data-dictionary/") ? "/data-dictionary" : ""}`, analyst);
      swept++;
      const wrong = await unlessRefused(op, await call(op, () => parentId, childOf(theirs), acme.id, parent.body?.version ?? 1));
      if (wrong) answered.push(wrong);
    }
    expect(swept).toBeGreaterThan(60);
    expect(answered).toEqual([]);
  }, 120_000);

  it("changed nothing of Cedar's", async () => {
    expect(before.length).toBe(5);
    expect(await readTheirs()).toEqual(before);
  });
});
