import { createContext, useContext } from "react";

/**
 * The CSP nonce of the HTML response being rendered (entry.server.tsx makes one per request and
 * sends it in the Content-Security-Policy). On the server every inline script carries it; in the
 * browser there is none (the scripts already ran; React Router's keep suppressHydrationWarning).
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce() {
  return useContext(NonceContext);
}
