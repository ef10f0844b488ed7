import { html } from "hono/html";
import type { Branding } from "../../../../contracts/client-portal.ts";
import { layout } from "./layout.ts";

export type SignInView = {
  branding: Branding;
  /** Where the form posts: the interaction's own login URL. */
  action: string;
  email?: string;
  /** Shown in an alert above the form: the generic failure or the rate-limit message. */
  error?: string;
};

export function signInPage(view: SignInView) {
  const invalid = Boolean(view.error);
  const describedBy = invalid ? "sign-in-error" : undefined;
  return layout({
    title: "Sign in",
    branding: view.branding,
    lead: "Sign in to continue.",
    body: html`
      ${view.error ? html`<div id="sign-in-error" class="alert" role="alert">${view.error}</div>` : ""}
      <form method="post" action="${view.action}">
        <div>
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required
            value="${view.email ?? ""}" ${invalid ? html`aria-invalid="true" aria-describedby="${describedBy}"` : ""}
            ${view.email ? "" : html`autofocus`}>
        </div>
        <div>
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required
            ${invalid ? html`aria-invalid="true" aria-describedby="${describedBy}"` : ""}
            ${view.email ? html`autofocus` : ""}>
        </div>
        <button type="submit">Sign in</button>
      </form>
      ${view.branding.termsAndConditions ? html`<p class="terms">${view.branding.termsAndConditions}</p>` : ""}
    `,
  });
}
