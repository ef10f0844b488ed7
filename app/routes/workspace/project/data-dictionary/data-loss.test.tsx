/**
 * A dictionary write refused because it deletes data from the databases: the confirmation at the top of the
 * page and the form's error say what else the user may do, in the words of the write refused. The bulk
 * update's review and a table's deletion have no form to change, which is what both once said.
 */
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DataLossCard } from "~/components/dictionary/data-loss-card";
import type { DataLoss } from "~/components/dictionary/data-loss";
import { renderPage } from "~/test/render-page";
import { refusedWrite, type DataLossWrite } from "./dictionary.server";

const refusal = data(
  { code: "data_loss", errors: ["This change deletes data", "Dropping table Customers deletes 62 rows in the source database"] },
  { status: 409 },
);

const valueMapRefusal = data(
  { code: "value_map_loss", errors: ["This change deletes value maps", "The value map of employees.grade: 2 source values, 1 mapped"] },
  { status: 409 },
);

function refused(write: DataLossWrite, answer409 = refusal) {
  const formData = new FormData();
  formData.set("tableId", "t1");
  const submission = parseWithZod(formData, { schema: z.object({ tableId: z.string() }) });
  const answer = refusedWrite(submission, answer409, formData, write) as unknown as {
    data: { dataLoss: DataLoss; result: { error: Record<string, string[]> } };
  };
  const here = "/migration/projects/p1/data-dictionary/data-definition/tables";
  const Card = () => <DataLossCard dataLoss={answer.data.dataLoss} backUpHref="/migration/projects/p1/databases/current" />;
  const card = renderPage(here, here, Card as never, {})
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
  return { card, formError: answer.data.result.error[""] };
}

describe("a dictionary write refused for the data it deletes", () => {
  it("says, in the confirmation and in the form, what else fits the write: change the table, cancel its deletion, discard the upload", () => {
    const save = refused("save");
    expect(save.card).toContain("Apply and delete this data Or change the form below and save again.");
    expect(save.formError).toEqual(["Nothing was saved: this change deletes data from the databases. Confirm it at the top of the page, or change it."]);

    const deletion = refused("delete");
    expect(deletion.card).toContain("Dropping table Customers deletes 62 rows in the source database");
    expect(deletion.card).toContain("Apply and delete this data Or keep the table: Cancel below.");
    expect(deletion.card).not.toContain("change the form");
    expect(deletion.formError).toEqual(["Nothing was saved: this change deletes data from the databases. Confirm it at the top of the page, or cancel."]);

    const apply = refused("apply");
    expect(apply.card).toContain("Apply and delete this data Or discard this upload below, or upload a corrected file.");
    expect(apply.card).not.toContain("change the form");
    expect(apply.formError).toEqual([
      "Nothing was saved: this change deletes data from the databases. Confirm it at the top of the page, or discard the upload.",
    ]);
  });

  it("says a mapping project's change deletes value maps, lists them, and offers no backup of databases it has none of", () => {
    const deletion = refused("delete", valueMapRefusal);
    expect(deletion.card).toContain(
      "This change deletes value maps Nothing has changed yet. Applying it deletes: The value map of employees.grade: 2 source values, 1 mapped",
    );
    expect(deletion.card).toContain("To keep a copy of a map, export it as CSV from its page first, then apply.");
    expect(deletion.card).toContain("Apply and delete these value maps Or keep the table: Cancel below.");
    expect(deletion.card).not.toContain("databases");
    expect(deletion.formError).toEqual(["Nothing was saved: this change deletes value maps. Confirm it at the top of the page, or cancel."]);
  });
});
