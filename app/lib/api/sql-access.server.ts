/** The data API's SQL access, audit and webhook endpoints (issue 13): Additional Options' pages call these. */
import { z } from "zod";
import {
  auditPageSchema,
  issuedSqlCredentialSchema,
  sqlCredentialPageSchema,
  sqlCredentialSchema,
  type auditQuerySchema,
  type createSqlCredentialSchema,
  type sqlCredentialQuerySchema,
} from "../../../contracts/sql-access";
import { createdWebhookSchema, deliverySchema, webhookListSchema, type createWebhookSchema } from "../../../contracts/notifications";
import { callService, callServiceStream, type Caller } from "../api.server";

const enc = encodeURIComponent;

export function sqlAccessApi(as: Caller) {
  return {
    credentials: (query: z.output<typeof sqlCredentialQuerySchema>) =>
      callService("data-api", "/api/v1/sql-credentials", as, { schema: sqlCredentialPageSchema, query }),
    credential: (id: string, companyId: string) =>
      callService("data-api", `/api/v1/sql-credentials/${enc(id)}`, as, { query: { companyId }, schema: z.object({ credential: sqlCredentialSchema }) }),
    create: (body: z.input<typeof createSqlCredentialSchema>) =>
      callService("data-api", "/api/v1/sql-credentials", as, { method: "POST", body, schema: issuedSqlCredentialSchema }),
    // The page's company goes with an id: another company's credential or webhook is not found from it.
    rotate: (id: string, companyId: string, passwordSetAt?: string) =>
      callService("data-api", `/api/v1/sql-credentials/${enc(id)}/rotate`, as, {
        method: "POST",
        query: passwordSetAt ? { companyId, passwordSetAt } : { companyId },
        schema: issuedSqlCredentialSchema,
      }),
    revoke: (id: string, companyId: string, reason: string | null) =>
      callService("data-api", `/api/v1/sql-credentials/${enc(id)}/revoke`, as, {
        method: "POST",
        query: { companyId },
        body: { reason },
        schema: z.object({ credential: sqlCredentialSchema }),
      }),
    audit: (query: Partial<z.output<typeof auditQuerySchema>>) => callService("data-api", "/api/v1/audit-log", as, { schema: auditPageSchema, query }),
    webhooks: (companyId: string) => callService("data-api", "/api/v1/webhooks", as, { schema: webhookListSchema, query: { companyId } }),
    addWebhook: (body: z.input<typeof createWebhookSchema>) => callService("data-api", "/api/v1/webhooks", as, { method: "POST", body, schema: createdWebhookSchema }),
    removeWebhook: (id: string, companyId: string) =>
      callService("data-api", `/api/v1/webhooks/${enc(id)}`, as, { method: "DELETE", query: { companyId }, schema: z.unknown() }),
    testWebhook: (id: string, companyId: string) =>
      callService("data-api", `/api/v1/webhooks/${enc(id)}/test`, as, { method: "POST", query: { companyId }, schema: deliverySchema }),
    /** The CSV export, streamed through. */
    auditCsv: (query: Record<string, string | undefined>) => {
      const search = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => Boolean(e[1])));
      return callServiceStream("data-api", `/api/v1/audit-log.csv?${search}`, as);
    },
  };
}
