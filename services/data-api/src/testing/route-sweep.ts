/**
 * Sweeps over every operation of the data API's OpenAPI document (tenancy.test.ts, stale-writes.test.ts):
 * the operations as the document declares them, a company's things to name in their paths, and each
 * operation called with a query and body its schemas accept, so that a request passes validation and
 * reaches the route's lookups and checks. A route added later is swept without a word in the tests.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import type { Dictionary } from "../../../../contracts/dictionary.ts";
import type { Template } from "../../../../contracts/templates.ts";
import { demoAdminDataSources } from "../../../../scripts/demo-data.ts";
import { OPENAPI_PATH } from "../openapi.ts";
import type { DatabaseKind } from "../../../shared/db.ts";
import { TEST_POSTGRES_ADMIN_URL } from "../../../shared/testing/databases.ts";
import { fixture } from "./dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "./harness.ts";
import {
  addProjectTable,
  column,
  makeApplication,
  makeConfiguration,
  makeMappingProject,
  makeProject,
  mappingWorkOf,
  projectWorkOf,
  type FixtureApi,
  type MappingWork,
  type ProjectWork,
} from "./project-fixtures.ts";

export type Schema = {
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
};
type Parameter = { in: string; name: string; required?: boolean; schema?: Schema };
export type Operation = { method: string; path: string; query: Parameter[]; body: Schema | undefined; multipart: boolean };

/** The document's operations, and its shared schemas. */
async function readOperations(api: TestApi): Promise<{ operations: Operation[]; components: Record<string, Schema> }> {
  type Doc = {
    paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> } }>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const doc = (await api.get(OPENAPI_PATH)).body as Doc;
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      query: (op.parameters ?? []).filter((p) => p.in === "query"),
      body: op.requestBody?.content["application/json"]?.schema,
      multipart: op.requestBody !== undefined && !op.requestBody.content["application/json"],
    })),
  );
  return { operations, components: doc.components?.schemas ?? {} };
}

/** The collection an operation's path is under (`projects`, `master-templates`, …). */
export const collectionOf = (op: Operation) => op.path.split("/")[3]!;

/**
 * The leaves of a sample: what the schema asks for at the least, or values meant to break what is
 * behind it: text with quotes and markup for the SQL and the HTML, a lone surrogate and 3,000
 * characters (`hostile` adds a NUL, which PostgreSQL's text refuses), and one past PostgreSQL's
 * integer wherever the schema takes a number.
 */
type Leaves = "valid" | "hostile" | "hostile-without-nul";

const HOSTILE_TEXT = `'"; drop table projects; --<b>\ud800${"x".repeat(3000)}`;
const HOSTILE_INTEGER = 2 ** 31;

/**
 * A value for the schema: the given fields as given; the rest, with valid leaves, the least the schema
 * asks for (so that a request passes validation and reaches the route's lookups), with hostile
 * leaves HOSTILE_TEXT and HOSTILE_INTEGER wherever the schema takes text or a number.
 */
function sampleOf(schema: Schema | undefined, given: Record<string, unknown>, components: Record<string, Schema>, leaves: Leaves, key = ""): unknown {
  if (!schema) return undefined;
  if (key in given) return given[key];
  const inner = (s: Schema | undefined, k = key) => sampleOf(s, given, components, leaves, k);
  if (schema.$ref) return inner(components[schema.$ref.split("/").at(-1)!]);
  if (schema.allOf?.length) return Object.assign({}, ...schema.allOf.map((s) => inner(s)));
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice?.length) return inner(choice.find((s) => s.type !== "null") ?? choice[0]);
  if (schema.enum?.length) return schema.enum[0];
  switch (schema.type) {
    case "object": {
      // The fields that name a thing are sent whenever given, optional or not: that is what a sweep of them is for.
      const named = Object.keys(schema.properties ?? {}).filter((name) => name in given && NAMING_FIELDS.includes(name));
      const names = [...new Set([...(schema.required ?? []), ...named])];
      return Object.fromEntries(names.map((name) => [name, inner(schema.properties?.[name], name)]));
    }
    case "array":
      return Array.from({ length: Math.max(schema.minItems ?? 0, leaves === "valid" ? 0 : 1) }, () => inner(schema.items, ""));
    case "integer":
    case "number":
      return leaves === "valid" ? Math.max(1, schema.minimum ?? 1) : HOSTILE_INTEGER;
    case "boolean":
      return false;
    default:
      if (leaves !== "valid") return leaves === "hostile" ? `${HOSTILE_TEXT}\u0000` : HOSTILE_TEXT;
      return schema.nullable ? null : "Sample".padEnd(schema.minLength ?? 1, "x");
  }
}

/**
 * What is known of a company's things: the path's `{id}` by its collection, the other path
 * parameters by name (a master's or a project's copy by the collection, a mapping project's own
 * table under its collection), and the names that must not leak to another company.
 */
export type Things = {
  byCollection: Record<string, string>;
  master: Children;
  project: Children;
  /**
   * The mapping project's table, in place of the migration project's under `mapping-projects` (with `work`), and
   * its copy of the company's Translations master template (`masters.translations`) with its level and script.
   */
  mapping: Partial<Children>;
  /**
   * With `work`, the configuration's own children in place of the migration project's under `audit-projects`: its
   * table, its copy of the company's Onboarding master template (`masters.onboarding`) with its level and script,
   * and on the test run's PostgreSQL its databases' work (a load with its history entry, job and backup, a staged
   * upload, a run).
   */
  configuration: Partial<Children & ProjectWork>;
  /** With `work`, the company's master templates of Onboarding and Translations (`master` holds Migration's), each with a level and a script. */
  masters: Partial<Record<"onboarding" | "translations", TemplateChildren>>;
  /** The children named by the other path parameters (a run, a load, a column of a map…), with `work`: see thingsOf. */
  others: Partial<Omit<ProjectWork & MappingWork, "tableId"> & { userId: string }>;
  dictionaryId: string;
  applicationId: string;
  schemeId: string;
  names: string[];
};

/**
 * The path parameters of a master's or a project's children (a table, a template, its level and script),
 * and of a dictionary's bulk upload waiting for review (with `work`).
 */
const CHILD_PARAMS = ["tableId", "templateId", "levelId", "scriptId"] as const;
type Children = Record<(typeof CHILD_PARAMS)[number], string> & { reviewId?: string };
/** A template's path parameters: the template, its level and that level's script. */
type TemplateChildren = Pick<Children, "templateId" | "levelId" | "scriptId">;

/** The other path parameters that name a child of a workspace: see Things' `others`. */
const OTHER_PARAMS = ["jobId", "loadId", "historyId", "uploadId", "runId", "backupId", "columnId", "importId", "translationId", "userId"] as const;

/** The names of the path parameters other than `{id}` that a company's things fill (with `work`, all of them). */
export const THING_CHILDREN: readonly string[] = [...CHILD_PARAMS, "reviewId", "dictionaryId", ...OTHER_PARAMS];

/** The path parameters that name no child by id (a database, a table by its name, a script's version): the value each is given. */
const NAME_PARAMS: ReadonlyMap<string, string> = new Map([
  ["version", "1"],
  ["kind", "source"],
  ["table", "SecretOrders"],
]);

/**
 * The path parameters of `op` that the sweeps do not know: neither `{id}` (the parent), a child a company's things
 * fill (THING_CHILDREN) nor a name (NAME_PARAMS). A route with a new kind of child must say here what it names:
 * swept with an id of nothing, it would never show whether its lookup keeps to its parent.
 */
export const unknownParamsOf = (op: Operation) =>
  [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((name) => name !== "id" && !THING_CHILDREN.includes(name) && !NAME_PARAMS.has(name));

/**
 * A company's application, master dictionary with a table, migration project with a table and a copy
 * of the company's master template (a level, a script), onboarding configuration and mapping project.
 *
 * With `work`, also what the other path parameters name, so that a sweep names real children of the
 * company's, not ids of nothing: a bulk upload of the master and of the project's dictionary waiting for
 * review, `work.memberId` (a user of this company only) on the project's access list, the mapping
 * project's table with a column whose map has an import waiting and a translation (mappingWorkOf), the
 * company's master templates of Onboarding and Translations with the configuration's and the mapping project's
 * copies (levels, scripts), the configuration's table; and on the test run's PostgreSQL, the project's and the
 * configuration's databases, each with a load, its history entry and job, a staged upload, a run and the
 * backup the load took (projectWorkOf, some seconds each). Without PostgreSQL
 * (SKIP_POSTGRES=1) those stay ids of nothing. `{kind}`, `{table}` and `{version}` name no child by id
 * (a database, a table by its name, a script's version): childOf gives them the project's.
 */
export async function thingsOf(api: FixtureApi, companyId: string, token: string, label: string, work?: { memberId: string }): Promise<Things> {
  const name = (what: string) => `${label} secret ${what} ${randomUUID().slice(0, 6)}`;
  const created = async (method: string, url: string, body: unknown) => {
    const res = await api.send(method, url, token, body);
    expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body;
  };
  const application = await makeApplication(api, companyId, name("application"));
  // The application's own dictionary, so that its projects may be given it.
  const dictionary: Dictionary = await created("POST", "/api/v1/data-dictionaries", { companyId, applicationId: application.id, name: name("dictionary") });
  const withTable = await created("POST", `/api/v1/data-dictionaries/${dictionary.id}/tables`, {
    version: dictionary.version,
    name: "SecretTable",
    description: null,
    columns: [column("Id", "int", { isKey: true, nullable: false })],
  });
  const project = await makeProject(api, token, { companyId, applicationId: application.id, name: name("project") });
  const projectTable = await addProjectTable(api, project.id, { name: "SecretOrders", columns: [column("OrderId", "int", { isKey: true, nullable: false })] });
  const [scheme] = demoAdminDataSources(companyId);
  const configuration = await makeConfiguration(api, token, { companyId, applicationId: application.id, name: name("configuration"), schemeIds: [scheme!.id] });
  const mapping = await makeMappingProject(api, token, { companyId, applicationId: application.id, name: name("mapping") });

  /** An Available master template of the company's `area`, with a level and a script. */
  const masterTemplate = async (area: "migration" | "onboarding" | "translations", type: "Core" | "Mapping") => {
    const draft = await created("POST", "/api/v1/master-templates", { companyId, area, name: name(`${area} template`), type });
    const leveled: Template = await created("POST", `/api/v1/master-templates/${draft.id}/levels`, { version: draft.version, name: "Load" });
    const level = leveled.levels[0]!;
    const script = await created("POST", `/api/v1/master-templates/${leveled.id}/levels/${level.id}/scripts`, {
      version: leveled.version,
      name: "SecretScript",
      sql: "select 1;",
      comment: null,
    });
    const withScript: Template = (await api.get(`/api/v1/master-templates/${leveled.id}`, token)).body;
    const available: Template = await created("POST", `/api/v1/master-templates/${leveled.id}/status`, { version: withScript.version, status: "Available" });
    return { template: available, levelId: level.id, scriptId: script.id as string };
  };
  /** The workspace's copy of the master template `templateId` (assigned to it), with its level and script. */
  const copyOf = async (collection: string, workspaceId: string, templateId: string): Promise<TemplateChildren> => {
    const assigned = await created("POST", `/api/v1/${collection}/${workspaceId}/templates/assign`, { templateIds: [templateId] });
    const copy: Template = (await api.get(`/api/v1/${collection}/${workspaceId}/templates/${assigned.items[0].id}`, token)).body;
    return { templateId: copy.id, levelId: copy.levels[0]!.id, scriptId: copy.levels[0]!.scripts[0]!.id };
  };
  const { template: available, levelId, scriptId } = await masterTemplate("migration", "Core");
  const copy = await copyOf("projects", project.id, available.id);

  const names = [application.name, dictionary.name, project.name, configuration.name, mapping.name, available.name];
  let children: Pick<Things, "mapping" | "others" | "configuration" | "masters"> & { masterReviewId?: string; projectReviewId?: string } = {
    mapping: {},
    others: {},
    configuration: {},
    masters: {},
  };
  if (work) {
    const fileName = name("file");
    names.push(fileName);
    const orders = { name: "SecretOrders", key: "OrderId" };
    const projectWork = TEST_POSTGRES_ADMIN_URL ? await projectWorkOf(api, token, project.id, orders, fileName) : {};
    const { tableId, ...mappingWork } = await mappingWorkOf(api, token, mapping.id, fileName);
    // The other areas' master templates, each workspace's copy of its own area's, and the configuration's table and work.
    const [onboarding, translations] = [await masterTemplate("onboarding", "Core"), await masterTemplate("translations", "Mapping")];
    names.push(onboarding.template.name, translations.template.name);
    const mappingCopy = await copyOf("mapping-projects", mapping.id, translations.template.id);
    const configurationTable = await addProjectTable(api, configuration.id, {
      name: orders.name,
      columns: [column(orders.key, "int", { isKey: true, nullable: false })],
    });
    const configurationCopy = await copyOf("audit-projects", configuration.id, onboarding.template.id);
    const configurationWork = TEST_POSTGRES_ADMIN_URL ? await projectWorkOf(api, token, configuration.id, orders, fileName, "audit-projects") : {};
    const review = async (url: string) => {
      const res = await api.postForm(url, token, { file: { name: `${fileName}.csv`, content: fixture("sample-dictionary.csv") } });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(201);
      return res.body.id as string;
    };
    await created("PUT", `/api/v1/projects/${project.id}/users/${work.memberId}`, { canRead: true });
    const templateOf = (t: typeof onboarding) => ({ templateId: t.template.id, levelId: t.levelId, scriptId: t.scriptId });
    children = {
      mapping: { tableId, ...mappingCopy },
      configuration: { tableId: configurationTable.tableId, ...configurationCopy, ...configurationWork },
      masters: { onboarding: templateOf(onboarding), translations: templateOf(translations) },
      others: { ...projectWork, ...mappingWork, userId: work.memberId },
      masterReviewId: await review(`/api/v1/data-dictionaries/${dictionary.id}/bulk-uploads`),
      projectReviewId: await review(`/api/v1/projects/${project.id}/data-dictionary/bulk-uploads`),
    };
  }

  return {
    byCollection: {
      "data-dictionaries": dictionary.id,
      "master-templates": available.id,
      projects: project.id,
      "audit-projects": configuration.id,
      "mapping-projects": mapping.id,
      companies: companyId,
    },
    master: {
      tableId: (withTable as { table: { id: string } }).table.id,
      templateId: available.id,
      levelId,
      scriptId,
      reviewId: children.masterReviewId,
    },
    project: { tableId: projectTable.tableId, ...copy, reviewId: children.projectReviewId },
    mapping: children.mapping,
    configuration: children.configuration,
    masters: children.masters,
    others: children.others,
    dictionaryId: dictionary.id,
    applicationId: application.id,
    schemeId: scheme!.id,
    names,
  };
}

/**
 * The body and query fields that name a company's thing by id, filled from `things`: a sweep calls a
 * route of one company's thing with another company's ids in them. A workspace's work (with `work`, else
 * ids of nothing) is named as a run to rerun, a staged upload to load and a history entry to undo or
 * compare with; a backup to restore or compare with is not (`backupId` is the other choice of those
 * forms, which refuse both at once), and stays an id of nothing.
 */
export function namedBy(things: Things): Record<string, unknown> {
  const { project, master } = things;
  return {
    applicationId: things.applicationId,
    sourceDictionaryId: things.dictionaryId,
    dictionaryId: things.dictionaryId,
    templateIds: [master.templateId],
    masterTemplateId: master.templateId,
    templateId: project.templateId,
    levelId: project.levelId,
    levelIds: [project.levelId],
    scriptId: project.scriptId,
    tableId: project.tableId,
    schemeIds: [things.schemeId],
    mappingProjectId: things.byCollection["mapping-projects"],
    projectId: things.byCollection.projects,
    workspaceId: things.byCollection.projects,
    rerunOf: things.others.runId ?? randomUUID(),
    uploadId: things.others.uploadId ?? randomUUID(),
    undo: things.others.historyId ?? randomUUID(),
    historyId: things.others.historyId ?? randomUUID(),
  };
}

/** Things of no company: every id one of nothing, for what a route answers to an id it cannot find. */
export function thingsOfNobody(): Things {
  const children = () => ({ tableId: randomUUID(), templateId: randomUUID(), levelId: randomUUID(), scriptId: randomUUID() });
  return {
    byCollection: { projects: randomUUID(), "mapping-projects": randomUUID() },
    master: children(),
    project: children(),
    mapping: {},
    configuration: {},
    masters: {},
    others: {},
    dictionaryId: randomUUID(),
    applicationId: randomUUID(),
    schemeId: randomUUID(),
    names: [],
  };
}

export const NAMING_FIELDS: readonly string[] = Object.keys(namedBy(thingsOfNobody()));

/** `{id}` of a collection: the company's thing there (a project for the companies' sub-routes). */
export const parentOf = (things: Things) => (collection: string) => things.byCollection[collection] ?? things.byCollection.projects!;

/** Any other path parameter: the company's child of that name under the collection, or a value that names nothing. */
const childOf = (things: Things) => (name: string, collection: string) => {
  const children: Record<string, string | undefined> = {
    ...things.others,
    ...(collection === "master-templates" || collection === "data-dictionaries" ? things.master : things.project),
    ...(collection === "audit-projects" ? things.configuration : {}),
    ...(collection === "mapping-projects" ? things.mapping : {}),
    dictionaryId: things.dictionaryId,
  };
  return children[name] ?? NAME_PARAMS.get(name) ?? randomUUID();
};

/**
 * The operation called by `token` on `at.parents` (their `{id}`, company and, unless `at.children` are
 * someone else's, their child ids), with a query and body its schemas accept; `version` (and a
 * script's `baseVersion`) as given, so that a sweep decides whether a stale check answers first.
 */
function callOperation(api: TestApi, token: string, components: Record<string, Schema>, op: Operation, at: SweepCall) {
  const collection = collectionOf(op);
  const parent = parentOf(at.parents);
  const child = childOf(at.children ?? at.parents);
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(name === "id" ? parent(collection) : child(name, collection)));
  const version = at.version ?? 1;
  const leaves = at.leaves ?? "valid";
  const given =
    leaves !== "valid"
      ? { companyId: at.parents.byCollection.companies }
      : {
          companyId: at.parents.byCollection.companies,
          version,
          baseVersion: version,
          name: `Changed_${randomUUID().slice(0, 6)}`,
          sql: "select 2;",
          url: "https://hooks.example.test/dt",
          expiresOn: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
          userId: USERS.viewer.id,
          backupId: randomUUID(),
          ...(at.named ? namedBy(at.named) : {}),
        };
  const query = new URLSearchParams();
  for (const p of op.query)
    if (p.required || leaves !== "valid" || p.name === "companyId" || p.name === "version" || (at.named && NAMING_FIELDS.includes(p.name)))
      query.set(p.name, String(sampleOf(p.schema, given, components, leaves, p.name)));
  const body = op.body ? sampleOf(op.body, given, components, leaves) : undefined;
  const url = query.size ? `${path}?${query}` : path;
  // What was sent goes with the answer: a sweep of the naming fields checks only the calls that sent them.
  return api.send(op.method, url, token, body).then((res) => ({ ...res, sent: JSON.stringify({ url, body }) }));
}

/** `named`: whose ids the fields that name a thing (namedBy) hold; left out unless the schema requires them. */
export type SweepCall = { parents: Things; children?: Things; named?: Things; version?: number; leaves?: Leaves };

/**
 * A sweep's data API on `kind` and the document's operations, made before the file's own hooks and
 * closed after its tests, with `call` bound to them.
 */
export function routeSweep(kind: DatabaseKind) {
  const sweep = {
    api: undefined as unknown as TestApi,
    operations: [] as Operation[],
    components: {} as Record<string, Schema>,
    call: (token: string, op: Operation, at: SweepCall) => callOperation(sweep.api, token, sweep.components, op, at),
  };
  beforeAll(async () => {
    sweep.api = await createTestApi(kind);
    Object.assign(sweep, await readOperations(sweep.api));
  }, 120_000);
  afterAll(() => sweep.api?.close());
  return sweep;
}

/** What a write could change of the children made with `work` (thingsOf): the runs, loads, reviews, maps… that were made. */
function childUrls(things: Things): string[] {
  const { projects: project, "mapping-projects": mapping, "data-dictionaries": dictionary } = things.byCollection;
  const { columnId, importId, translationId } = things.others;
  const { reviewId: masterReviewId } = things.master;
  const { reviewId: projectReviewId } = things.project;
  const column = `/api/v1/mapping-projects/${mapping}/mapping-columns/${columnId}`;
  return [
    // The project's copy and table are in snapshotOf's own list.
    ...workspaceChildUrls(`/api/v1/projects/${project}`, things.others),
    ...(masterReviewId ? [`/api/v1/data-dictionaries/${dictionary}/bulk-uploads/${masterReviewId}`] : []),
    ...(projectReviewId ? [`/api/v1/projects/${project}/data-dictionary/bulk-uploads/${projectReviewId}`] : []),
    ...(columnId ? [`/api/v1/mapping-projects/${mapping}/mapping-tables/${things.mapping.tableId}`, `${column}/values`, `${column}/imports/${importId}`] : []),
    ...(translationId ? [`/api/v1/mapping-projects/${mapping}/translations/${translationId}`] : []),
    ...workspaceChildUrls(`/api/v1/audit-projects/${things.byCollection["audit-projects"]}`, things.configuration),
    ...(things.mapping.templateId ? [`/api/v1/mapping-projects/${mapping}/templates/${things.mapping.templateId}`] : []),
    ...Object.values(things.masters).map((m) => `/api/v1/master-templates/${m.templateId}`),
  ];
}

/** A workspace's children made with `work`: its copy of a master template, its table and its databases' work. */
function workspaceChildUrls(base: string, children: Things["configuration"]): string[] {
  const { templateId, scriptId, tableId, runId, loadId, historyId, uploadId, backupId } = children;
  return [
    ...(templateId ? [`${base}/templates/${templateId}`, `${base}/templates/${templateId}/scripts/${scriptId}`] : []),
    ...(tableId ? [`${base}/data-dictionary/tables?columns=all`] : []),
    ...(runId ? [`${base}/runs/${runId}`] : []),
    ...(loadId ? [`${base}/flat-file/loads/${loadId}`, `${base}/history/${historyId}`] : []),
    ...(uploadId ? [`${base}/flat-file/uploads/${uploadId}`] : []),
    ...(backupId ? [`${base}/backups`, `${base}/jobs`] : []),
  ];
}

/** Everything of a company's things that a write could change, as `token`'s user reads it: for a before and after. */
export async function snapshotOf(api: FixtureApi, token: string, things: Things) {
  const {
    projects: project,
    "audit-projects": configuration,
    "mapping-projects": mapping,
    "data-dictionaries": dictionary,
    "master-templates": master,
  } = things.byCollection;
  const urls = [
    `/api/v1/projects/${project}`,
    `/api/v1/projects/${project}/users`,
    `/api/v1/projects/${project}/data-dictionary`,
    `/api/v1/projects/${project}/data-dictionary/tables?columns=all`,
    `/api/v1/projects/${project}/templates`,
    `/api/v1/projects/${project}/templates/${things.project.templateId}`,
    `/api/v1/projects/${project}/templates/${things.project.templateId}/scripts/${things.project.scriptId}`,
    `/api/v1/audit-projects/${configuration}`,
    `/api/v1/mapping-projects/${mapping}`,
    `/api/v1/data-dictionaries/${dictionary}`,
    `/api/v1/data-dictionaries/${dictionary}/tables?columns=all`,
    `/api/v1/master-templates/${master}`,
    `/api/v1/master-templates/${master}/scripts/${things.master.scriptId}`,
    ...childUrls(things),
  ];
  return Promise.all(
    urls.map(async (url) => {
      const res = await api.get(url, token);
      expect(res.status, url).toBe(200);
      return res.body;
    }),
  );
}
