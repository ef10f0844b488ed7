import { createContext, useContext } from "react";

/**
 * The reference id of an unexpected server error, logged with the error on the server and shown
 * on the error page, so a user's report can be matched to the log line.
 */
export const ErrorReferenceContext = createContext<string | null>(null);

export function useErrorReference() {
  return useContext(ErrorReferenceContext);
}
