/**
 * The wizard's dictionary step's sentences, in its loader's answer rather than in the page's code (issue 8's initial JS bar:
 * 0.2 KiB gzip on the step's first load; a server module, so no page's code can hold them): the introduction, in two parts around the link to a dictionary file's upload where the workspace has
 * one (a mapping project's step describes files instead), what assigning a master dictionary does, why Continue waits,
 * and whom to ask for a master dictionary when the user's role does not open their list.
 */
export function stepWords(mapping: boolean, noun: string, applicationName: string, createsDatabases: boolean, tableCount: number) {
  return {
    intro: mapping
      ? [
          `Describe the client's files: one table per file, with its columns in the file's order. Copy a master dictionary of ${applicationName}, or define the tables here. Every table needs at least one column.`,
        ]
      : [
          `Give the ${noun} its own data dictionary: copy a master dictionary of ${applicationName}, `,
          ` (one row per column, reviewed before it is applied), or define the tables and columns here. Every table needs at least one column before the databases can be created${createsDatabases ? "; then create them here" : ""}.`,
        ],
    assignReplaces: `Assigning a dictionary replaces the ${noun}'s current tables with a copy of its tables.`,
    continueWhy: tableCount === 0 ? "Assign a dictionary or define a table first." : "Every table needs at least one column.",
    askForMaster: "An analyst can add one under Migrations → Data Dictionary; meanwhile, define the tables here.",
  };
}
