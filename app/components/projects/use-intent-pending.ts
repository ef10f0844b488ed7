import { useNavigation } from "react-router";

/** True while this page posts the given `intent` (one page, several buttons: only the pressed one spins). */
export function useIntentPending(intent: string, match?: Record<string, string>) {
  const navigation = useNavigation();
  const formData = navigation.formData;
  if (navigation.state === "idle" || navigation.formMethod !== "POST" || !formData) return false;
  if (formData.get("intent") !== intent) return false;
  return Object.entries(match ?? {}).every(([k, v]) => formData.get(k) === v);
}
