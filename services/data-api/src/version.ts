/** The product version the data API answers (productInfo): the root package.json's (services/shared/product-facts.ts). */
export { readProductVersion } from "../../shared/product-facts.ts";
