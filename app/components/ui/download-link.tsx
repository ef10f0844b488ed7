import { Link, type LinkProps } from "react-router";

/**
 * A link to one of the portal's download routes (downloads.server.ts): a document request
 * (reloadDocument: no client-side navigation), and no `download` attribute. The route's good answer
 * says Content-Disposition: attachment with the file's name, so the browser saves it as that file; a
 * refusal (a 303 back to the page with its message, the Not found page) is a page, and is shown as one.
 * With `download`, the browser saved that page's HTML as the file.
 */
export function DownloadLink(props: Omit<LinkProps, "reloadDocument">) {
  return <Link {...props} reloadDocument />;
}
