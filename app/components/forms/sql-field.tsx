import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { getTextareaProps } from "~/lib/forms";
import { cn } from "~/lib/utils";
import { control, Description, ErrorList, type BaseProps } from "./fields";

// Its own module (not fields.tsx): only the script pages carry its code, and the editor itself is a
// chunk of its own, loaded after hydration.
/**
 * SQL, as a script's editor: a monospaced textarea that keeps tabs and never spell-checks, and once
 * JavaScript runs, CodeMirror (sql-editor.client.ts, loaded on demand) in its place, named by the same
 * label, its text sent in a hidden field of the same name. A syntax error comes back next to it with
 * its line and column. Remounted when the field's initial value changes (a save's new version).
 */
export function SqlField(props: BaseProps & Omit<React.ComponentProps<"textarea">, "name" | "id">) {
  return <SqlFieldControl key={String(props.field.initialValue ?? "")} {...props} />;
}

function SqlFieldControl({ label, field, description, className, ...rest }: BaseProps & Omit<React.ComponentProps<"textarea">, "name" | "id">) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  const [value, setValue] = useState("");
  const labelId = `${field.id}-label`;
  const describedBy = [description ? field.descriptionId : null, field.errors?.length ? field.errorId : null].filter(Boolean).join(" ") || undefined;
  const invalid = Boolean(field.errors?.length);
  useEffect(() => {
    let editor: { destroy: () => void; setDoc: (doc: string) => void; focus: () => void } | null = null;
    let cancelled = false;
    const area = textarea.current;
    // Until the textarea is gone, what is typed in it goes on in the editor: nothing typed meanwhile is lost.
    const follow = () => editor?.setDoc(area?.value ?? "");
    // Nor the focus: a refused save focuses the field with the error (useServerForm), which may be the
    // textarea the editor is about to replace; removed with it, focus would fall back to <body>.
    const passFocus = () => editor?.focus();
    void import("./sql-editor.client").then(({ createSqlEditor }) => {
      if (cancelled || !host.current) return;
      const doc = area?.value ?? "";
      editor = createSqlEditor(host.current, { doc, labelledBy: labelId, describedBy, invalid, onChange: setValue });
      // Shown now rather than at the next render (setEnhanced): a hidden editor cannot take the focus.
      host.current.hidden = false;
      area?.addEventListener("input", follow);
      area?.addEventListener("focus", passFocus);
      if (area && area.ownerDocument.activeElement === area) passFocus();
      setValue(doc);
      setEnhanced(true);
    });
    return () => {
      cancelled = true;
      area?.removeEventListener("input", follow);
      area?.removeEventListener("focus", passFocus);
      editor?.destroy();
    };
    // Made once per mount (SqlField remounts on a new initial value): the editor keeps its own text.
  }, []);
  return (
    <div className={className}>
      <label id={labelId} htmlFor={enhanced ? undefined : field.id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {enhanced ? <input type="hidden" name={field.name} form={field.formId} value={value} /> : null}
      <div ref={host} hidden={!enhanced} />
      {enhanced ? null : (
        <textarea
          ref={textarea}
          {...getTextareaProps(field, { ariaDescribedBy: description ? field.descriptionId : undefined })}
          rows={16}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          wrap="off"
          {...rest}
          className={cn(control, "font-mono text-[13px] leading-5")}
        />
      )}
      <Description id={field.descriptionId}>{description}</Description>
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}
