import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import {
  ONLY_DRAFT_DELETED_MESSAGE,
  TEMPLATE_STATUS_MOVES,
  type MoveDirection,
  type ChosenLevel,
  type ChosenScript,
  type RunChoice,
  type Template,
  type TemplateArea,
  type TemplateSearchQuery,
  type TemplateStatus,
  type TemplateSummary,
  type TemplateType,
} from "../../../../contracts/templates.ts";
import type { LockState } from "../../../../contracts/values/projects.ts";
import { staleSaveMessage } from "../../../../contracts/values/common.ts";
import { ApiProblem, DuplicateNameError, NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction, makeOnce, nameKey, nameKeyContains, naturalSortKey, sentAgain, sortOf, totalOf } from "./db-helpers.ts";
import { staleSave } from "./stale-saves.ts";

/**
 * Templates and their levels, master and project copies alike (issue 11): everything takes a
 * template id. Every change inside a template (details, levels, scripts, saves) moves its version on
 * through `bumpTemplate`, so a write based on a stale page is refused and nothing is overwritten.
 * Scripts, their versions and locks are in scripts.ts.
 */

export const TEMPLATE_NOT_FOUND_MESSAGE = "Template not found.";
export const LEVEL_NOT_FOUND_MESSAGE = "Level not found.";
export const TEMPLATE_STALE_MESSAGE = staleSaveMessage("this template", null);

/** The refusal of a write based on a template version that moved on, saying whether `userId` moved it (another tab) or someone else did. */
const staleTemplate = (db: Kysely<Database>, id: string, userId: string) => staleSave(db, { table: "templates", key: "id", id }, userId, "this template");
export const ARCHIVED_MESSAGE = "This template is archived: it is read-only.";
export const DUPLICATE_TEMPLATE_MESSAGE = "A template with this name already exists here";
export const DUPLICATE_LEVEL_MESSAGE = "A level with this name already exists in this template";

/** A move past either end: a level among the template's levels, a script among its level's. */
export function alreadyAtEndMessage(table: OrderedTable, direction: MoveDirection) {
  const end = direction === "up" ? "first" : "last";
  if (table === "templates") return `That template is already ${end} in the run order.`;
  return table === "scripts" ? `That script is already ${end} in its level.` : `That level is already ${end}.`;
}

/** The tables whose rows keep an order among their siblings by `position`. */
type OrderedTable = "templates" | "template_levels" | "scripts";

/** Who writes, and when. */
export type Writer = { userId: string; userName: string | null; now?: Date };
export type TemplateWrite = Writer & { expectedVersion: number };

export type TemplateRef = { id: string; companyId: string; area: TemplateArea; projectId: string | null; status: TemplateStatus; version: number };

export async function findTemplateRef(db: Kysely<Database>, id: string): Promise<TemplateRef | undefined> {
  const row = await db.selectFrom("templates").select(["id", "company_id", "area", "project_id", "status", "version"]).where("id", "=", id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      companyId: row.company_id,
      area: row.area as TemplateArea,
      projectId: row.project_id,
      status: row.status as TemplateStatus,
      version: row.version,
    }
  );
}

/** A template that may be written: not Archived. */
export function requireWritable(ref: TemplateRef): void {
  if (ref.status === "Archived") throw new ApiProblem(409, "read_only", ARCHIVED_MESSAGE);
}

/**
 * The compare-and-bump every structural write starts with, inside its transaction: moves the
 * template from `expectedVersion` to the next, or throws 409 when someone moved it first. Script
 * saves, which carry their own script version, pass `expectedVersion: null` and just bump it.
 */
export async function bumpTemplate(trx: Kysely<Database>, id: string, write: Writer & { expectedVersion: number | null }): Promise<number> {
  let update = trx
    .updateTable("templates")
    .set((eb) => ({ version: eb("version", "+", 1), updated_at: at(write), updated_by: write.userId, updated_by_name: write.userName }))
    .where("id", "=", id);
  if (write.expectedVersion !== null) update = update.where("version", "=", write.expectedVersion);
  const result = await update.executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw await staleTemplate(trx, id, write.userId);
  const row = await trx.selectFrom("templates").select("version").where("id", "=", id).executeTakeFirstOrThrow();
  return row.version;
}

const at = (w: { now?: Date }) => (w.now ?? new Date()).toISOString();

/* ---------- Templates ---------- */

const levelCount = (eb: ExpressionBuilder<Database & { t: Database["templates"] }, "t">) =>
  eb.selectFrom("template_levels as l").select(eb.fn.countAll<number | string>().as("n")).whereRef("l.template_id", "=", "t.id");
const scriptCount = (eb: ExpressionBuilder<Database & { t: Database["templates"] }, "t">) =>
  eb.selectFrom("scripts as s").select(eb.fn.countAll<number | string>().as("n")).whereRef("s.template_id", "=", "t.id");

function selectSummaries(db: Kysely<Database>) {
  return db
    .selectFrom("templates as t")
    .selectAll("t")
    .select((eb) => [levelCount(eb).as("level_count"), scriptCount(eb).as("script_count")]);
}
type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>["executeTakeFirstOrThrow"]>>;

function toSummary(row: SummaryRow): TemplateSummary {
  return {
    id: row.id,
    companyId: row.company_id,
    area: row.area as TemplateArea,
    projectId: row.project_id,
    name: row.name,
    description: row.description,
    type: row.type as TemplateType,
    status: row.status as TemplateStatus,
    version: row.version,
    masterTemplateId: row.master_template_id,
    masterVersion: row.master_version,
    levelCount: Number(row.level_count ?? 0),
    scriptCount: Number(row.script_count ?? 0),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    updatedByName: row.updated_by_name,
  };
}

// By name in natural order ("Template 2" before "Template 10"), ties by the name as written.
const SORT_COLUMNS = { name: ["t.name_sort", "t.name"], status: ["t.status", "t.name_sort", "t.name"], updatedAt: ["t.updated_at"] } as const;

/**
 * `notAssignedTo`: a project's id; its templates' masters, and masters of a name it already holds, are left out (they cannot be assigned to it).
 * `ids`: only these templates (none given: all).
 */
export type TemplateSearch = Omit<TemplateSearchQuery, "companyId"> & {
  companyId: string;
  projectId: string | null;
  notAssignedTo?: string;
  ids?: readonly string[];
};

/** The templates of `projectId` that are a copy of the master `t`, or of its name (assignMasterTemplate refuses both). */
const copiesIn = (eb: ExpressionBuilder<Database & { t: Database["templates"] }, "t">, projectId: string) =>
  eb
    .selectFrom("templates as a")
    .select("a.id")
    .where("a.project_id", "=", projectId)
    .where((a) => a.or([a("a.master_template_id", "=", a.ref("t.id")), a("a.name_key", "=", a.ref("t.name_key"))]));

/** A page of an area's master templates (projectId null) or of a project's own, filtered and sorted in SQL. */
export async function searchTemplates(db: Kysely<Database>, search: TemplateSearch) {
  const scope = <Q extends { where: (...args: any[]) => Q }>(q: Q): Q => {
    let scoped = q.where("t.company_id", "=", search.companyId).where("t.area", "=", search.area);
    scoped = search.projectId === null ? scoped.where("t.project_id", "is", null) : scoped.where("t.project_id", "=", search.projectId);
    if (search.status.length) scoped = scoped.where("t.status", "in", search.status);
    if (search.type.length) scoped = scoped.where("t.type", "in", search.type);
    if (search.ids?.length) scoped = scoped.where("t.id", "in", search.ids);
    if (search.notAssignedTo !== undefined)
      scoped = scoped.where((eb: ExpressionBuilder<Database & { t: Database["templates"] }, "t">) => eb.not(eb.exists(copiesIn(eb, search.notAssignedTo!))));
    const name = nameKeyContains("t.name_key", search.name);
    return name ? scoped.where(name) : scoped;
  };
  let rows = scope(selectSummaries(db));
  const { key, direction } = sortOf<keyof typeof SORT_COLUMNS>(search.sort);
  // A project's templates are listed in their run order, whatever the sort asked.
  if (search.projectId !== null) rows = rows.orderBy("t.position").orderBy("t.created_at");
  else for (const column of SORT_COLUMNS[key]) rows = rows.orderBy(column, direction);
  const items = await rows
    .orderBy("t.id", direction)
    .limit(search.pageSize)
    .offset((search.page - 1) * search.pageSize)
    .execute();
  const total = await totalOf(items.length, search, () =>
    scope(db.selectFrom("templates as t").select((eb) => eb.fn.countAll<number | string>().as("n"))).executeTakeFirstOrThrow(),
  );
  return { items: items.map(toSummary), total, page: search.page, pageSize: search.pageSize };
}

/**
 * Of `ids`, the master templates of the company's area that `projectId` cannot take (not Available, not
 * of its types, or held by it already: what searchTemplates' assignable search leaves out), by name.
 */
export async function unassignableMasters(
  db: Kysely<Database>,
  to: { companyId: string; area: TemplateArea; projectId: string; types: readonly TemplateType[] },
  ids: readonly string[],
): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return db
    .selectFrom("templates as t")
    .select(["t.id", "t.name"])
    .where("t.id", "in", ids)
    .where("t.company_id", "=", to.companyId)
    .where("t.area", "=", to.area)
    .where("t.project_id", "is", null)
    .where((eb) => eb.not(eb.and([eb("t.status", "=", "Available"), eb("t.type", "in", to.types), eb.not(eb.exists(copiesIn(eb, to.projectId)))])))
    .orderBy("t.name_sort")
    .orderBy("t.name")
    .execute();
}

/** The template with its levels and their scripts, in order. */
export async function getTemplate(db: Kysely<Database>, id: string): Promise<Template | undefined> {
  const row = await selectSummaries(db).where("t.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const levels = await db.selectFrom("template_levels").select(["id", "name", "position"]).where("template_id", "=", id).orderBy("position").execute();
  const scripts = await db
    .selectFrom("scripts")
    .select(["id", "level_id", "name", "position", "version", "lock_state", "locked_by", "locked_by_name", "locked_at", "updated_at", "updated_by_name"])
    .where("template_id", "=", id)
    .orderBy("position")
    .execute();
  return {
    ...toSummary(row),
    levels: levels.map((l, i) => ({
      id: l.id,
      name: l.name,
      order: i + 1,
      scripts: scripts
        .filter((s) => s.level_id === l.id)
        .map((s, j) => ({
          id: s.id,
          levelId: s.level_id,
          name: s.name,
          order: j + 1,
          version: s.version,
          lockState: s.lock_state as LockState,
          lockedBy: s.locked_by,
          lockedByName: s.locked_by_name,
          lockedAt: s.locked_at,
          updatedAt: s.updated_at,
          updatedByName: s.updated_by_name,
        })),
    })),
  };
}

/**
 * "Run the templates"' choices: a page of a workspace's templates in run order, found by name, each with its
 * levels and their scripts in order, ids and names only. Three queries whatever the page holds (the page,
 * then its levels, then their scripts; the count only when the page does not tell it), never one per template.
 */
export async function runChoices(
  db: Kysely<Database>,
  search: {
    companyId: string;
    area: TemplateArea;
    projectId: string;
    name?: string;
    scriptId?: string;
    templateId?: readonly string[];
    levelId?: readonly string[];
    page: number;
    pageSize: number;
  },
): Promise<
  { items: RunChoice[]; total: number; page: number; pageSize: number } & {
    chosenScript: ChosenScript | null;
    chosenTemplates: ChosenTemplate[];
    chosenLevels: ChosenLevel[];
  }
> {
  const [found, chosenScript, chosenTemplates, chosenLevels] = await Promise.all([
    searchTemplates(db, { ...search, status: [], type: [], sort: "name" }),
    search.scriptId ? chosenScriptOf(db, search, search.scriptId) : null,
    chosenTemplatesOf(db, search, search.templateId ?? []),
    chosenLevelsOf(db, search, search.levelId ?? []),
  ]);
  const chosen = { chosenScript, chosenTemplates, chosenLevels };
  const ids = found.items.map((t) => t.id);
  if (!ids.length) return { ...found, items: [], ...chosen };
  const [levels, scripts] = await Promise.all([
    db.selectFrom("template_levels").select(["id", "template_id", "name"]).where("template_id", "in", ids).orderBy("position").orderBy("id").execute(),
    db.selectFrom("scripts").select(["id", "level_id", "name"]).where("template_id", "in", ids).orderBy("position").orderBy("id").execute(),
  ]);
  const scriptsOf = groupedBy(scripts, (s) => s.level_id);
  const levelsOf = groupedBy(levels, (l) => l.template_id);
  return {
    ...found,
    ...chosen,
    items: found.items.map((t) => ({
      id: t.id,
      name: t.name,
      levels: (levelsOf.get(t.id) ?? []).map((l) => ({
        id: l.id,
        name: l.name,
        scripts: (scriptsOf.get(l.id) ?? []).map((s) => ({ id: s.id, name: s.name })),
      })),
    })),
  };
}

type RunWorkspace = { companyId: string; area: TemplateArea; projectId: string };
type ChosenTemplate = { id: string; name: string };

/** `q` kept to the templates (`t`) of the workspace: what a run of it may choose. */
function ofWorkspace<Q extends { where: (...args: any[]) => Q }>(q: Q, workspace: RunWorkspace): Q {
  return q.where("t.project_id", "=", workspace.projectId).where("t.company_id", "=", workspace.companyId).where("t.area", "=", workspace.area);
}

/** Script `scriptId` of the workspace's templates, by name with its level's and template's; null when it is not one of them. */
async function chosenScriptOf(db: Kysely<Database>, workspace: RunWorkspace, scriptId: string): Promise<ChosenScript | null> {
  const row = await ofWorkspace(
    db
      .selectFrom("scripts as s")
      .innerJoin("template_levels as l", "l.id", "s.level_id")
      .innerJoin("templates as t", "t.id", "l.template_id")
      .select(["s.id", "s.name", "l.name as levelName", "t.name as templateName"])
      .where("s.id", "=", scriptId),
    workspace,
  ).executeTakeFirst();
  return row ?? null;
}

/** Of `ids`, the workspace's templates, by name in run order (the ticks of a page of "Run the templates" it does not list). */
async function chosenTemplatesOf(db: Kysely<Database>, workspace: RunWorkspace, ids: readonly string[]): Promise<ChosenTemplate[]> {
  if (!ids.length) return [];
  return ofWorkspace(db.selectFrom("templates as t").select(["t.id", "t.name"]).where("t.id", "in", ids), workspace)
    .orderBy("t.position")
    .orderBy("t.created_at")
    .execute();
}

/** Of `ids`, the levels of the workspace's templates, by name with their template's, in run order. */
async function chosenLevelsOf(db: Kysely<Database>, workspace: RunWorkspace, ids: readonly string[]): Promise<ChosenLevel[]> {
  if (!ids.length) return [];
  return ofWorkspace(
    db
      .selectFrom("template_levels as l")
      .innerJoin("templates as t", "t.id", "l.template_id")
      .select(["l.id", "l.name", "t.name as templateName"])
      .where("l.id", "in", ids),
    workspace,
  )
    .orderBy("t.position")
    .orderBy("t.created_at")
    .orderBy("l.position")
    .execute();
}

/** Rows by `key`, each group in the rows' order (Map.groupBy, which Node 20 lacks). */
function groupedBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

export type NewTemplate = Writer & {
  /** The id the create form chose (madeIdSchema; createTemplateOnce); none: one is drawn. */
  id?: string | undefined;
  companyId: string;
  area: TemplateArea;
  projectId: string | null;
  name: string;
  description: string | null;
  type: TemplateType;
  /** A master starts as Draft; a project's own template is usable at once. */
  status: TemplateStatus;
};

/**
 * A template made by `create` (createTemplate, with what its route does beside it, in the transaction given), once per
 * create form (madeIdSchema): sent again, the form is answered the template it made, as its first sending was, if that
 * template has the same owner (company, area, and workspace or none), was made by the same user from the same values
 * (name, description, type) and has not moved on; else refused (sentAgain). Two sendings at once make one (makeOnce).
 */
export function createTemplateOnce(db: Kysely<Database>, input: NewTemplate, create: (trx: Kysely<Database>) => Promise<string>): Promise<string> {
  const { id } = input;
  if (!id) return inTransaction(db, create);
  return makeOnce(
    db,
    () => db.selectFrom("templates").selectAll().where("id", "=", id).executeTakeFirst(),
    (made) =>
      sentAgain(made, {
        mine:
          made.company_id === input.companyId && made.area === input.area && made.project_id === input.projectId && made.created_by === input.userId,
        same: made.name === input.name && (made.description ?? null) === (input.description ?? null) && made.type === input.type,
        what: `the template ${made.name}`,
      }),
    create,
  );
}

async function nameTaken(db: Kysely<Database>, t: { companyId: string; area: string; projectId: string | null }, key: string, exceptId?: string) {
  let q = db.selectFrom("templates").select("id").where("name_key", "=", key);
  q =
    t.projectId === null
      ? q.where("company_id", "=", t.companyId).where("area", "=", t.area).where("project_id", "is", null)
      : q.where("project_id", "=", t.projectId);
  if (exceptId) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function createTemplate(db: Kysely<Database>, input: NewTemplate): Promise<string> {
  return inTransaction(db, async (trx) => {
    const key = nameKey(input.name);
    if (await nameTaken(trx, input, key)) throw new DuplicateNameError("name", DUPLICATE_TEMPLATE_MESSAGE);
    const id = input.id ?? randomUUID();
    const position =
      input.projectId === null
        ? 0
        : Number(
            (
              await trx
                .selectFrom("templates")
                .select((eb) => eb.fn.max("position").as("p"))
                .where("project_id", "=", input.projectId)
                .executeTakeFirst()
            )?.p ?? -1,
          ) + 1;
    await trx
      .insertInto("templates")
      .values({
        id,
        company_id: input.companyId,
        area: input.area,
        project_id: input.projectId,
        name: input.name,
        name_key: key,
        name_sort: naturalSortKey(input.name),
        description: input.description,
        type: input.type,
        status: input.status,
        version: 1,
        master_template_id: null,
        master_version: null,
        position,
        created_at: at(input),
        created_by: input.userId,
        updated_at: at(input),
        updated_by: input.userId,
        updated_by_name: input.userName,
      })
      .execute();
    return id;
  });
}

export async function updateTemplate(
  db: Kysely<Database>,
  id: string,
  write: TemplateWrite & { name: string; description: string | null; type: TemplateType },
) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, id, write);
    const ref = (await findTemplateRef(trx, id))!;
    const key = nameKey(write.name);
    if (await nameTaken(trx, ref, key, id)) throw new DuplicateNameError("name", DUPLICATE_TEMPLATE_MESSAGE);
    await trx
      .updateTable("templates")
      .set({ name: write.name, name_key: key, name_sort: naturalSortKey(write.name), description: write.description, type: write.type })
      .where("id", "=", id)
      .execute();
  });
}

/** Draft → Available → Archived (and back to Available): TEMPLATE_STATUS_MOVES says which moves exist. */
export async function changeTemplateStatus(db: Kysely<Database>, id: string, write: TemplateWrite & { status: TemplateStatus }) {
  await inTransaction(db, async (trx) => {
    const ref = await findTemplateRef(trx, id);
    if (!ref) throw new NotFoundError(TEMPLATE_NOT_FOUND_MESSAGE);
    if (ref.version !== write.expectedVersion) throw await staleTemplate(trx, id, write.userId);
    if (!TEMPLATE_STATUS_MOVES[ref.status].some((m) => m.to === write.status))
      throw new ApiProblem(409, "status_move_refused", `A template that is ${ref.status} cannot become ${write.status}.`);
    if (write.status === "Available" && ref.status === "Draft") {
      const scripts = await trx.selectFrom("scripts").select("id").where("template_id", "=", id).limit(1).executeTakeFirst();
      if (!scripts) throw new ApiProblem(409, "template_empty", "Add at least one script before making the template available.");
    }
    await bumpTemplate(trx, id, write);
    await trx.updateTable("templates").set({ status: write.status }).where("id", "=", id).execute();
  });
}

/**
 * Deletes a Draft master template, with its levels, scripts and versions: one made by mistake. A
 * Draft was never Available (no move leads back to Draft), so it was never assigned and no copy
 * remembers it; any other status, or a copy, is a 409 and nothing is deleted.
 */
export async function deleteDraftMasterTemplate(db: Kysely<Database>, id: string, write: TemplateWrite) {
  await inTransaction(db, async (trx) => {
    // Its row stays locked until the end: a "Make available" meanwhile is stale, not lost.
    await bumpTemplate(trx, id, write);
    const deleted = await trx.deleteFrom("templates").where("id", "=", id).where("project_id", "is", null).where("status", "=", "Draft").executeTakeFirst();
    if (deleted.numDeletedRows !== 1n) throw new ApiProblem(409, "not_draft", ONLY_DRAFT_DELETED_MESSAGE);
  });
}

/* ---------- Levels ---------- */

export async function requireLevel(db: Kysely<Database>, templateId: string, levelId: string) {
  const level = await db
    .selectFrom("template_levels")
    .select(["id", "position"])
    .where("id", "=", levelId)
    .where("template_id", "=", templateId)
    .executeTakeFirst();
  if (!level) throw new NotFoundError(LEVEL_NOT_FOUND_MESSAGE);
  return level;
}

async function levelNameTaken(db: Kysely<Database>, templateId: string, key: string, exceptId?: string) {
  let q = db.selectFrom("template_levels").select("id").where("template_id", "=", templateId).where("name_key", "=", key);
  if (exceptId) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function addLevel(db: Kysely<Database>, templateId: string, write: TemplateWrite & { name: string }): Promise<string> {
  return inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    const key = nameKey(write.name);
    if (await levelNameTaken(trx, templateId, key)) throw new DuplicateNameError("name", DUPLICATE_LEVEL_MESSAGE);
    const last = await trx
      .selectFrom("template_levels")
      .select((eb) => eb.fn.max("position").as("p"))
      .where("template_id", "=", templateId)
      .executeTakeFirst();
    const id = randomUUID();
    await trx
      .insertInto("template_levels")
      .values({ id, template_id: templateId, name: write.name, name_key: key, position: Number(last?.p ?? -1) + 1 })
      .execute();
    return id;
  });
}

export async function renameLevel(db: Kysely<Database>, templateId: string, levelId: string, write: TemplateWrite & { name: string }) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    await requireLevel(trx, templateId, levelId);
    const key = nameKey(write.name);
    if (await levelNameTaken(trx, templateId, key, levelId)) throw new DuplicateNameError("name", DUPLICATE_LEVEL_MESSAGE);
    await trx.updateTable("template_levels").set({ name: write.name, name_key: key }).where("id", "=", levelId).execute();
  });
}

/** Only an empty level goes: its scripts are deleted one by one, on purpose. */
export async function deleteLevel(db: Kysely<Database>, templateId: string, levelId: string, write: TemplateWrite) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    await requireLevel(trx, templateId, levelId);
    const script = await trx.selectFrom("scripts").select("id").where("level_id", "=", levelId).limit(1).executeTakeFirst();
    if (script) throw new ApiProblem(409, "level_not_empty", "Only an empty level can be deleted: delete or move its scripts first.");
    await trx.deleteFrom("template_levels").where("id", "=", levelId).execute();
  });
}

/**
 * Swaps the row with its neighbour above or below among `siblings` (in order). One already first (up)
 * or last (down) is refused with 400: nothing moved, and the caller's transaction, which raised the
 * template's version, is rolled back (no page offers that move; only a forged post or a script sends it).
 */
export async function swapWithNeighbour(
  trx: Kysely<Database>,
  table: OrderedTable,
  siblings: readonly { id: string; position: number }[],
  id: string,
  direction: MoveDirection,
) {
  const index = siblings.findIndex((s) => s.id === id);
  const other = siblings[direction === "up" ? index - 1 : index + 1];
  const self = siblings[index];
  if (!self) return; // the caller found it first
  if (!other) throw new ApiProblem(400, "already_at_end", alreadyAtEndMessage(table, direction));
  if (self.position === other.position) {
    // Equal positions (never expected) would make the trade a no-op: number the siblings in their order first.
    for (const [i, s] of siblings.entries()) {
      s.position = i;
      await trx.updateTable(table).set({ position: i }).where("id", "=", s.id).execute();
    }
  }
  // Positions may have gaps (deletions leave them): the two rows trade theirs.
  await trx.updateTable(table).set({ position: other.position }).where("id", "=", self.id).execute();
  await trx.updateTable(table).set({ position: self.position }).where("id", "=", other.id).execute();
}

export async function moveLevel(db: Kysely<Database>, templateId: string, levelId: string, write: TemplateWrite & { direction: MoveDirection }) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    await requireLevel(trx, templateId, levelId);
    const siblings = await trx.selectFrom("template_levels").select(["id", "position"]).where("template_id", "=", templateId).orderBy("position").execute();
    await swapWithNeighbour(trx, "template_levels", siblings, levelId, write.direction);
  });
}

/** A new script row, unlocked, with its first version: a script made in the editor, or copied from a master. */
export async function insertScript(
  trx: Kysely<Database>,
  script: { templateId: string; levelId: string; name: string; position: number; sql: string; comment: string },
  writer: Writer,
): Promise<string> {
  const id = randomUUID();
  const now = at(writer);
  await trx
    .insertInto("scripts")
    .values({
      id,
      template_id: script.templateId,
      level_id: script.levelId,
      name: script.name,
      name_key: nameKey(script.name),
      position: script.position,
      version: 1,
      lock_state: "Unlocked",
      locked_by: null,
      locked_by_name: null,
      locked_at: null,
      created_at: now,
      updated_at: now,
      updated_by: writer.userId,
      updated_by_name: writer.userName,
    })
    .execute();
  await trx
    .insertInto("script_versions")
    .values({ script_id: id, version: 1, sql: script.sql, comment: script.comment, author: writer.userId, author_name: writer.userName, created_at: now })
    .execute();
  return id;
}

/* ---------- A project's templates ---------- */

export const NOT_AVAILABLE_MESSAGE = "Only Available master templates can be assigned.";
/** The refusal of a master already copied into the workspace: named as its kind is ("this configuration"). */
export const alreadyAssignedMessage = (noun: string) => `This template is already assigned to this ${noun}.`;

/**
 * Copies an Available master template into the project (one transaction): its levels, and each
 * script's newest SQL as the copy's version 1. The copy remembers the master and its version, for
 * "Compare with master"; editing it never touches the master. Answers the copy's id.
 */
export async function assignMasterTemplate(
  db: Kysely<Database>,
  masterId: string,
  project: { id: string; companyId: string; area: TemplateArea; types: readonly TemplateType[]; noun: string },
  writer: Writer,
) {
  return inTransaction(db, async (trx) => {
    const master = await trx.selectFrom("templates").selectAll().where("id", "=", masterId).executeTakeFirst();
    if (!master || master.project_id !== null || master.company_id !== project.companyId || master.area !== project.area)
      throw new NotFoundError(TEMPLATE_NOT_FOUND_MESSAGE);
    if (master.status !== "Available") throw new ApiProblem(409, "not_available", NOT_AVAILABLE_MESSAGE);
    if (!project.types.includes(master.type as TemplateType)) {
      throw new ApiProblem(409, "wrong_type", `Only ${project.types.join(" or ")} templates can be assigned to a ${project.noun}.`);
    }
    const taken = await trx
      .selectFrom("templates")
      .select("id")
      .where("project_id", "=", project.id)
      .where((eb) => eb.or([eb("master_template_id", "=", masterId), eb("name_key", "=", master.name_key)]))
      .executeTakeFirst();
    if (taken) throw new ApiProblem(409, "already_assigned", alreadyAssignedMessage(project.noun));
    const id = await createTemplate(trx, {
      ...writer,
      companyId: project.companyId,
      area: project.area,
      projectId: project.id,
      name: master.name,
      description: master.description,
      type: master.type as TemplateType,
      status: "Available",
    });
    await trx.updateTable("templates").set({ master_template_id: master.id, master_version: master.version }).where("id", "=", id).execute();
    const levels = await trx.selectFrom("template_levels").selectAll().where("template_id", "=", masterId).orderBy("position").execute();
    for (const level of levels) {
      const levelId = randomUUID();
      await trx
        .insertInto("template_levels")
        .values({ ...level, id: levelId, template_id: id })
        .execute();
      const scripts = await trx
        .selectFrom("scripts as s")
        .innerJoin("script_versions as v", (j) => j.onRef("v.script_id", "=", "s.id").onRef("v.version", "=", "s.version"))
        .select(["s.name", "s.name_key", "s.position", "v.sql"])
        .where("s.level_id", "=", level.id)
        .orderBy("s.position")
        .execute();
      for (const s of scripts) {
        const comment = `${COPIED_FROM_MASTER} ${master.name}, version ${master.version}`;
        await insertScript(trx, { templateId: id, levelId, name: s.name, position: s.position, sql: s.sql, comment }, writer);
      }
    }
    return id;
  });
}

/** Moves a project's template one place in the run order. */
export async function moveProjectTemplate(db: Kysely<Database>, projectId: string, templateId: string, write: TemplateWrite & { direction: MoveDirection }) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    const siblings = await trx
      .selectFrom("templates")
      .select(["id", "position"])
      .where("project_id", "=", projectId)
      .orderBy("position")
      .orderBy("created_at")
      .execute();
    await swapWithNeighbour(trx, "templates", siblings, templateId, write.direction);
  });
}

/** Removes a template from its project, with its levels, scripts and versions. */
export async function removeProjectTemplate(db: Kysely<Database>, templateId: string, write: TemplateWrite) {
  await inTransaction(db, async (trx) => {
    await bumpTemplate(trx, templateId, write);
    await trx.deleteFrom("templates").where("id", "=", templateId).execute();
  });
}

/** The comment of a copied script's version 1, which says it came from the master (what Compare with master starts from). */
export const COPIED_FROM_MASTER = "Copied from master template";

/** The newest SQL of each script of a template, keyed by level and script name (any case), and its version 1's. */
export async function newestScripts(db: Kysely<Database>, templateId: string) {
  const rows = await db
    .selectFrom("scripts as s")
    .innerJoin("template_levels as l", "l.id", "s.level_id")
    .innerJoin("script_versions as v", (j) => j.onRef("v.script_id", "=", "s.id").onRef("v.version", "=", "s.version"))
    .innerJoin("script_versions as v1", (j) => j.onRef("v1.script_id", "=", "s.id").on("v1.version", "=", 1))
    .select(["l.name as level", "l.name_key as level_key", "l.position as level_position", "s.name", "s.name_key", "s.position", "v.sql"])
    // What a copied script started from: the master's text when it was assigned (a script made here started from its own).
    .select((eb) => [
      eb.ref("v1.sql").as("first_sql"),
      eb(eb.fn("substr", ["v1.comment", eb.val(1), eb.val(COPIED_FROM_MASTER.length)]), "=", COPIED_FROM_MASTER).as("copied"),
    ])
    .where("s.template_id", "=", templateId)
    .orderBy("l.position")
    .orderBy("s.position")
    .execute();
  return rows;
}
