import { useEffect, useRef } from "react";
/** The "name contains" box of a list's GET search form (`name`); `maxLength`: the longest name the list holds. */
export function SearchField({
  id,
  label,
  value,
  placeholder = "Name contains…",
  maxLength = 100,
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  maxLength?: number;
}) {
  const box = useRef<HTMLInputElement>(null);
  const shown = useRef(value);
  // The box is uncontrolled (it works without JavaScript): with JavaScript a client navigation keeps its text, so when the URL's
  // search changes under it (Clear filters, Back) it is set to the URL's. Not remounted: focus stays in the box after Enter.
  // Only a change of the URL's search sets it: what was typed before the page's scripts ran (hydration) is the user's.
  useEffect(() => {
    if (shown.current === value) return;
    shown.current = value;
    if (box.current) box.current.value = value;
  }, [value]);
  return (
    // 16rem where the row has room; alone on its line, and no wider than it, where it has not (a phone).
    <div className="min-w-0 grow basis-64">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        ref={box}
        id={id}
        type="search"
        name="name"
        defaultValue={value}
        maxLength={maxLength}
        placeholder={placeholder}
        className="w-full rounded-md border border-border bg-white px-3 py-2 text-sm shadow-xs"
      />
    </div>
  );
}
