import type { Branding } from "../../../contracts/client-portal";

/** The tenant's logo, or the default mark when none is set (spec §1). */
export function BrandLogo({ branding, className }: { branding: Branding; className?: string }) {
  if (branding.logoUrl) return <img src={branding.logoUrl} alt={`${branding.name} logo`} className={className ?? "h-8 w-auto"} />;
  return (
    <svg viewBox="0 0 32 32" role="img" aria-label={`${branding.name} logo`} className={className ?? "h-8 w-8"}>
      <rect width="32" height="32" rx="7" fill="currentColor" className="text-brand" />
      <path d="M9 11h14M9 16h9M9 21h12" stroke="white" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}
