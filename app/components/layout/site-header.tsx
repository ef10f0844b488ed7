import { Building2 } from "lucide-react";
import { Form } from "react-router";
import type { Branding } from "../../../contracts/client-portal";
import { Button } from "~/components/ui/button";
import { BrandLogo } from "./brand-logo";

export type HeaderUser = {
  name: string;
  roleLabel: string | null;
  /** The selected company, inside the shell: named here at every width, since the collapsed sidebar's picker cannot show it. */
  company: string | null;
};

export function SiteHeader({ branding, user }: { branding: Branding; user: HeaderUser | null }) {
  return (
    <header className="flex h-14 items-center justify-between border-b border-border bg-white px-4">
      <div className="flex items-center gap-3">
        <BrandLogo branding={branding} />
        <span className="font-semibold">{branding.name}</span>
        <span className="hidden text-sm text-muted-foreground sm:inline">Data Transformation</span>
      </div>
      {user ? (
        <div className="flex min-w-0 items-center gap-4">
          {user.company ? (
            <p className="flex min-w-0 items-center gap-2 border-r border-border pr-4 text-sm leading-tight">
              <Building2 aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
              <span className="min-w-0">
                <span className="block text-muted-foreground">
                  Company<span className="sr-only">:</span>
                </span>
                <span className="block truncate font-medium">{user.company}</span>
              </span>
            </p>
          ) : null}
          <p className="text-right text-sm leading-tight">
            <span className="block font-medium" data-testid="user-name">
              {user.name}
            </span>
            {user.roleLabel ? <span className="block text-muted-foreground">{user.roleLabel}</span> : null}
          </p>
          <Form method="post" action="/logout" reloadDocument>
            <Button type="submit" variant="outline" size="sm">
              Log out
            </Button>
          </Form>
        </div>
      ) : null}
    </header>
  );
}
