/**
 * Which scripts a run executes, in order (issue 11): the workspace's templates in run order, each
 * template's levels in order, each level's scripts in order, each at its newest version. The scope
 * narrows it: some templates, some levels, or one script; a rerun runs again what its run did not complete.
 */
import type { Kysely } from "kysely";
import { ApiProblem } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import type { PlannedStep, RunScope } from "../repositories/runs.ts";

/** A rerun's refusal when its first failed script was removed since: `noun` is the workspace's (project, configuration). */
export const rerunScriptGoneMessage = (noun: string) => `The script that failed is no longer in the ${noun}: start a new run instead.`;

/**
 * A new run's refusal when a template, level or script it was narrowed to is not in the workspace
 * (removed since the Run page was read, or an id of elsewhere): the run would otherwise start with the
 * rest and leave it out unsaid.
 */
export const chosenGoneMessage = (what: "template" | "level" | "script", gone: number, noun: string) =>
  `${gone === 1 ? `A ${what} you chose is` : `${gone} ${what}s you chose are`} no longer in the ${noun} (removed meanwhile): nothing was started. Choose again.`;

/** The chosen ids of the workspace's templates, levels and script that are not in it: a new run's scope must name only what is. */
async function refuseChosenGone(db: Kysely<Database>, projectId: string, scope: RunScope, noun: string) {
  const ofWorkspace = db.selectFrom("templates as t").where("t.project_id", "=", projectId);
  const chosen = [
    ["template", unique(scope.templateIds), (ids: string[]) => ofWorkspace.select("t.id").where("t.id", "in", ids)],
    [
      "level",
      unique(scope.levelIds),
      (ids: string[]) => ofWorkspace.innerJoin("template_levels as l", "l.template_id", "t.id").select("l.id").where("l.id", "in", ids),
    ],
    [
      "script",
      scope.scriptId ? [scope.scriptId] : [],
      (ids: string[]) => ofWorkspace.innerJoin("scripts as s", "s.template_id", "t.id").select("s.id").where("s.id", "in", ids),
    ],
  ] as const;
  for (const [what, ids, inWorkspace] of chosen) {
    if (!ids.length) continue;
    const gone = ids.length - (await inWorkspace(ids).execute()).length;
    if (gone > 0) throw new ApiProblem(409, "chosen_gone", chosenGoneMessage(what, gone, noun));
  }
}

const unique = (ids: readonly string[]) => [...new Set(ids)];

/**
 * `scriptsLeft`: a rerun's (`scope.fromScriptId` set) scripts to run again, its run's steps that did not complete
 * (rerunScope): of the plan from the failed script on, only those run, in order, each at its newest version.
 */
export async function planRun(
  db: Kysely<Database>,
  projectId: string,
  scope: RunScope,
  noun: string,
  scriptsLeft: ReadonlySet<string> = new Set(),
): Promise<PlannedStep[]> {
  // A rerun keeps to what is left of its run's choice: it starts again at its failed script (refused below when that is gone).
  if (!scope.fromScriptId) await refuseChosenGone(db, projectId, scope, noun);
  let q = db
    .selectFrom("scripts as s")
    .innerJoin("template_levels as l", "l.id", "s.level_id")
    .innerJoin("templates as t", "t.id", "s.template_id")
    .innerJoin("script_versions as v", (j) => j.onRef("v.script_id", "=", "s.id").onRef("v.version", "=", "s.version"))
    .select(["t.name as template_name", "l.name as level_name", "s.id as script_id", "s.name as script_name", "s.version", "v.sql"])
    .where("t.project_id", "=", projectId);
  if (scope.templateIds.length) q = q.where("t.id", "in", scope.templateIds);
  if (scope.levelIds.length) q = q.where("l.id", "in", scope.levelIds);
  if (scope.scriptId) q = q.where("s.id", "=", scope.scriptId);
  const rows = await q.orderBy("t.position").orderBy("t.created_at").orderBy("l.position").orderBy("s.position").execute();
  let steps: PlannedStep[] = rows.map((r) => ({
    templateName: r.template_name,
    levelName: r.level_name,
    scriptId: r.script_id,
    scriptName: r.script_name,
    scriptVersion: r.version,
    sql: r.sql,
  }));
  if (scope.fromScriptId) {
    if (!steps.some((s) => s.scriptId === scope.fromScriptId)) throw new ApiProblem(409, "rerun_refused", rerunScriptGoneMessage(noun));
    // Not the scripts its run completed (a run that went on after its failure): they kept what they did, and would do it twice.
    steps = steps.filter((s) => scriptsLeft.has(s.scriptId));
  }
  if (!steps.length) throw new ApiProblem(409, "nothing_to_run", "There is no script to run in what was chosen.");
  return steps;
}
