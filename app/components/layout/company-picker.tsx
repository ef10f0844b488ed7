import { Icon } from "~/components/ui/icon";
import { useEffect, useRef, useState } from "react";
import { Form, useLocation, useMatches, useSubmit } from "react-router";
import type { Company } from "../../../contracts/data-api";
import { COMPANY_PARAM } from "~/lib/company-href";
import { cn } from "~/lib/utils";

/**
 * A route's `handle.companySwitchTo`: where switching company goes from its pages. Entity pages (a
 * project, a dictionary) belong to one company, so a switch goes to their list instead. The outermost
 * entity's says: what is nested in it (a project's template, its scripts) is of the same company, and
 * a page of the project in the other company is not found.
 */
export type CompanySwitchHandle = { companySwitchTo?: string | ((pathname: string) => string) };

/**
 * The company scope (spec §1). A GET form: without JavaScript the user picks and presses "Switch";
 * with it, choosing with the pointer is enough and the button steps aside. A closed select changes
 * on every arrow key, so a keyboard choice waits for Enter or the button, which comes back for it:
 * otherwise a keyboard user passing Birch on the way to Cedar would land in Birch, losing the page.
 * In the collapsed rail the company's initials stand in a badge with the select laid over it,
 * invisible (app.css): a select as narrow as the rail showed "Ac…". The select is still what is
 * clicked and focused, named "Company" with the company's name as its value and its title. "Switch"
 * is an icon under it (its name stays); the header names the company.
 */
export function CompanyPicker({ companies, company }: { companies: Company[]; company: Company | null }) {
  const submit = useSubmit();
  const location = useLocation();
  const matches = useMatches();
  const switchTo =
    matches
      .map((m) => (m.handle as CompanySwitchHandle | undefined)?.companySwitchTo)
      .map((to) => (typeof to === "function" ? to(location.pathname) : to))
      .find(Boolean) ?? location.pathname;
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // The last input was a key (not a pointer), and a choice made with keys waits to be confirmed.
  const byKeyboard = useRef(false);
  const [keyboardChoice, setKeyboardChoice] = useState(false);
  const buttonHidden = hydrated && !keyboardChoice;

  return (
    <Form method="get" action={switchTo} className="flex flex-col gap-1">
      <label htmlFor="company-picker" className="sidebar-label text-xs font-medium text-muted-foreground">
        Company
      </label>
      <div className="flex flex-wrap gap-1">
        <div className="company-field relative min-w-0 flex-1 basis-24">
          {company ? (
            <span
              aria-hidden="true"
              className="company-badge h-9 items-center justify-center rounded-md border border-border bg-brand/10 text-sm font-semibold text-brand"
            >
              {initials(company.name)}
            </span>
          ) : null}
          <select
            id="company-picker"
            name={COMPANY_PARAM}
            defaultValue={company?.id}
            key={company?.id}
            onKeyDown={(e) => {
              byKeyboard.current = true;
              if (e.key === "Enter" && keyboardChoice) {
                e.preventDefault();
                submit(e.currentTarget.form);
              }
            }}
            onPointerDown={() => (byKeyboard.current = false)}
            onChange={(e) => (byKeyboard.current ? setKeyboardChoice(true) : submit(e.currentTarget.form))}
            title={company ? `Company: ${company.name}` : undefined}
            className="h-9 w-full rounded-md border border-border bg-white px-2 text-sm"
          >
            {companies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>{" "}
        <button
          type="submit"
          className={cn("inline-flex h-9 items-center gap-1 rounded-md border border-border px-2 text-xs hover:bg-muted", buttonHidden && "sr-only")}
          tabIndex={buttonHidden ? -1 : undefined}
        >
          <Icon name="arrow-right" className="size-4 shrink-0" />
          <span className="sidebar-label">Switch</span>
        </button>
      </div>
    </Form>
  );
}

/** What fits the collapsed rail: the first letters of the first two words ("Acme Health": AH), or a one-word name's first two. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? words.slice(0, 2).map((w) => [...w][0]) : [...(words[0] ?? "")].slice(0, 2);
  return letters.join("").toUpperCase();
}
