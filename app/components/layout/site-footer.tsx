import type { Branding } from "../../../contracts/client-portal";

export function SiteFooter({ branding, version }: { branding: Branding; version: string | null }) {
  return (
    <footer className="flex flex-wrap items-center justify-between gap-2 border-t border-border bg-white px-4 py-2 text-xs text-muted-foreground">
      <span>{version ? `v${version}` : null}</span>{" "}
      {branding.termsAndConditions ? (
        <a className="underline underline-offset-2" href={branding.termsAndConditions} target="_blank" rel="noreferrer">
          Terms and Conditions
        </a>
      ) : null}
    </footer>
  );
}
