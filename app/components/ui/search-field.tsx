/** The "name contains" box of a list's GET search form (`name`). */
export function SearchField({ id, label, value, placeholder = "Name contains…" }: { id: string; label: string; value: string; placeholder?: string }) {
  return (
    <div className="min-w-64 flex-1">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="name"
        defaultValue={value}
        maxLength={100}
        placeholder={placeholder}
        className="w-full rounded-md border border-border bg-white px-3 py-2 text-sm shadow-xs"
      />
    </div>
  );
}
