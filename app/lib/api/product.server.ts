/** The product's own facts: the tenant branding (client portal) and the data API's product info (spec §1, §7). */
import { brandingSchema } from "../../../contracts/client-portal";
import { productInfoSchema } from "../../../contracts/data-api";
import { callService, type Caller } from "../api.server";

/** GET /api/v1/branding on the client portal: public, no caller. */
export const getBranding = () => callService("client-portal", "/api/v1/branding", null, { schema: brandingSchema });

/** GET /api/v1/productInfo on the data API. */
export const getProductInfo = (as: Caller) => callService("data-api", "/api/v1/productInfo", as, { schema: productInfoSchema });
