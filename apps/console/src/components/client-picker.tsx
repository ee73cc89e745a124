import type { Client } from '../api/schemas';

/** Which clients an operator or key may see: none ticked = every client. */
export function ClientPicker({ clients, value, onChange, legend }: { clients: Client[]; value: number[]; onChange: (v: number[]) => void; legend: string }) {
  return (
    <fieldset className="checks">
      <legend>{legend}</legend>
      {clients.map((c) => (
        <label key={c.id}>
          <input
            type="checkbox"
            checked={value.includes(c.id)}
            onChange={(e) => onChange(e.target.checked ? [...value, c.id] : value.filter((x) => x !== c.id))}
          />
          {c.name}
        </label>
      ))}
      <small className="muted">None ticked: every client.</small>
    </fieldset>
  );
}

export function clientNames(ids: number[] | null | undefined, clients: Client[] | undefined): string {
  if (!ids) return 'All clients';
  if (ids.length === 0) return 'None';
  return ids.map((id) => clients?.find((c) => c.id === id)?.name ?? `client ${id}`).join(', ');
}
