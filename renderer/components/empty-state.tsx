export function EmptyState({ onAdd }: { onAdd(): void }) {
  return (
    <section className="empty-state" aria-labelledby="empty-title">
      <h1 id="empty-title">Add your first panel</h1>
      <p>
        Paneldeck keeps your panel installations in one place. Start with the address of one of them, for example{' '}
        <code>panel.example.com</code>; you log in to each panel separately and stay logged in between runs.
      </p>
      <button type="button" className="button-primary" onClick={onAdd}>
        Add panel
      </button>
    </section>
  );
}
