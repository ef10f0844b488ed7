/**
 * The script editor once JavaScript runs (issue 11): CodeMirror 6 with PostgreSQL highlighting, line
 * numbers, undo history and bracket matching. Loaded on demand by SqlField after hydration, so it adds
 * nothing to any page's initial JavaScript; the plain textarea works without it.
 */
import { sql, PostgreSQL } from "@codemirror/lang-sql";
import { basicSetup, EditorView } from "codemirror";

export function createSqlEditor(
  parent: HTMLElement,
  options: { doc: string; labelledBy: string; describedBy: string | undefined; invalid: boolean; onChange: (value: string) => void },
): { destroy: () => void; setDoc: (doc: string) => void; focus: () => void } {
  const view = new EditorView({
    doc: options.doc,
    parent,
    extensions: [
      basicSetup,
      sql({ dialect: PostgreSQL }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) options.onChange(update.state.doc.toString());
      }),
      // The editable area is the field: named by the field's label, described by its hint and errors.
      EditorView.contentAttributes.of({
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": options.labelledBy,
        ...(options.describedBy ? { "aria-describedby": options.describedBy } : {}),
        ...(options.invalid ? { "aria-invalid": "true" } : {}),
        spellcheck: "false",
      }),
      EditorView.theme({
        "&": { fontSize: "13px", border: "1px solid var(--color-border)", borderRadius: "0.375rem" },
        // The portal's focus ring (app.css, :focus-visible), where CodeMirror's own is a thin dotted line
        // that a keyboard user hardly sees; the editor is always typed into, so any focus shows it.
        "&.cm-focused": { outline: "2px solid var(--color-brand)", outlineOffset: "2px" },
        ".cm-content": { minHeight: "20rem" },
      }),
    ],
  });
  return {
    destroy: () => view.destroy(),
    setDoc: (doc: string) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } }),
    focus: () => view.focus(),
  };
}
