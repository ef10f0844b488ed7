import { Fragment } from "react";

/**
 * A list's filter of several values, as checkboxes of one repeated GET parameter (`status=A&status=B`):
 * none ticked means all. Inside a list's GET search form.
 */
export function CheckboxFilter<V extends string>({
  legend,
  name,
  options,
  checked,
}: {
  legend: string;
  name: string;
  options: readonly (readonly [V, string])[];
  checked: readonly V[];
}) {
  return (
    <fieldset className="mt-4">
      <legend className="text-sm font-medium">{legend}</legend>
      {/* The boxes' classes once on their container: ten filters, one class list. */}
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2 text-sm [&_input]:size-4 [&_input]:accent-brand [&_label]:flex [&_label]:items-center [&_label]:gap-2">
        {options.map(([value, label]) => (
          <Fragment key={value}>
            <label>
              <input type="checkbox" name={name} value={value} defaultChecked={checked.includes(value)} />
              {` ${label}`}
            </label>{" "}
          </Fragment>
        ))}
      </div>
    </fieldset>
  );
}
