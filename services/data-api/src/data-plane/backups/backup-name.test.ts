import { describe, expect, it } from "vitest";
import { backupName } from "./backup-jobs.ts";

const at = new Date("2026-11-30T11:04:53.120Z");

describe("a backup's name", () => {
  it("is the workspace's name and when, to the second, in UTC", () => {
    expect(backupName("ERP customer migration", at)).toBe("ERP-customer-migration-2026-11-30-110453.backup.tar");
  });

  it("keeps an accented letter without its accent, rather than dropping it", () => {
    expect(backupName("Données clients Zürich", at)).toBe("Donnees-clients-Zurich-2026-11-30-110453.backup.tar");
    expect(backupName("Ünïcode <b>&amp; test", at)).toBe("Unicode-b-amp-test-2026-11-30-110453.backup.tar");
  });

  it("is named backup when the name has no letter or digit it can keep", () => {
    expect(backupName("東京 ★", at)).toBe("backup-2026-11-30-110453.backup.tar");
  });
});
