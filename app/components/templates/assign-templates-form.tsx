import { Form } from "react-router";
import type { TemplateSummary } from "../../../contracts/templates";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { RefusalAlert } from "~/components/forms/fields";

/**
 * "Assign templates": the area's Available master templates as checkboxes (one repeated field,
 * `templateIds`), and the button. Used by a workspace's assigned/add page and by its wizard's last
 * step. Each chosen template is copied into the workspace with its levels and scripts.
 */
export function AssignTemplatesForm({ templates, errors, noun }: { templates: readonly TemplateSummary[]; errors: readonly string[]; noun: string }) {
  const pending = useIntentPending("assign");
  if (templates.length === 0)
    return (
      <p className="text-sm">
        No Available master template is left to assign. Make one available on the Master Templates page (a Draft template cannot be assigned yet), or create a
        template in this {noun}.
      </p>
    );
  return (
    <Form method="post" className="flex flex-col gap-4">
      <input type="hidden" name="intent" value="assign" />
      {errors.length ? <RefusalAlert refusal={errors}>{errors.join(" ")}</RefusalAlert> : null}
      <fieldset>
        <legend className="text-sm font-medium">Available master templates</legend>
        <ul className="mt-2 flex flex-col gap-2">
          {templates.map((t) => (
            <li key={t.id}>
              <label className="flex items-start gap-2 text-sm">
                <input type="checkbox" name="templateIds" value={t.id} className="mt-0.5 size-4 accent-brand" />
                <span>
                  <span className="font-medium">{t.name}</span> · {t.type}, {t.levelCount} {t.levelCount === 1 ? "level" : "levels"}, {t.scriptCount}{" "}
                  {t.scriptCount === 1 ? "script" : "scripts"}
                  {t.description ? <span className="block text-xs text-muted-foreground">{t.description}</span> : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div>
        <StatusButton type="submit" pending={pending}>
          Assign templates
        </StatusButton>
      </div>
    </Form>
  );
}
