import { useEffect, useRef, useState, type ReactNode } from "react";
import { Form, Link, useNavigate } from "react-router";
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
 *
 * Opened, it takes the focus on its heading (autofocus, which a page without JavaScript honours too): the
 * link that opened it may sit far below it, and a keyboard or screen reader user was left there, not told
 * that anything had opened. With JavaScript, Escape closes it as Cancel does, and closing it (Escape,
 * Cancel) gives the focus back to what had it when it opened.
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
  const navigate = useNavigate();
  // What had the focus as the card opened (the link that opened it), read before the heading takes it.
  const [opener] = useState(() => (typeof document === "undefined" ? null : document.activeElement));
  const heading = useRef<HTMLHeadingElement>(null);
  // React autofocuses form controls only: opened by a client navigation, the heading is focused here.
  useEffect(() => {
    if (!lastResult) heading.current?.focus();
    // Once, as it opens: a later refusal's message takes the focus itself.
  }, []);
  useEffect(
    () => () => {
      // Closed: the focus, gone with the card, goes back to the opener when it is still on the page.
      const active = document.activeElement;
      if (opener instanceof HTMLElement && opener.isConnected && (!active || active === document.body)) opener.focus();
    },
    [opener],
  );
  return (
    <Card
      aria-labelledby={headingId}
      tone="destructive"
      onKeyDown={(event) => {
        if (event.key !== "Escape") return;
        event.preventDefault();
        void navigate(cancelHref, { preventScrollReset: true });
      }}
    >
      {/* Not when a refused post comes back: its message takes the focus (FormErrors). */}
      <h2 ref={heading} id={headingId} tabIndex={-1} autoFocus={!lastResult || undefined} className="text-base font-semibold">
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
          </StatusButton>{" "}
          <Link to={cancelHref} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}
