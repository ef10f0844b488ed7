import { useLocation } from "react-router";
import { lazyWidget } from "~/lib/lazy-widget";

/**
 * The confirmation of a destructive action (confirm-card-body.tsx), shown once a link that adds its
 * search param is followed: loaded on demand, rendered by the server like the rest (decision 029).
 */
export const ConfirmCard = lazyWidget(() => import("./confirm-card-body").then((m) => m.ConfirmCard));

/**
 * The search param that opens a ConfirmCard: its value on this page, the link that opens it for
 * `value`, and the one that closes it; the page's other params (its company, its page) are kept.
 */
export function useConfirmParam(name: string) {
  const { pathname, search } = useLocation();
  const withValue = (value: string | null) => {
    const params = new URLSearchParams(search);
    if (value === null) params.delete(name);
    else params.set(name, value);
    const query = params.toString();
    return query ? `${pathname}?${query}` : pathname;
  };
  return { value: new URLSearchParams(search).get(name), openHref: (value: string) => withValue(value), cancelHref: withValue(null) };
}
