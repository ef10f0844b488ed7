import { useCallback, useRef } from "react";
import { useNavigation, useRevalidator } from "react-router";

/** What React Router is doing: a navigation (a link, a form's post and its redirect) and a revalidation. */
type RouterActivity = { navigation: "idle" | "loading" | "submitting"; revalidation: "idle" | "loading" };

/**
 * Whether a page's own refresh (a job's page following the job) may read its loaders again now: not
 * while the user is going somewhere, nor while a refresh is under way. React Router's revalidate()
 * during a navigation's load starts that load again, aborting the request the portal may already have
 * answered: each tick of a job's page delayed the page the user had asked for (forever, once it took
 * longer than a tick), and the message a post's redirect carried was lost, taken from its cookie by
 * the aborted request (flash.server.ts).
 */
export const mayRefresh = (now: RouterActivity): boolean => now.navigation === "idle" && now.revalidation === "idle";

/** Reads the page's loaders again when mayRefresh allows it, else lets this tick go (the next one comes). */
export function usePageRefresh(): () => void {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  // Read when a timer fires, not when the callback was made: the activity at that moment decides.
  const latest = useRef({ navigation: navigation.state, revalidator });
  latest.current = { navigation: navigation.state, revalidator };
  return useCallback(() => {
    const { navigation, revalidator } = latest.current;
    if (mayRefresh({ navigation, revalidation: revalidator.state })) void revalidator.revalidate();
  }, []);
}
