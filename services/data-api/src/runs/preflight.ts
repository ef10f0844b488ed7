/**
 * A Full run's preflight (issue 11): before anything runs, every script must parse, and every table
 * it names in the project's schemas must exist (or be made by an earlier statement of the run). A
 * failing preflight blocks the run and lists each problem with its script and line.
 *
 * Names are resolved as the run resolves them (`search_path` destination, source): an unqualified
 * name must be a table of either; `source.x`, `destination.x` and `maps.x` of that schema. Other schemas
 * (pg_catalog, …) are PostgreSQL's to refuse at run time, as the project's role.
 */
import { parse } from "libpg-query";
import type { PreflightProblem } from "../../../../contracts/runs.ts";
import type { PlannedStep } from "../repositories/runs.ts";
import { positionOf } from "../templates/sql-check.ts";

// `maps`: a linked mapping project's value maps (data-plane/value-map-tables.ts).
const PROJECT_SCHEMAS = new Set(["source", "destination", "maps"]);

type RangeVar = { schemaname?: string; relname: string; location?: number };

/** Every relation named in a parse tree (libpg-query wraps some RangeVars as nodes, others not): any object with a `relname`. */
function* relationsOf(tree: unknown): Generator<RangeVar> {
  if (Array.isArray(tree)) for (const item of tree) yield* relationsOf(item);
  else if (tree && typeof tree === "object") {
    if (typeof (tree as RangeVar).relname === "string") yield tree as RangeVar;
    for (const value of Object.values(tree)) yield* relationsOf(value);
  }
}

/** Every node of `kind` in a parse tree, in document order. */
function* nodesOf<T>(tree: unknown, kind: string): Generator<T> {
  if (Array.isArray(tree)) for (const item of tree) yield* nodesOf<T>(item, kind);
  else if (tree && typeof tree === "object") {
    for (const [key, value] of Object.entries(tree)) {
      if (key === kind) yield value as T;
      yield* nodesOf<T>(value, kind);
    }
  }
}

const relationKey = (schema: string | undefined, name: string) => `${schema ?? ""}.${name}`;

/**
 * The problems of a run's scripts against the tables that exist (`existing`: "schema.name" of every
 * table and view of the source and destination schemas, as PostgreSQL spells them).
 */
export async function preflight(steps: readonly PlannedStep[], existing: ReadonlySet<string>): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  // Tables the run makes itself (CREATE TABLE, CREATE TABLE AS, SELECT INTO, CREATE VIEW) count as existing after.
  const made = new Set<string>();
  for (const step of steps) {
    const where = { template: step.templateName, level: step.levelName, script: step.scriptName };
    let tree: unknown;
    try {
      tree = await parse(step.sql);
    } catch (err) {
      const details = (err as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
      if (!details) throw err;
      problems.push({ ...where, line: positionOf(step.sql, details.cursorPosition ?? 0).line, message: details.message ?? "syntax error" });
      continue;
    }
    const ctes = new Set([...nodesOf<{ ctename: string }>(tree, "CommonTableExpr")].map((c) => c.ctename));
    for (const created of [
      ...[...nodesOf<{ relation: RangeVar }>(tree, "CreateStmt")].map((c) => c.relation),
      ...[...nodesOf<{ rel: RangeVar }>(tree, "intoClause"), ...nodesOf<{ rel: RangeVar }>(tree, "into")].map((c) => c.rel),
      ...[...nodesOf<{ view: RangeVar }>(tree, "ViewStmt")].map((c) => c.view),
    ]) {
      made.add(relationKey(created.schemaname, created.relname));
      if (!created.schemaname) made.add(relationKey("destination", created.relname));
    }
    for (const rel of relationsOf(tree)) {
      const schema = rel.schemaname;
      if (schema && !PROJECT_SCHEMAS.has(schema)) continue;
      if (!schema && ctes.has(rel.relname)) continue;
      const candidates = schema
        ? [relationKey(schema, rel.relname)]
        : [relationKey("destination", rel.relname), relationKey("source", rel.relname), relationKey(undefined, rel.relname)];
      if (candidates.some((c) => existing.has(c) || made.has(c))) continue;
      problems.push({
        ...where,
        line: rel.location === undefined ? null : positionOf(step.sql, rel.location).line,
        message: schema ? `Table ${schema}.${rel.relname} does not exist.` : `Table ${rel.relname} exists in neither destination nor source.`,
      });
    }
  }
  return problems;
}
