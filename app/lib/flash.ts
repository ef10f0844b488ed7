/**
 * A flash message: one short sentence that the page after a write shows once ("Table CUSTOMER
 * saved."). Set by an action's redirect (flash.server.ts), shown by the shell (FlashRegion).
 */
export type FlashKind = "success" | "error";

export type FlashMessage = { kind: FlashKind; text: string };

/** What `redirectWithFlash` takes: the text alone is a success. */
export type FlashInput = string | { kind?: FlashKind; text: string };
