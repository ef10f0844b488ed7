import { Form } from "react-router";
import type { Branding } from "../../../contracts/client-portal";
import { Button } from "~/components/ui/button";
import { BrandLogo } from "./brand-logo";

export type HeaderUser = { name: string; roleLabel: string | null };

export function SiteHeader({ branding, user }: { branding: Branding; user: HeaderUser | null }) {
  return (
    <header className="flex h-14 items-center justify-between border-b border-border bg-white px-4">
      <div className="flex items-center gap-3">
        <BrandLogo branding={branding} />
        <span className="font-semibold">{branding.name}</span>
        <span className="hidden text-sm text-muted-foreground sm:inline">Data Transformation</span>
      </div>
      {user ? (
        <div className="flex items-center gap-4">
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
