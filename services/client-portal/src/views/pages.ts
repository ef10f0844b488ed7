import { html, raw } from "hono/html";
import type { Branding } from "../../../../contracts/client-portal.ts";
import { layout } from "./layout.ts";

/** A problem the user can act on: what happened, and a way back to the product. */
export function messagePage(options: { branding: Branding; title: string; message: string; backUrl: string; backLabel?: string }) {
  return layout({
    title: options.title,
    branding: options.branding,
    body: html`
      <h2>${options.title}</h2>
      <p>${options.message}</p>
      <p class="secondary"><a class="button" href="${options.backUrl}">${options.backLabel ?? "Back to Data Transformation"}</a></p>
    `,
  });
}

/**
 * The logout confirmation. `providerForm` is the provider's own form (its action and anti-forgery
 * field); our button submits it with logout=yes, which ends the whole session at this provider.
 * Without JavaScript the user presses "Log out"; with it, a request from our registered portal
 * submits itself, because the user already chose "Log out" there.
 */
export function logoutPage(options: { branding: Branding; providerForm: string; autoSubmit: boolean; portalUrl: string }) {
  return layout({
    title: "Log out",
    branding: options.branding,
    body: html`
      <h2>Log out</h2>
      <p>Do you want to log out of ${options.branding.name}?</p>
      ${raw(options.providerForm)}
      <button id="logout" type="submit" form="op.logoutForm" name="logout" value="yes">Log out</button>
      <p class="secondary"><a href="${options.portalUrl}">Stay signed in</a></p>
      ${options.autoSubmit ? html`<script>document.getElementById("logout").click()</script>` : ""}
    `,
  });
}

export function loggedOutPage(options: { branding: Branding; portalUrl: string }) {
  return messagePage({
    branding: options.branding,
    title: "You have logged out",
    message: "You are no longer signed in.",
    backUrl: options.portalUrl,
    backLabel: "Sign in again",
  });
}

export function dashboardPage(options: { branding: Branding; portalUrl: string }) {
  return layout({
    title: "All products",
    branding: options.branding,
    wide: true,
    body: html`
      <h2>All products</h2>
      <ul class="products">
        <li><a href="${options.portalUrl}/"><strong>Data Transformation</strong>
          Data migration projects, translation mappings and data onboarding.</a></li>
      </ul>
    `,
  });
}
