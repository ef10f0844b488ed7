import { controlProps, type AriaOptions, type FieldMetadata } from "~/lib/forms";
import { Description, ErrorList, type BaseProps } from "~/components/forms/fields";

// The field components of a choice among options (fields.tsx has the others): their own module, so that only the
// pages with such a field carry their code (the wizard's dictionary step and the other forms' pages, issue 8's bar).

/** One checkbox per option of a repeated field; the ones the field holds are checked. */
export function getCollectionProps(field: FieldMetadata, options: AriaOptions & { type: "checkbox" | "radio"; options: string[] }) {
  return options.options.map((value) => ({
    ...controlProps(field, options),
    id: `${field.id}-${value}`,
    type: options.type,
    value,
    defaultChecked: options.type === "checkbox" && Array.isArray(field.initialValue) ? field.initialValue.includes(value) : field.initialValue === value,
    required: options.type === "checkbox" ? undefined : field.required,
  }));
}

/**
 * Several choices of one field (a repeated name): a fieldset whose legend is the label, one checkbox
 * per option. Conform's `getCollectionProps` checks the ones the field holds. With no option shown (a
 * page of choices whose search found none), its error list takes the focus its first checkbox would.
 */
export function CheckboxGroupField({ label, field, description, className, options }: BaseProps & { options: { value: string; label: string }[] }) {
  const boxes = getCollectionProps(field, {
    type: "checkbox",
    options: options.map((o) => o.value),
    ariaDescribedBy: description ? field.descriptionId : undefined,
  });
  return (
    <ChoiceFieldset label={label} field={field} description={description} className={className} focusErrors={!boxes.length}>
      {boxes.map((props, i) => (
        <div key={props.value} className="flex items-center gap-2">
          <input {...props} className="size-4 rounded border-border accent-brand" />
          <label htmlFor={props.id} className="text-sm">
            {options[i]!.label}
          </label>
        </div>
      ))}
    </ChoiceFieldset>
  );
}

/** One choice of several (a radio per option): a fieldset whose legend is the label; each option may say what it does. */
export function RadioGroupField({
  label,
  field,
  description,
  className,
  options,
}: BaseProps & { options: readonly { value: string; label: string; description?: string }[] }) {
  const radios = getCollectionProps(field, {
    type: "radio",
    options: options.map((o) => o.value),
    ariaDescribedBy: description ? field.descriptionId : undefined,
  });
  return (
    <ChoiceFieldset label={label} field={field} description={description} className={className}>
      {radios.map((props, i) => {
        const option = options[i]!;
        return (
          <div key={props.value} className="flex items-start gap-2">
            <input {...props} aria-describedby={option.description ? `${props.id}-description` : undefined} className="mt-0.5 size-4 accent-brand" />
            <div className="text-sm">
              <label htmlFor={props.id}>{option.label}</label>
              {option.description ? (
                <p id={`${props.id}-description`} className="text-muted-foreground">
                  {option.description}
                </p>
              ) : null}
            </div>
          </div>
        );
      })}
    </ChoiceFieldset>
  );
}

/**
 * The fieldset both choice fields draw: the label as its legend, the description, the options one under another,
 * and the field's errors (taking the focus a first option would when `focusErrors`: none shown).
 */
function ChoiceFieldset({ label, field, description, className, focusErrors, children }: BaseProps & { focusErrors?: boolean; children: React.ReactNode }) {
  return (
    <fieldset className={className} aria-invalid={field.errors?.length ? true : undefined} aria-describedby={field.errors?.length ? field.errorId : undefined}>
      <legend className="mb-1 block text-sm font-medium">{label}</legend>
      <Description id={field.descriptionId}>{description}</Description>
      <div className="mt-2 space-y-2">{children}</div>
      <ErrorList id={field.errorId} errors={field.errors} focus={focusErrors} />
    </fieldset>
  );
}
