/** A table's rows page (GET …/databases/{kind}/tables/{table}/rows): its limits, Zod-free for the browser (the page's Contains field). */

/** The most its search holds (its Contains), its column's name and its sort (a column, "-" first). */
export const ROWS_CONTAINS_MAX = 200;
export const ROWS_COLUMN_MAX = 128;
export const ROWS_SORT_MAX = 130;
