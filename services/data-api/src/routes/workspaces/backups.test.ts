import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RESTORE_REASON_MAX } from "../../../../../contracts/backups.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { COMPARISON_VALUE_MAX } from "../../../../../contracts/values/backups.ts";
import type { HistoryType, LoadStatus } from "../../../../../contracts/values/loads.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import type { BackupManifest, BackupTable } from "../../data-plane/backups/backup-archive.ts";
import { AUTOMATIC_BACKUP_SHARE } from "../../data-plane/backups/backup-jobs.ts";
import { SQLITE_DAMAGED_MESSAGE } from "../../data-plane/backups/sqlite-export.ts";
import { databaseNameOf } from "../../data-plane/project-databases.ts";
import { SERVER_LOST_MESSAGE } from "../../data-plane/server-lost.ts";
import { findJob } from "../../jobs/job-store.ts";
import { INTERRUPTED_MESSAGE, recoverInterruptedJobs } from "../../jobs/recover.ts";
import { TEST_DATABASE_SERVER, USERS, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { holdJobsOf, settleJobs } from "../../testing/hold-jobs.ts";
import { failBackup, insertBackup } from "../../repositories/backups.ts";
import { finishLoad, insertLoad } from "../../repositories/loads.ts";
import { comparedTables, loadableProject as loadableProjectOf, makeApplication, makeProject, storedComparison } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;

/** A plain tar's entries: each one's name, where its data starts, and its size. */
function tarEntries(archive: Buffer) {
  const entries: { name: string; data: number; size: number }[] = [];
  for (let at = 0; at + 512 <= archive.length && archive[at] !== 0;) {
    const size = parseInt(archive.toString("latin1", at + 124, at + 136), 8);
    entries.push({ name: archive.toString("utf8", at, at + 100).replace(/\0.*$/s, ""), data: at + 512, size });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/**
 * Backups, restores, undo and comparisons through the data API (issue 10), on real project databases:
 * what a user does, and each bad input refused with its message and nothing changed.
 */
describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("backups, restores and comparisons on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dt-backups-test-"));

  beforeAll(async () => {
    ({ api, applicationId, owner } = await createOwnerTestApi(kind, birch.id));
  });
  afterEach(() => settleJobs(api.jobs));
  afterAll(async () => {
    await api?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const loadableProject = () => loadableProjectOf(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
  const base = (project: Project) => `/api/v1/projects/${project.id}`;

  const post = (url: string, body: unknown, token = owner) => api.send("POST", url, token, body);
  /** Starts the work, waits for its job, and answers its history entry as it ended. */
  async function done(res: { status: number; body: any }, project: Project) {
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await api.jobs.idle();
    return (await api.get(`${base(project)}/history/${res.body.entry.id}`, owner)).body;
  }
  async function loadFile(project: Project, text: string, name = "customers.csv") {
    const res = await api.postForm(`${base(project)}/flat-file/loads`, owner, { file: { name, content: text }, table: "Customers" });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await api.jobs.idle();
    return (await api.get(`${base(project)}/history/${res.body.load.id}`, owner)).body;
  }
  const rowsOf = (project: Project, table = "Customers") =>
    api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) => {
      const { rows } = await client.query(`select "CustomerId" as id, "Code" as code, "Balance"::text as balance from source."${table}" order by 1`);
      return rows.map((r) => [r.id, r.code, r.balance]);
    });
  /** An undo of `entryId` as the undo page sends it: based on the project's version as it is now. */
  const undoBody = async (project: Project, entryId: string, more: Record<string, string> = {}) => ({
    undo: entryId,
    version: (await api.get(base(project), owner)).body.version as number,
    ...more,
  });
  /** A comparison's tables, the first page of 100 (every table of these projects). */
  const comparisonOf = async (project: Project, historyId: string) =>
    (await api.get(`${base(project)}/history/${historyId}/comparison?pageSize=100`, owner)).body.items as any[];
  const historyCount = async (project: Project) => (await api.get(`${base(project)}/history`, owner)).body.total as number;
  const restoreFile = (project: Project, file: { name: string; bytes: Uint8Array }, fields: Record<string, string> = {}) =>
    api.postForm(`${base(project)}/restores`, owner, { file: { name: file.name, content: file.bytes }, ...fields });
  async function download(project: Project, backupId: string, token = owner) {
    const res = await api.app.request(`${base(project)}/backups/${backupId}/download`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
  }

  it("backs up both databases, lists and downloads the backup, and restores it after the data changed", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code,Balance\n1,007,10.50\n2,B,\n");
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    expect(backup.entry).toMatchObject({ type: "Backup", status: "Completed", rowsRead: 2 });
    expect(backup.entry.fileName).toMatch(/\.backup\.tar$/);
    expect(backup.backup).toMatchObject({ kind: "Manual", status: "Ready", rowCount: 2, tableCount: 4 });
    expect(backup.afterBackup.id).toBe(backup.backup.id);
    expect((await api.get(base(project), owner)).body.currentBackupName).toBe(backup.entry.fileName);

    const list = (await api.get(`${base(project)}/backups`, owner)).body;
    // The manual one and the automatic one the load took before it.
    expect(list.items.map((b: any) => b.kind)).toEqual(["Manual", "Automatic"]);
    expect(list.items[0].after).toMatchObject({ type: "FlatFile", fileName: "customers.csv" });
    const file = await download(project, backup.backup.id);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toContain(".backup.tar");
    expect(file.bytes.length).toBe(backup.backup.bytes);
    // A tar whose first entry is the manifest.
    expect(Buffer.from(file.bytes.subarray(0, 13)).toString()).toBe("manifest.json");

    await loadFile(project, "CustomerId,Code\n9,Z\n");
    expect(await rowsOf(project)).toEqual([[9, "Z", null]]);
    const restored = await done(await post(`${base(project)}/restores`, { backupId: backup.backup.id }), project);
    expect(restored.entry).toMatchObject({ type: "Restore", status: "Loaded", rowsLoaded: 2, fileName: backup.entry.fileName });
    expect(await rowsOf(project)).toEqual([
      [1, "007", "10.50"],
      [2, "B", null],
    ]);
    // The restore took a backup of what it replaced, so it can be undone.
    expect(restored.undoBackup).toMatchObject({ kind: "Automatic", rowCount: 1 });

    // The uploaded archive restores the same.
    await loadFile(project, "CustomerId,Code\n5,Q\n");
    const fromFile = await done(await restoreFile(project, { name: "downloaded.backup.tar", bytes: file.bytes }), project);
    expect(fromFile.entry).toMatchObject({ type: "Restore", status: "Loaded", fileName: "downloaded.backup.tar" });
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1, 2]);
  });

  it("a restore into a project that has a template already (made from its Templates tab) takes it past the templates step to Active", async () => {
    const other = await loadableProject();
    await loadFile(other, "CustomerId,Code\n1,A\n");
    const backup = await done(await post(`${base(other)}/backups`, {}), other);
    const file = await download(other, backup.backup.id);
    const project = await loadableProject();
    expect((await post(`${base(project)}/templates`, { name: "Made early", type: "Core", description: null })).status).toBe(201);
    // Not at the templates step yet: the template alone ends no step.
    expect((await api.get(base(project), owner)).body.status).toBe("SetupRestoreDatabaseIncomplete");
    const restored = await done(await restoreFile(project, { name: "downloaded.backup.tar", bytes: file.bytes }), project);
    expect(restored.entry).toMatchObject({ type: "Restore", status: "Loaded" });
    expect((await api.get(base(project), owner)).body).toMatchObject({ status: "Active", isLocked: false });
  });

  it("another company's workspace and backups are not found, nor a backup id of another workspace: restoring or comparing with one starts nothing", async () => {
    const project = await loadableProject();
    const other = await loadableProject();
    const backup = await done(await post(`${base(other)}/backups`, {}), other);
    const admin = await api.tokenFor(USERS.superAdmin);
    const acmeProject = await loadableProjectOf(api, admin, {
      companyId: acme.id,
      applicationId: (await makeApplication(api, acme.id)).id,
      sourceType: "BackUp",
    });
    expect((await post(`${base(acmeProject)}/backups`, {}, admin)).status).toBe(202);
    await api.jobs.idle();
    const acmeBackup = (await api.get(`${base(acmeProject)}/backups`, admin)).body.items[0];
    expect(acmeBackup).toMatchObject({ status: "Ready" });
    const entries = await historyCount(project);
    for (const backupId of [acmeBackup.id, backup.backup.id, "not-a-backup"]) {
      const notFound = { status: 404, body: { errors: ["No such backup."] } };
      expect(await post(`${base(project)}/restores`, { backupId }, admin)).toMatchObject(notFound);
      expect(await post(`${base(project)}/comparisons`, { backupId }, admin)).toMatchObject(notFound);
    }
    // An entry of the history alike: one of another company or workspace, or none, is named as what was asked for, a history entry.
    const acmeEntry = (await api.get(`${base(acmeProject)}/history`, admin)).body.items[0];
    expect(acmeEntry).toMatchObject({ type: "Backup" });
    for (const historyId of [acmeEntry.id, backup.entry.id, "not-an-entry"]) {
      const notFound = { status: 404, body: { errors: ["No such history entry."] } };
      expect(await api.get(`${base(project)}/history/${historyId}`, admin)).toMatchObject(notFound);
      expect(await post(`${base(project)}/restores`, await undoBody(project, historyId), admin)).toMatchObject(notFound);
      expect(await post(`${base(project)}/comparisons`, { historyId }, admin)).toMatchObject(notFound);
    }
    expect(await historyCount(project)).toBe(entries);
    const stranger = await api.tokenFor(USERS.viewer);
    expect((await download(other, backup.backup.id, stranger)).status).toBe(404);
    expect((await api.get(`${base(other)}/backups`, stranger)).status).toBe(404);
    expect((await post(`${base(other)}/backups`, {}, stranger)).status).toBe(404);
    expect((await download(project, backup.backup.id)).status).toBe(404);
    expect(acme.id).not.toBe(birch.id);
  });

  it("lists only backups ready to use; restoring or comparing with one still Running or Failed says it is not ready, and starts nothing", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const ready = (await done(await post(`${base(project)}/backups`, {}), project)).backup;
    const backupRow = (name: string) => insertBackup(api.db, { projectId: project.id, name, kind: "Manual", userId: USERS.analyst.id, now: new Date() });
    const running = await backupRow("still-running.backup.tar");
    const failed = await backupRow("failed.backup.tar");
    await failBackup(api.db, failed, new Date());
    // The manual backup and the load's automatic one: neither of the others.
    const listed = (await api.get(`${base(project)}/backups`, owner)).body;
    expect(listed.items.map((b: { id: string; status: string }) => [b.id === ready.id, b.status])).toEqual([
      [true, "Ready"],
      [false, "Ready"],
    ]);
    expect(listed.total).toBe(2);
    const entries = await historyCount(project);
    for (const backupId of [running, failed]) {
      expect(await post(`${base(project)}/restores`, { backupId })).toMatchObject({
        status: 400,
        body: { fieldErrors: { backupId: ["This backup is not ready to restore."] } },
      });
      expect(await post(`${base(project)}/comparisons`, { backupId })).toMatchObject({
        status: 400,
        body: { fieldErrors: { backupId: ["This backup is not ready to compare with."] } },
      });
    }
    expect(await historyCount(project)).toBe(entries);
    expect((await api.get(`${base(project)}`, owner)).body).toMatchObject({ isLocked: false });
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1]);
  });

  it("undoes a load: the data as it was before it, recorded as an Undo; an undo can itself be undone", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n2,B\n");
    const second = await loadFile(project, "CustomerId,Code\n3,C\n");
    expect(second.undoBackup).toMatchObject({ kind: "Automatic", rowCount: 2 });
    const started = await post(`${base(project)}/restores`, await undoBody(project, second.entry.id));
    const undo = await done(started, project);
    // Its job is named as History names it (the background-process page reads the job's kind), not "Restore".
    expect((await findJob(api.db, started.body.jobId))?.kind).toBe("Undo");
    expect(undo.entry).toMatchObject({ type: "Undo", status: "Loaded", rowsLoaded: 2 });
    expect(undo.about).toMatchObject({ id: second.entry.id });
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1, 2]);
    await done(await post(`${base(project)}/restores`, await undoBody(project, undo.entry.id, { reason: "the second delivery was right after all" })), project);
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([3]);
    // Each undo is in the audit log: what it undid and who asked.
    const audit = await api.get(`/api/v1/audit-log?action=workspace.undo_started&companyId=${project.companyId}`, await api.tokenFor(USERS.superAdmin));
    expect(
      audit.body.items
        .filter((e: { workspaceId: string }) => e.workspaceId === project.id)
        .map((e: { summary: { undoes: { entry: string } }; reason: string | null }) => [e.summary.undoes.entry, e.reason]),
    ).toEqual([
      [undo.entry.id, "the second delivery was right after all"],
      [second.entry.id, null],
    ]);
    // Written where the job started, with its id.
    expect(audit.body.items.find((e: { workspaceId: string }) => e.workspaceId === project.id).summary.jobId).toEqual(expect.any(String));

    // A backup entry changed nothing: it has nothing to undo.
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    expect((await post(`${base(project)}/restores`, await undoBody(project, backup.entry.id))).status).toBe(409);
    expect((await post(`${base(project)}/restores`, await undoBody(project, "no-such-entry"))).status).toBe(404);
  });

  it("refuses an undo sent again (Back, another tab) as undone already, and one based on a page shown before a change as stale: 409, nothing restored", async () => {
    const project = await loadableProject();
    const first = await loadFile(project, "CustomerId,Code\n1,A\n");
    const second = await loadFile(project, "CustomerId,Code\n2,B\n");
    const shown = await undoBody(project, second.entry.id);
    const olderShown = await undoBody(project, first.entry.id);
    await done(await post(`${base(project)}/restores`, shown), project);
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1]);
    const entries = await historyCount(project);
    const again = await post(`${base(project)}/restores`, shown);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      expect.stringMatching(
        /^This flat-file load of customers\.csv was undone already, by you on \d{4}-\d\d-\d\d at \d\d:\d\d UTC\. Nothing more was restored\.$/,
      ),
    ]);
    // The data changed since the page was shown (the undo above): that undo is refused as stale, not run on data its user never saw.
    await loadFile(project, "CustomerId,Code\n3,C\n");
    const later = await historyCount(project);
    const stale = await post(`${base(project)}/restores`, olderShown);
    expect(stale).toMatchObject({
      status: 409,
      body: {
        errors: [
          "The project changed since this page was shown (its data or its settings). Nothing was restored: look at its history as it is now, then undo again if you still want to.",
        ],
      },
    });
    expect(later).toBe(entries + 1);
    expect(await historyCount(project)).toBe(later);
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([3]);
    expect((await api.get(`${base(project)}`, owner)).body).toMatchObject({ isLocked: false });
    // An undo without the version it was based on is refused at the field.
    expect(await post(`${base(project)}/restores`, { undo: first.entry.id })).toMatchObject({
      status: 400,
      body: { fieldErrors: { version: ["Required with undo"] } },
    });
  });

  it("sorts the history by Status as its rows read it (a restore's Loaded is Restored, after Refused), in SQL", async () => {
    const project = await loadableProject();
    const loaded = await loadFile(project, "CustomerId,Code\n1,A\n");
    const refused = await loadFile(project, "CustomerId,Code\nx,B\n");
    expect(refused.entry).toMatchObject({ status: "Refused" });
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    const restore = await done(await post(`${base(project)}/restores`, { backupId: backup.backup.id }), project);
    expect(restore.entry).toMatchObject({ type: "Restore", status: "Loaded" });
    const ids = async (query: string) => (await api.get(`${base(project)}/history${query}`, owner)).body.items.map((e: { id: string }) => e.id);
    // Completed, Loaded, Refused, Restored.
    const byWords = [backup.entry.id, loaded.entry.id, refused.entry.id, restore.entry.id];
    expect(await ids("?sort=status")).toEqual(byWords);
    expect(await ids("?sort=-status")).toEqual([...byWords].reverse());
  });

  it("sorts the history by Rows as its rows show them (a comparison's rows compared, nothing for a failed restore), in SQL", async () => {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    let at = Date.parse("2026-11-01T09:00:00Z");
    /** An entry of the history as its job leaves it: rows read and loaded, or still Loading. */
    const entry = async (type: HistoryType, status: LoadStatus, rowsRead: number, rowsLoaded: number) => {
      const now = new Date((at += 60_000));
      const form = { table: "Customers", mode: "replace", onRejected: "loadOthers" } as const;
      const id = await insertLoad(api.db, { projectId: project.id, type, fileName: `${type}.csv`, fileBytes: 1, form, tables: [], parameters: null, userId: USERS.analyst.id, now });
      if (status !== "Loading") await finishLoad(api.db, id, { status, rowsRead, rowsLoaded, rowsRejected: rowsRead - rowsLoaded, message: null }, now);
      return id;
    };
    // The Rows column shows: 3 loaded; 10 compared (none loaded); 7 backed up; 5 restored; nothing (failed, running).
    const loaded = await entry("FlatFile", "Loaded", 9, 3);
    const compared = await entry("Comparison", "Completed", 10, 0);
    const backup = await entry("Backup", "Completed", 7, 7);
    const restored = await entry("Restore", "Loaded", 5, 5);
    const failed = await entry("Restore", "Failed", 4, 4);
    const running = await entry("Undo", "Loading", 0, 0);
    const ids = async (query: string) => (await api.get(`${base(project)}/history${query}`, owner)).body.items.map((e: { id: string }) => e.id);
    // Ties (the two that show nothing): newest first, whichever the direction.
    expect(await ids("?sort=rowsLoaded")).toEqual([running, failed, loaded, restored, backup, compared]);
    expect(await ids("?sort=-rowsLoaded")).toEqual([compared, backup, restored, loaded, running, failed]);
  });

  it("compares an earlier delivery with the current data: rows added, removed and changed, the columns, old and new values", async () => {
    const project = await loadableProject();
    const first = await loadFile(project, "CustomerId,Code,Balance\n1,A,1.00\n2,B,2.00\n3,C,3.00\n", "delivery-1.csv");
    // The latest load's data is the current data: nothing earlier to compare it with yet.
    expect((await post(`${base(project)}/comparisons`, { historyId: first.entry.id })).status).toBe(409);
    await loadFile(project, "CustomerId,Code,Balance\n1,A,1.00\n2,B2,2.50\n4,D,4.00\n", "delivery-2.csv");
    const deliveries = (await api.get(`${base(project)}/backups?deliveries=true`, owner)).body;
    expect(deliveries.items.map((b: any) => b.after.fileName)).toEqual(["delivery-1.csv"]);

    const compared = await done(await post(`${base(project)}/comparisons`, { historyId: first.entry.id }), project);
    expect(compared.entry).toMatchObject({ type: "Comparison", status: "Completed" });
    expect(compared.about).toMatchObject({ id: first.entry.id });
    // The entry says the comparison in all; its tables come a page at a time.
    expect(compared.comparison).toEqual({ tables: 2, differing: 1, added: 1, removed: 1, changed: 1 });
    const customers = (await comparisonOf(project, compared.entry.id)).find((t: any) => t.table === "Customers");
    expect(customers).toMatchObject({ key: ["CustomerId"], earlierRows: 3, currentRows: 3, added: 1, removed: 1, changed: 1 });
    expect(customers.changedColumns).toEqual(
      expect.arrayContaining([
        { column: "Code", rows: 1 },
        { column: "Balance", rows: 1 },
      ]),
    );
    expect(customers.samples.added).toEqual([expect.arrayContaining(["4", "D"])]);
    expect(customers.samples.removed).toEqual([expect.arrayContaining(["3", "C"])]);
    expect(customers.samples.changed).toEqual([
      {
        key: ["2"],
        changes: expect.arrayContaining([
          { column: "Code", earlier: "B", current: "B2" },
          { column: "Balance", earlier: "2.00", current: "2.50" },
        ]),
      },
    ]);
    // The comparison is an entry of the history of its own, and it changed no data.
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1, 2, 4]);
    // The history's list says what the backup it compared holds (the data after delivery-1.csv's load), as its page does; other entries compared nothing.
    const listed = (await api.get(`${base(project)}/history`, owner)).body.items;
    expect(listed.find((e: any) => e.id === compared.entry.id).compared).toEqual({
      after: { id: first.entry.id, type: "FlatFile", fileName: "delivery-1.csv", finishedAt: first.entry.finishedAt },
    });
    expect(listed.find((e: any) => e.id === first.entry.id).compared).toBeNull();

    // Restore with "Compare with the current data": what the restore changed.
    const restored = await done(await post(`${base(project)}/restores`, { backupId: deliveries.items[0].id, compare: true }), project);
    expect(restored.entry).toMatchObject({ type: "RestoreAndComparison", status: "Loaded" });
    expect((await comparisonOf(project, restored.entry.id)).find((t: any) => t.table === "Customers")).toMatchObject({ added: 1, removed: 1, changed: 1 });
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1, 2, 3]);
  });

  it("answers a comparison of many tables a page at a time in their order, summed in SQL, only those that differ when asked; long values cut", async () => {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    // 45 tables, every third differing (T003, T006… T045: i rows added, one removed, one changed); T010's note 5,000 characters long,
    // and its changed row's value alike for 3,000 characters before it differs.
    const long = "x".repeat(5000);
    const tables = comparedTables(45, (i) => i % 3 === 0);
    tables[9] = {
      ...tables[9]!,
      added: 1,
      removed: 0,
      changed: 1,
      samples: { added: [["1", long]], removed: [], changed: [{ key: [long], changes: [{ column: "Note", earlier: `${long.slice(0, 3000)}old`, current: `${long.slice(0, 3000)}new` }] }] },
    };
    const historyId = await storedComparison(api, project.id, USERS.analyst.id, tables);
    const at = (query = "") => api.get(`${base(project)}/history/${historyId}/comparison${query}`, owner);
    const names = async (query: string) => {
      const res = await at(query);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
      return { tables: res.body.items.map((t: { table: string }) => t.table), total: res.body.total, page: res.body.page, pageSize: res.body.pageSize };
    };
    const named = (...numbers: number[]) => numbers.map((i) => `T${String(i).padStart(3, "0")}`);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

    // The entry says the comparison in all: 16 tables differ (T010 too), 1 + 3 + 6 + … + 45 rows added.
    const details = (await api.get(`${base(project)}/history/${historyId}`, owner)).body;
    expect(details.comparison).toEqual({ tables: 45, differing: 16, added: 361, removed: 15, changed: 16 });
    // Its tables a page at a time, in the order compared; past the end, none (the total still said).
    expect(await names("")).toEqual({ tables: named(...range(1, 25)), total: 45, page: 1, pageSize: 25 });
    expect(await names("?page=2&pageSize=10")).toEqual({ tables: named(...range(11, 20)), total: 45, page: 2, pageSize: 10 });
    expect(await names("?page=5&pageSize=10")).toEqual({ tables: named(...range(41, 45)), total: 45, page: 5, pageSize: 10 });
    expect(await names("?page=6&pageSize=10")).toEqual({ tables: [], total: 45, page: 6, pageSize: 10 });
    // Only those that differ, in their order.
    expect(await names("?differing=true&pageSize=10")).toEqual({ tables: named(3, 6, 9, 10, 12, 15, 18, 21, 24, 27), total: 16, page: 1, pageSize: 10 });
    expect(await names("?differing=true&pageSize=10&page=2")).toEqual({ tables: named(30, 33, 36, 39, 42, 45), total: 16, page: 2, pageSize: 10 });
    // A table's result as stored, its samples with it.
    const page = (await at("?pageSize=10")).body.items;
    expect(page[2]).toEqual(tables[2]);
    // A long value is cut to COMPARISON_VALUE_MAX characters, "…" where it goes on; a changed one around where it differs, so the change shows.
    const cut = page[9];
    expect(cut.samples.added).toEqual([["1", `${"x".repeat(COMPARISON_VALUE_MAX - 1)}…`]]);
    expect(cut.samples.changed[0].key).toEqual([`${"x".repeat(COMPARISON_VALUE_MAX - 1)}…`]);
    expect(cut.samples.changed[0].changes).toEqual([{ column: "Note", earlier: `…${"x".repeat(20)}old`, current: `…${"x".repeat(20)}new` }]);
    expect(JSON.stringify(await at("?pageSize=100")).length).toBeLessThan(50_000);

    // A page size not offered, a filter not a yes or no: 400 at the field.
    expect(await at("?pageSize=7")).toMatchObject({ status: 400, body: { fieldErrors: { pageSize: [expect.any(String)] } } });
    expect(await at("?differing=maybe")).toMatchObject({ status: 400, body: { fieldErrors: { differing: ["Tick or untick this box."] } } });
    // An entry that compared nothing: no summary, an empty page.
    const none = await storedComparison(api, project.id, USERS.analyst.id, []);
    expect((await api.get(`${base(project)}/history/${none}`, owner)).body.comparison).toBeNull();
    expect((await api.get(`${base(project)}/history/${none}/comparison`, owner)).body).toEqual({ items: [], total: 0, page: 1, pageSize: 25 });
    // Another company's user, or the entry asked for under another workspace: not found, as the entry itself.
    const stranger = await api.tokenFor(USERS.viewer);
    expect(await api.get(`${base(project)}/history/${historyId}/comparison`, stranger)).toMatchObject({ status: 404 });
    const other = await makeProject(api, owner, { companyId: birch.id, applicationId });
    expect(await api.get(`${base(other)}/history/${historyId}/comparison`, owner)).toMatchObject({ status: 404, body: { errors: ["No such history entry."] } });
  });

  it("restores a client's SQLite export, its tables and columns matched by name in any case", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n9,OLD\n");
    const file = path.join(tmp, "export.sqlite");
    const sqlite = new Database(file);
    sqlite.exec(`create table customers (customerid integer, CODE text, balance real, extra text);
      insert into customers values (1, '007', 10.5, 'x'), (2, 'B', null, 'y');
      create table unrelated (a text)`);
    sqlite.close();
    const restored = await done(await restoreFile(project, { name: "export.sqlite", bytes: fs.readFileSync(file) }), project);
    expect(restored.entry).toMatchObject({ type: "Restore", status: "Loaded", rowsLoaded: 2 });
    expect(restored.entry.message).toContain("unrelated");
    expect(restored.entry.message).toContain("extra");
    expect(await rowsOf(project)).toEqual([
      [1, "007", "10.50"],
      [2, "B", null],
    ]);
  });

  it("refuses a damaged, truncated, foreign or unmatched file with its message, and changes nothing", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    const archive = Buffer.from((await download(project, backup.backup.id)).bytes);
    const entries = await historyCount(project);
    const refusedWith = async (file: { name: string; bytes: Uint8Array }) => {
      const res = await restoreFile(project, file);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      return res.body.fieldErrors.file[0] as string;
    };

    expect(await refusedWith({ name: "cut.backup.tar", bytes: archive.subarray(0, Math.floor(archive.length * 0.7)) })).toMatch(/truncated|damaged/i);
    const tampered = Buffer.from(archive);
    // A byte inside the last table's compressed data: before its padding and the archive's two zero blocks.
    let last = tampered.length - 1;
    while (tampered[last] === 0) last--;
    tampered[last - 10] = tampered[last - 10]! ^ 0xff;
    expect(await refusedWith({ name: "tampered.backup.tar", bytes: tampered })).toMatch(/damaged|checksum|truncated/i);
    expect(await refusedWith({ name: "data.tar", bytes: Buffer.from("CustomerId,Code\n1,A\n".repeat(100)) })).toMatch(/not a backup|unknown format/i);
    expect(await refusedWith({ name: "fake.sqlite", bytes: Buffer.from("SQLite format 3\0garbage".padEnd(2048, "x")) })).toMatch(/SQLite/);
    const unmatched = path.join(tmp, "unmatched.db");
    const sqlite = new Database(unmatched);
    sqlite.exec("create table invoices (id integer); insert into invoices values (1)");
    sqlite.close();
    expect(await refusedWith({ name: "unmatched.db", bytes: fs.readFileSync(unmatched) })).toMatch(/None of the SQLite database's tables \(invoices\)/);
    expect((await restoreFile(project, { name: "empty.tar", bytes: new Uint8Array() })).status).toBe(400);
    // A client's SQLite export cut short, or with a damaged page: said in the product's words, not SQLite's (its check lists every page).
    const exported = path.join(tmp, "exported.db");
    const whole = new Database(exported);
    whole.exec("create table Customers (CustomerId integer, Code text)");
    const insert = whole.prepare("insert into Customers values (?, ?)");
    // In one transaction: a commit each (2,000 journal syncs) took most of the test's time, 13 s to 25 s under load.
    whole.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(i, `C${i} ${"x".repeat(50)}`);
    })();
    whole.close();
    const bytes = fs.readFileSync(exported);
    expect(await refusedWith({ name: "cut.db", bytes: bytes.subarray(0, Math.floor(bytes.length / 2)) })).toBe(SQLITE_DAMAGED_MESSAGE);
    const damaged = Buffer.from(bytes).fill(0x41, 4096, 8192);
    expect(await refusedWith({ name: "damaged.db", bytes: damaged })).toBe(SQLITE_DAMAGED_MESSAGE);

    expect(await rowsOf(project)).toEqual([[1, "A", null]]);
    expect(await historyCount(project)).toBe(entries);
    expect((await api.get(base(project), owner)).body).toMatchObject({ isLocked: false });
  });

  it("refuses a file's restore whose reason is longer than the audit log keeps, at the Reason, its choices given back: never a reason cut short", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    const archive = (await download(project, backup.backup.id)).bytes;
    await loadFile(project, "CustomerId,Code\n2,B\n");
    const entries = await historyCount(project);
    const long = `${"The client sent a corrected delivery. ".repeat(13)}Restored.`;
    expect(long.length).toBeGreaterThan(RESTORE_REASON_MAX);
    const refused = await restoreFile(project, { name: "kept.backup.tar", bytes: archive }, { compare: "on", reason: long });
    expect(refused).toMatchObject({ status: 400, body: { fieldErrors: { reason: [`At most ${RESTORE_REASON_MAX} characters`] }, values: { compare: "on", reason: long } } });
    // As the JSON body's reason is.
    expect(await post(`${base(project)}/restores`, { backupId: backup.backup.id, reason: long })).toMatchObject({
      status: 400,
      body: { fieldErrors: { reason: [`At most ${RESTORE_REASON_MAX} characters`] } },
    });
    expect(await rowsOf(project)).toEqual([[2, "B", null]]);
    expect(await historyCount(project)).toBe(entries);
    // Within it, restored, and the audit log keeps the reason whole.
    const reason = long.slice(-RESTORE_REASON_MAX).trim();
    await done(await restoreFile(project, { name: "kept.backup.tar", bytes: archive }, { reason }), project);
    expect(await rowsOf(project)).toEqual([[1, "A", null]]);
    const audit = await api.get(`/api/v1/audit-log?action=workspace.restore_started&companyId=${project.companyId}`, await api.tokenFor(USERS.superAdmin));
    expect(audit.body.items.filter((e: { workspaceId: string }) => e.workspaceId === project.id).map((e: { reason: string | null }) => e.reason)).toEqual([reason]);
  });

  it("refuses a restore that would drop what others built on the source tables, naming it, and restores once it is gone", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const backup = await done(await post(`${base(project)}/backups`, {}), project);
    await loadFile(project, "CustomerId,Code\n2,B\n");
    // A view in destination over a source table, as a SQL credential with Write, or a script, may make one.
    const inDatabase = (statement: string) => api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) => client.query(statement));
    await inDatabase(`create view destination.customer_codes as select "Code" from source."Customers"`);

    const refused = await done(await post(`${base(project)}/restores`, { backupId: backup.backup.id }), project);
    expect(refused.entry).toMatchObject({ type: "Restore", status: "Failed" });
    expect(refused.entry.message).toContain("destination.customer_codes");
    expect(await rowsOf(project)).toEqual([[2, "B", null]]);
    expect((await inDatabase(`select "Code" from destination.customer_codes`)).rows).toEqual([{ Code: "B" }]);

    await inDatabase(`drop view destination.customer_codes`);
    const restored = await done(await post(`${base(project)}/restores`, { backupId: backup.backup.id }), project);
    expect(restored.entry).toMatchObject({ type: "Restore", status: "Loaded" });
    expect(await rowsOf(project)).toEqual([[1, "A", null]]);
  });

  it("refuses a restore, a backup or a comparison while another job holds the lock", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const backup = (await done(await post(`${base(project)}/backups`, {}), project)).backup;
    const release = holdJobsOf(api.jobs, project.id);
    expect((await post(`${base(project)}/backups`, {})).status).toBe(202);
    const locked = [
      await post(`${base(project)}/restores`, { backupId: backup.id }),
      await post(`${base(project)}/comparisons`, { backupId: backup.id }),
      await post(`${base(project)}/backups`, {}),
    ];
    for (const res of locked) expect(res).toMatchObject({ status: 409, body: { errors: [expect.stringContaining("locked (Backup)")] } });
    release();
    await api.jobs.idle();
  });

  it("shows a restore's or an undo's automatic backup done as a small share of the bar, not a half (a third) of it", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const second = await loadFile(project, "CustomerId,Code\n2,B\n");
    /** The job's progress as the step named `held` starts, its automatic backup done; then the job is let go. */
    async function progressAt(body: object, held: string) {
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let reached!: (jobId: string) => void;
      const started = new Promise<string>((resolve) => (reached = resolve));
      api.jobs.hooks.beforeStep = (step) => {
        if (step.projectId !== project.id || !step.name.startsWith(held)) return undefined;
        reached(step.jobId);
        return holding;
      };
      expect((await post(`${base(project)}/restores`, body)).status).toBe(202);
      const job = await findJob(api.db, await started);
      release();
      await api.jobs.idle();
      return job!.progress;
    }
    const share = 100 * AUTOMATIC_BACKUP_SHARE;
    expect(await progressAt(await undoBody(project, second.entry.id), "Restore")).toBe(share);
    const backupId = second.undoBackup.id;
    expect(await progressAt({ backupId }, "Restore")).toBe(share);
    // With the comparison, the restore and the comparison share the rest.
    expect(await progressAt({ backupId, compare: "true" }, "Compare")).toBe(Math.floor(share + (100 - share) / 2));
  });

  /**
   * Puts a pipe in place of the backup archive `file`, fed up to its last source table's data, so that a job
   * reading it waits there. Answers the CSV bytes of the source tables before that one (`read`) and of them
   * all (`total`), `rest` to feed the rest and `putBack` to put the file back as it was.
   */
  async function pipedBeforeLastTable(file: string) {
    const archive = fs.readFileSync(file);
    const entries = tarEntries(archive);
    const manifest = JSON.parse(archive.subarray(entries[0]!.data, entries[0]!.data + entries[0]!.size).toString()) as BackupManifest;
    const source = manifest.tables.filter((t) => t.schema === "source");
    expect(source.length).toBeGreaterThan(1);
    const cut = entries.find((e) => e.name === source.at(-1)!.entry)!.data;
    fs.rmSync(file);
    execFileSync("mkfifo", [file]);
    // Read and write: opening it does not wait for the job to open it; the archive is smaller than the pipe holds.
    const pipe = await fs.promises.open(file, "r+");
    await pipe.write(archive.subarray(0, cut));
    const sum = (tables: BackupTable[]) => tables.reduce((bytes, t) => bytes + t.csvBytes, 0);
    return {
      read: sum(source.slice(0, -1)),
      total: sum(source),
      rest: () => pipe.write(archive.subarray(cut)),
      putBack: async () => {
        await pipe.close();
        fs.rmSync(file);
        fs.writeFileSync(file, archive);
      },
    };
  }
  /** The job once its running step has reported `bytesRead` (once a second while a table is read). */
  async function reportedRead(jobId: string, bytesRead: number) {
    for (let i = 0; i < 100; i++) {
      const job = await findJob(api.db, jobId);
      if (job?.progressDetail?.bytesRead === bytesRead) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the job did not report ${bytesRead} bytes read within 5 seconds`);
  }
  const backupFile = (project: Project, backupId: string) => path.join(api.dataDir, "backups", project.id, `${backupId}.backup.tar`);

  it("shows a restore (or an undo) of the workspace's own backup growing with the bytes it reads, not still at the backup's 5%", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const second = await loadFile(project, "CustomerId,Code\n2,B\n");
    const backupId = second.undoBackup.id;
    /** Restores (`body`) the backup, held before its last source table: answers the job's progress as the restore waits there. */
    async function heldBeforeLastTable(body: object) {
      const held = await pipedBeforeLastTable(backupFile(project, backupId));
      try {
        const res = await post(`${base(project)}/restores`, body);
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        const job = await reportedRead(res.body.jobId, held.read);
        await held.rest();
        expect((await done(res, project)).entry).toMatchObject({ status: "Loaded" });
        return { job, read: held.read, total: held.total };
      } finally {
        await held.putBack();
      }
    }
    const share = 100 * AUTOMATIC_BACKUP_SHARE;
    for (const body of [() => ({ backupId }), () => undoBody(project, second.entry.id)]) {
      const { job, read, total } = await heldBeforeLastTable(await body());
      expect(job.steps.map((step) => step.status)).toEqual(["Completed", "Started"]);
      expect(job.progressDetail).toMatchObject({ bytesRead: read, bytesTotal: total });
      expect(Math.abs(job.progress - (share + (100 - share) * (read / total)))).toBeLessThanOrEqual(1);
      expect(job.progress).toBeGreaterThan(share);
    }
    expect((await rowsOf(project)).map((r) => r[0])).toEqual([1]);
  });

  it("shows a comparison (alone or after a restore) growing with the bytes of the backup it reads and compares, not still where it started", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,A\n");
    const second = await loadFile(project, "CustomerId,Code\n2,B\n");
    const backupId = second.undoBackup.id;

    // A comparison with one of the workspace's backups, its one step from 0 to 100%.
    const held = await pipedBeforeLastTable(backupFile(project, backupId));
    try {
      const res = await post(`${base(project)}/comparisons`, { backupId });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const job = await reportedRead(res.body.jobId, held.read);
      await held.rest();
      expect((await done(res, project)).entry).toMatchObject({ type: "Comparison", status: "Completed" });
      expect(job.steps.map((step) => step.status)).toEqual(["Started"]);
      expect(job.progressDetail).toMatchObject({ bytesRead: held.read, bytesTotal: held.total });
      expect(held.read).toBeGreaterThan(0);
      expect(held.read).toBeLessThan(held.total);
      expect(Math.abs(job.progress - 100 * (held.read / held.total))).toBeLessThanOrEqual(1);
      expect(job.progress).toBeGreaterThan(0);
    } finally {
      await held.putBack();
    }

    // A restore with its comparison: the comparison reads the automatic backup the restore took first, from past half the bar.
    const folder = path.dirname(backupFile(project, backupId));
    const backupsBefore = new Set(fs.readdirSync(folder));
    let automatic: Awaited<ReturnType<typeof pipedBeforeLastTable>> | undefined;
    const piped = new Promise<NonNullable<typeof automatic>>((resolve) => {
      api.jobs.hooks.beforeStep = async (step) => {
        if (step.projectId !== project.id || !step.name.startsWith("Compare")) return;
        const taken = fs.readdirSync(folder).find((name) => !backupsBefore.has(name))!;
        resolve((automatic = await pipedBeforeLastTable(path.join(folder, taken))));
      };
    });
    try {
      const res = await post(`${base(project)}/restores`, { backupId, compare: "true" });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const job = await reportedRead(res.body.jobId, (await piped).read);
      await automatic!.rest();
      expect((await done(res, project)).entry).toMatchObject({ type: "RestoreAndComparison", status: "Loaded" });
      const share = 100 * AUTOMATIC_BACKUP_SHARE;
      const start = share + (100 - share) / 2;
      expect(job.steps.map((step) => step.status)).toEqual(["Completed", "Completed", "Started"]);
      expect(job.progressDetail).toMatchObject({ bytesRead: automatic!.read, bytesTotal: automatic!.total });
      expect(Math.abs(job.progress - (start + (100 - start) * (automatic!.read / automatic!.total)))).toBeLessThanOrEqual(1);
      expect(job.progress).toBeGreaterThan(start);
    } finally {
      await automatic?.putBack();
    }
  });

  it("a restore whose process died is Failed at restart, the lock released, the source exactly as before", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,KEEP\n");
    const backup = (await done(await post(`${base(project)}/backups`, {}), project)).backup;
    await loadFile(project, "CustomerId,Code\n2,NOW\n");
    // The "kill": this process's runner never gets past the restore step's start.
    let kill!: (err: Error) => void;
    const dead = new Promise<void>((_, reject) => (kill = reject));
    dead.catch(() => undefined);
    api.jobs.hooks.beforeStep = (step) => (step.projectId === project.id && step.name.startsWith("Restore") ? dead : undefined);
    const started = await post(`${base(project)}/restores`, { backupId: backup.id });
    expect(started.status).toBe(202);
    await new Promise((r) => setTimeout(r, 200));
    expect(await recoverInterruptedJobs(api.db, { dataPlane: api.dataPlane })).toHaveLength(1);
    const entry = (await api.get(`${base(project)}/history/${started.body.entry.id}`, owner)).body.entry;
    expect(entry).toMatchObject({ status: "Failed", message: `${INTERRUPTED_MESSAGE}. Nothing was changed.` });
    expect(await rowsOf(project)).toEqual([[2, "NOW", null]]);
    expect((await api.get(base(project), owner)).body).toMatchObject({ isLocked: false });
    kill(new Error("killed"));
  });

  it("a restore whose database server went away says so: Failed, nothing changed, the lock released", async () => {
    const project = await loadableProject();
    await loadFile(project, "CustomerId,Code\n1,KEEP\n");
    const backup = (await done(await post(`${base(project)}/backups`, {}), project)).backup;
    await loadFile(project, "CustomerId,Code\n2,NOW\n");
    // What pg says of a session PostgreSQL ended as it stopped, met as the restore step starts.
    api.jobs.hooks.beforeStep = (step) =>
      step.projectId === project.id && step.name.startsWith("Restore")
        ? Promise.reject(Object.assign(new Error("terminating connection due to unexpected postmaster exit"), { code: "57P01" }))
        : undefined;
    const started = await post(`${base(project)}/restores`, { backupId: backup.id });
    expect(started.status).toBe(202);
    await api.jobs.idle();
    api.jobs.hooks.beforeStep = undefined;
    const entry = (await api.get(`${base(project)}/history/${started.body.entry.id}`, owner)).body.entry;
    expect(entry).toMatchObject({ status: "Failed", message: `${SERVER_LOST_MESSAGE} Nothing was changed.` });
    expect(await rowsOf(project)).toEqual([[2, "NOW", null]]);
    expect((await api.get(base(project), owner)).body).toMatchObject({ isLocked: false });
  });

  it("keeps the last AUTO_BACKUPS_KEPT automatic backups, their files too", async () => {
    const project = await loadableProject();
    const app = api.appWith({ autoBackupsKept: 2 });
    for (const n of [1, 2, 3, 4]) {
      const res = await api.postForm(
        `${base(project)}/flat-file/loads`,
        owner,
        { file: { name: `d${n}.csv`, content: `CustomerId,Code\n${n},X\n` }, table: "Customers" },
        app,
      );
      expect(res.status).toBe(202);
      await api.jobs.idle();
    }
    const automatic = (await api.get(`${base(project)}/backups`, owner)).body.items.filter((b: any) => b.kind === "Automatic");
    expect(automatic).toHaveLength(2);
    const files = fs.readdirSync(path.join(api.dataDir, "backups", project.id));
    expect(files).toHaveLength(2);
  });

  /** Loads a CSV into the project's Customers through `app` and answers its history entry once its job is over. */
  const loaderOf = (project: Project, app: ReturnType<typeof api.appWith>) => async (name: string, content: string) => {
    const res = await api.postForm(`${base(project)}/flat-file/loads`, owner, { file: { name, content }, table: "Customers" }, app);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await api.jobs.idle();
    return (await api.get(`${base(project)}/history/${res.body.load.id}`, owner)).body;
  };

  it("a load that fails removes the automatic backup it took (nothing changed), and the backups of loads that changed data stay", async () => {
    const project = await loadableProject();
    const app = api.appWith({ autoBackupsKept: 2 });
    const load = loaderOf(project, app);
    const first = await load("d1.csv", "CustomerId,Code\n1,A\n");
    const mine = (await done(await post(`${base(project)}/backups`, {}), project)).backup;
    // Refused for its rejected row, unreadable at its third row, and cut short by a cancel before it committed: each rolled back.
    const refused = await load("bad.csv", "CustomerId,Code\nx,B\n");
    const unreadable = await load("quote.csv", 'CustomerId,Code\n2,B\n3,Bob "Bobby" Brown\n');
    api.jobs.hooks = {
      beforeStep: async ({ jobId, name }) => {
        if (name.startsWith("Load")) expect((await post(`${base(project)}/jobs/${jobId}/cancel`, {})).status).toBe(200);
      },
    };
    const cancelled = await load("d2.csv", "CustomerId,Code\n2,B\n");
    api.jobs.hooks = {};
    expect([refused, unreadable, cancelled].map((d) => [d.entry.status, d.backup, d.undoBackup])).toEqual([
      ["Refused", null, null],
      ["Failed", null, null],
      ["Failed", null, null],
    ]);
    const last = await load("d3.csv", "CustomerId,Code\n3,C\n");
    // The first load's backup is still its Undo: the failed tries' backups did not push it out of the two kept.
    expect((await api.get(`${base(project)}/history/${first.entry.id}`, owner)).body.undoBackup).toMatchObject({ id: first.backup.id });
    const list = (await api.get(`${base(project)}/backups`, owner)).body.items;
    expect(list.map((b: any) => b.id)).toEqual([last.backup.id, mine.id, first.backup.id]);
    expect(fs.readdirSync(path.join(api.dataDir, "backups", project.id)).sort()).toEqual(list.map((b: any) => `${b.id}.backup.tar`).sort());
    expect(await rowsOf(project)).toEqual([[3, "C", null]]);
  });

  it("a load that committed stays Loaded when the older automatic backups cannot be removed after it", async () => {
    const project = await loadableProject();
    const app = api.appWith({ autoBackupsKept: 1 });
    const load = loaderOf(project, app);
    const first = await load("d1.csv", "CustomerId,Code\n1,A\n");
    // The first backup's file made a folder: removing it beyond the one kept fails (rm of a folder without recursive).
    const file = backupFile(project, first.backup.id);
    fs.rmSync(file);
    fs.mkdirSync(path.join(file, "held"), { recursive: true });
    const second = await load("d2.csv", "CustomerId,Code\n2,B\n");
    // The job succeeded and the entry and its table say the row was loaded (they said the job failed, the table 0 loaded).
    expect((await findJob(api.db, second.entry.jobId))?.status).toBe("SUCCESS");
    expect([second.entry.status, second.entry.rowsLoaded, second.entry.message]).toEqual(["Loaded", 1, null]);
    expect(second.entry.tables.map((t: any) => [t.table, t.rowsLoaded])).toEqual([["Customers", 1]]);
    expect(await rowsOf(project)).toEqual([[2, "B", null]]);
  });
});
