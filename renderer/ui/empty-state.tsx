export function EmptyState({ onAdd, onImport }: { onAdd(): void; onImport(): void }) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h1 id="empty-title">Add your first panel</h1>
      <p>
        Paneldeck keeps your panel installations in one place. Start with the address of one of them, for example{' '}
        <code>panel.example.com</code>; you log in to each panel separately and stay signed in between runs.
      </p>
      <p>Have many? Import a list of addresses, a CSV or a Paneldeck export from a colleague.</p>
      <div className="form-actions">
        <button type="button" className="button-primary" onClick={onAdd}>
          Add panel
        </button>
        <button type="button" onClick={onImport}>
          Import panels…
        </button>
      </div>
    </section>
  );
}
