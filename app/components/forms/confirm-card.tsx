import type { ReactNode } from "react";
import { Form, Link, useLocation } from "react-router";
import { FormErrors } from "~/components/forms/fields";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getFormProps, useServerForm, type FieldMetadata, type FormResult } from "~/lib/forms";

/**
 * The confirmation of a destructive action, opened by a link that adds a search param (`?delete=`,
 * `?remove=`, `?revoke=`; useConfirmParam): the real submit is here, so one click never destroys
 * anything and it works without JavaScript. `fields` are posted with `intent`; `inputs` adds what the
 * user fills in (a reason), from the form's fields. A refusal of the post (`lastResult`: a stale
 * version, say) is said here, above the buttons, and at the fields it names.
 */
export function ConfirmCard({
  id,
  title,
  children,
  intent,
  fields,
  inputs,
  submitLabel,
  cancelHref,
  lastResult,
}: {
  id: string;
  title: string;
  children: ReactNode;
  intent: string;
  fields: Record<string, string | number>;
  inputs?: (fields: Record<string, FieldMetadata>) => ReactNode;
  submitLabel: string;
  cancelHref: string;
  lastResult?: FormResult | null;
}) {
  const pending = useIntentPending(intent);
  const [form, formFields] = useServerForm({ id, lastResult });
  const headingId = `${id}-heading`;
  return (
    <Card aria-labelledby={headingId} tone="destructive">
      <h2 id={headingId} className="text-base font-semibold">
        {title}
      </h2>
      <div className="mt-1 text-sm text-muted-foreground">{children}</div>
      <Form method="post" {...getFormProps(form)} aria-labelledby={headingId} className="mt-4 flex max-w-xl flex-col gap-3">
        <input type="hidden" name="intent" value={intent} />
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <FormErrors form={form} />
        {inputs?.(formFields)}
        <div className="flex flex-wrap items-center gap-2">
          <StatusButton type="submit" variant="destructive" pending={pending}>
            {submitLabel}
          </StatusButton>
          <Link to={cancelHref} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}

/**
 * The search param that opens a ConfirmCard: its value on this page, the link that opens it for
 * `value`, and the one that closes it; the page's other params (its company, its page) are kept.
 */
export function useConfirmParam(name: string) {
  const { pathname, search } = useLocation();
  const withValue = (value: string | null) => {
    const params = new URLSearchParams(search);
    if (value === null) params.delete(name);
    else params.set(name, value);
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  return { value: new URLSearchParams(search).get(name), openHref: (value: string) => withValue(value), cancelHref: withValue(null) };
}
