import { cn } from "~/lib/utils";

/**
 * A labelled select of one GET parameter, inside a GET form: a list's filter of one value (a value of ""
 * meaning "all"), the versions a script's history compares. `options` are value and label pairs.
 */
export function SelectFilter({
  id,
  label,
  name,
  value,
  options,
  className,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  options: readonly (readonly [value: string, label: string])[];
  className?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={cn("rounded-md border border-border bg-white px-3 py-2 text-sm", className)}>
        {options.map(([option, text]) => (
          <option key={option} value={option}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}
