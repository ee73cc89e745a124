import { ApiError, errorText } from '../api/http';

export interface FieldProblem {
  field: string | null;
  message: string;
}

/** The field errors of an API 400 (`{detail, errors: [{field, message}]}`), empty for any other failure. */
export function fieldProblems(err: unknown): FieldProblem[] {
  if (!(err instanceof ApiError) || err.status !== 400) return [];
  const errors = (err.body as { errors?: unknown } | undefined)?.errors;
  if (!Array.isArray(errors)) return [];
  return errors
    .filter((e): e is { field?: string | null; message?: string } => typeof e === 'object' && e !== null)
    .map((e) => ({ field: e.field ?? null, message: e.message ?? '' }));
}

/**
 * The API's answer to a form's request, under the form's fields: its detail and each field's message, the field
 * named by its label in this form (`labels`: API field → label) where the form has it.
 */
export function FormErrors({ error, labels }: { error: unknown; labels: Record<string, string> }) {
  if (!error) return null;
  const problems = fieldProblems(error);
  if (problems.length === 0) {
    return (
      <p role="alert" className="error">
        {errorText(error)}
      </p>
    );
  }
  return (
    <div role="alert" className="error">
      <p>The server refused it ({(error as ApiError & { body: { detail: string } }).body.detail}):</p>
      <ul>
        {problems.map((p, i) => (
          <li key={i}>
            {p.field ? `${labels[p.field] ?? p.field}: ` : ''}
            {p.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Whether the API named this field in its 400 (the field is then marked aria-invalid). */
export const invalidField = (err: unknown, field: string): boolean => fieldProblems(err).some((p) => p.field === field);
