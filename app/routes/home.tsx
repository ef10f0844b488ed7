import { redirect } from "react-router";
import { getAuth, ProviderUnavailableError, signInUnavailable } from "~/lib/auth.server";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { loginPath } from "~/lib/safe-redirect";
import type { Route } from "./+types/home";

/** Spec §2: / goes to /migration/projects when signed in (keeping the company), else to /login. */
export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const authenticated = await getAuth(request).catch((err: unknown) => {
    throw err instanceof ProviderUnavailableError ? signInUnavailable(url.pathname + url.search) : err;
  });
  if (!authenticated) throw redirect(loginPath(url.pathname + url.search));
  throw redirect(companyHref("/migration/projects", url.searchParams.get(COMPANY_PARAM)));
}
