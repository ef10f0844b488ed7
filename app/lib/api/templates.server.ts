/**
 * The data API's templates, levels and scripts (issue 11), with the signed-in user's token. Every
 * call after the list takes the template's API path (`TemplateOwner.api(templateId)`): master
 * templates live under /api/v1/master-templates/{id}, a project's own under its project, and the
 * same pages serve both.
 */
import { z } from "zod";
import { pageQuerySchema } from "../../../contracts/common";
import {
  assignablePageSchema,
  masterComparisonSchema,
  lockEventPageSchema,
  runChoicesPageSchema,
  scriptDiffSchema,
  scriptSchema,
  scriptVersionPageSchema,
  scriptVersionSchema,
  templatePageSchema,
  templateSchema,
  type createTemplateSchema,
  type MoveDirection,
  type TemplateSearchQuery,
  type TemplateStatus,
  type TemplateType,
} from "../../../contracts/templates";
import { callService, type Caller } from "../api.server";

const MASTER = "/api/v1/master-templates";

export const searchMasterTemplates = (as: Caller, query: TemplateSearchQuery) => callService("data-api", MASTER, as, { schema: templatePageSchema, query });
export const createMasterTemplate = (as: Caller, body: z.input<typeof createTemplateSchema>) =>
  callService("data-api", MASTER, as, { method: "POST", body, schema: templateSchema });

/** The API path of a master template. */
export const masterTemplateApi = (templateId: string) => `${MASTER}/${encodeURIComponent(templateId)}`;
/** Deletes a Draft master template at `version` (the data API refuses any other status). */
export const deleteDraftMasterTemplate = (as: Caller, templateId: string, version: number) =>
  callService("data-api", masterTemplateApi(templateId), as, { method: "DELETE", query: { version }, schema: z.unknown() });

type Page = z.output<typeof pageQuerySchema>;
const enc = encodeURIComponent;

/** Every call on one template, at its API path. */
export function templateApi(as: Caller, api: string) {
  const level = (levelId: string) => `${api}/levels/${enc(levelId)}`;
  const script = (scriptId: string) => `${api}/scripts/${enc(scriptId)}`;
  const write = (path: string, method: "POST" | "PATCH", body?: unknown) => callService("data-api", path, as, { method, body, schema: templateSchema });
  const scriptWrite = (path: string, body?: unknown) => callService("data-api", path, as, { method: "POST", body, schema: scriptSchema });
  return {
    get: () => callService("data-api", api, as, { schema: templateSchema }),
    update: (body: { version: number; name: string; description: string | null; type: TemplateType }) => write(api, "PATCH", body),
    changeStatus: (body: { version: number; status: TemplateStatus }) => write(`${api}/status`, "POST", body),
    addLevel: (body: { version: number; name: string }) => write(`${api}/levels`, "POST", body),
    renameLevel: (levelId: string, body: { version: number; name: string }) => write(level(levelId), "PATCH", body),
    deleteLevel: (levelId: string, version: number) =>
      callService("data-api", level(levelId), as, { method: "DELETE", query: { version }, schema: templateSchema }),
    moveLevel: (levelId: string, body: { version: number; direction: MoveDirection }) => write(`${level(levelId)}/move`, "POST", body),
    createScript: (levelId: string, body: { version: number; name: string; sql: string; comment: string | null }) =>
      callService("data-api", `${level(levelId)}/scripts`, as, { method: "POST", body, schema: scriptSchema }),
    getScript: (scriptId: string) => callService("data-api", script(scriptId), as, { schema: scriptSchema }),
    saveScript: (scriptId: string, body: { baseVersion: number; sql: string; comment: string | null }) =>
      callService("data-api", script(scriptId), as, { method: "PUT", body, schema: scriptSchema }),
    renameScript: (scriptId: string, body: { version: number; name: string }) => write(script(scriptId), "PATCH", body),
    deleteScript: (scriptId: string, version: number) =>
      callService("data-api", script(scriptId), as, { method: "DELETE", query: { version }, schema: templateSchema }),
    moveScript: (scriptId: string, body: { version: number; direction: MoveDirection }) => write(`${script(scriptId)}/move`, "POST", body),
    versions: (scriptId: string, query: Page) => callService("data-api", `${script(scriptId)}/versions`, as, { schema: scriptVersionPageSchema, query }),
    version: (scriptId: string, version: number) => callService("data-api", `${script(scriptId)}/versions/${version}`, as, { schema: scriptVersionSchema }),
    restoreVersion: (scriptId: string, version: number, baseVersion: number) => scriptWrite(`${script(scriptId)}/versions/${version}/restore`, { baseVersion }),
    diff: (scriptId: string, from: number, to: number) =>
      callService("data-api", `${script(scriptId)}/diff`, as, { schema: scriptDiffSchema, query: { from, to } }),
    lock: (scriptId: string) => scriptWrite(`${script(scriptId)}/lock`),
    unlock: (scriptId: string) => scriptWrite(`${script(scriptId)}/unlock`),
    forceUnlock: (scriptId: string, reason: string) => scriptWrite(`${script(scriptId)}/force-unlock`, { reason }),
    lockEvents: (scriptId: string, query: Page) => callService("data-api", `${script(scriptId)}/lock-events`, as, { schema: lockEventPageSchema, query }),
  };
}
export type TemplateApi = ReturnType<typeof templateApi>;

/** A workspace's own templates: `collection` is `${apiBase}/{id}/templates` (a project's or a configuration's). */
export function workspaceTemplatesApi(as: Caller, collection: string) {
  const one = (templateId: string) => `${collection}/${enc(templateId)}`;
  return {
    list: (query: Page) => callService("data-api", collection, as, { schema: templatePageSchema, query }),
    /**
     * The master templates it may still take (Available, of its types, not assigned yet), found by name, a page at a time;
     * with `id`, only those of these ids, and named, the company's among them it can no longer take (`leftOut`).
     */
    assignable: (query: Page & { name?: string; id?: string[] }) =>
      callService("data-api", `${collection}/assignable`, as, { schema: assignablePageSchema, query }),
    /**
     * What a run may be narrowed to: its templates in run order, found by name, a page at a time, each with its levels and their scripts (no SQL);
     * with the script, templates and levels chosen, named.
     */
    runChoices: (query: Page & { name?: string; scriptId?: string; templateId?: string[]; levelId?: string[] }) =>
      callService("data-api", `${collection}/run-choices`, as, { schema: runChoicesPageSchema, query }),
    get: (templateId: string) => callService("data-api", one(templateId), as, { schema: templateSchema }),
    assign: (templateIds: string[]) =>
      callService("data-api", `${collection}/assign`, as, { method: "POST", body: { templateIds }, schema: templatePageSchema }),
    create: (body: { id?: string | undefined; name: string; description: string | null; type: TemplateType }) =>
      callService("data-api", collection, as, { method: "POST", body, schema: templateSchema }),
    move: (templateId: string, body: { version: number; direction: MoveDirection }) =>
      callService("data-api", `${one(templateId)}/move`, as, { method: "POST", body, schema: templatePageSchema }),
    remove: (templateId: string, version: number) =>
      callService("data-api", one(templateId), as, { method: "DELETE", query: { version }, schema: templatePageSchema }),
    compareMaster: (templateId: string) => callService("data-api", `${one(templateId)}/compare-master`, as, { schema: masterComparisonSchema }),
  };
}
