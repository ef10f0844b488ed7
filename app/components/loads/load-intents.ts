/** The intent of the button that adds a preview's extra file columns to their tables (databases-load.server.ts). */
export const ADD_COLUMNS_INTENT = "add-columns";
