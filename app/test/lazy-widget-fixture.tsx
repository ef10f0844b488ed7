/** A widget for lazy-widget.test.tsx, in a module of its own as every lazy widget is: a table of `rows` rows. */
export function Greeting({ name, rows }: { name: string; rows: number }) {
  return (
    <table aria-label={`Rows for ${name}`}>
      <tbody>
        {Array.from({ length: rows }, (_, i) => (
          <tr key={i}>
            <td>Row {i + 1}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
