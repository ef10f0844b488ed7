/**
 * The page of a route whose loader only redirects (a breadcrumb's link such as /migration/projects/{id}).
 * It is never shown; having one makes the route a page rather than a resource route, so a refusal
 * (another company's or an unknown id: 404) shows the portal's error page instead of the loader's JSON.
 */
export default function RedirectOnly() {
  return null;
}
