import { Form, Link } from "react-router";
import { CONFIRM_DATA_LOSS_PARAM } from "../../../contracts/values/dictionary";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import type { DataLoss } from "./data-loss";

/**
 * At the top of a dictionary page whose save was refused because it deletes data from the databases
 * (decision 017), or a mapping project's value maps: the list of what would go, and "Apply and delete this data", which posts the same
 * form again with the confirmation. A form of its own with the posted fields, so it works without
 * JavaScript and whatever form the page holds. Shown by DataLossConfirmation, loaded on demand.
 */
export function DataLossCard({ dataLoss, backUpHref }: { dataLoss: DataLoss; backUpHref: string }) {
  const pending = useIsPending();
  return (
    <Card tone="destructive" aria-labelledby="data-loss-heading">
      <h2 id="data-loss-heading" className="text-base font-semibold">
        {dataLoss.valueMaps ? "This change deletes value maps" : "This change deletes data from the databases"}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">Nothing has changed yet. Applying it deletes:</p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {dataLoss.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {/* A dictionary change takes no automatic backup (a load or a restore does): without one, nothing brings this data back. */}
      {dataLoss.valueMaps ? (
        <p className="mt-2 text-sm">This cannot be undone. To keep a copy of a map, export it as CSV from its page first, then apply.</p>
      ) : (
        <p className="mt-2 text-sm">
          This cannot be undone: a change of the dictionary takes no backup. To keep a copy of this data,{" "}
          <Link to={backUpHref} className="text-brand underline underline-offset-2">
            back up the databases
          </Link>{" "}
          first, then apply.
        </p>
      )}
      <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
        {dataLoss.resubmit.map(([name, value], index) => (
          <input key={`${index}-${name}`} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={CONFIRM_DATA_LOSS_PARAM} value="true" />
        <StatusButton type="submit" variant="destructive" pending={pending}>
          {dataLoss.valueMaps ? "Apply and delete these value maps" : "Apply and delete this data"}
        </StatusButton>
        <p className="text-sm text-muted-foreground">{dataLoss.instead}</p>
      </Form>
    </Card>
  );
}
