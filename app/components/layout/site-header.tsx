import { Icon } from "~/components/ui/icon";
import { Form } from "react-router";
import type { Branding } from "../../../contracts/client-portal";
import { Button } from "~/components/ui/button";
import { TextSeparator } from "~/components/ui/text-separator";
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
      {/* On a phone's width the signed-in header keeps the logo, the company and Log out: the rest gives way. */}
      <div className="flex shrink-0 items-center gap-3">
        <BrandLogo branding={branding} />{" "}
        <span className={user ? "hidden font-semibold sm:inline" : "font-semibold"}>{branding.name}</span>
        <TextSeparator />
        <span className="hidden text-sm text-muted-foreground sm:inline">Data Transformation</span>
      </div>{" "}
      {user ? (
        <div className="flex min-w-0 items-center gap-4">
          {/* Blocks, so that text browsers break the lines too; the spaces keep them apart in the text. */}
          {user.company ? (
            <div className="flex min-w-0 items-center gap-2 border-r border-border pr-4 text-sm leading-tight">
              <Icon name="building-2" className="size-4 shrink-0 text-muted-foreground" />
              <div className="min-w-0">
                <div className="text-muted-foreground">
                  Company<span className="sr-only">:</span>
                </div>{" "}
                <div className="truncate font-medium">{user.company}</div>
              </div>
            </div>
          ) : null}{" "}
          <div className="hidden text-right text-sm leading-tight sm:block">
            <div className="font-medium" data-testid="user-name">
              {user.name}
            </div>{" "}
            {user.roleLabel ? <div className="text-muted-foreground">{user.roleLabel}</div> : null}
          </div>{" "}
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
