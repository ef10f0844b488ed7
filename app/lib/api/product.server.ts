/** The product's own facts: the tenant branding (client portal) and the data API's product info (spec §1, §7). */
import { brandingSchema } from "../../../contracts/client-portal";
import { processFactsSchema, productDetailsSchema, productInfoSchema } from "../../../contracts/data-api";
import { callService, type Caller } from "../api.server";

/** GET /api/v1/branding on the client portal: public, no caller. */
export const getBranding = () => callService("client-portal", "/api/v1/branding", null, { schema: brandingSchema });

/** GET /api/v1/productInfo on the data API. */
export const getProductInfo = (as: Caller) => callService("data-api", "/api/v1/productInfo", as, { schema: productInfoSchema });

/** GET /api/v1/productInfo/details on the data API (SuperAdmin, Support): the product info page. */
export const getProductDetails = (as: Caller) => callService("data-api", "/api/v1/productInfo/details", as, { schema: productDetailsSchema });

/** GET /api/v1/productInfo on the client portal: its version, build, uptime and database. */
export const getClientPortalFacts = (as: Caller) => callService("client-portal", "/api/v1/productInfo", as, { schema: processFactsSchema });
