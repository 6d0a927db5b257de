import { Field } from '../../components/Field';

/** The working token: paste any JWT here. Kept in memory only (no URL, no storage, no autocomplete). */
export function TokenInput({
  token,
  onToken,
  testId,
}: {
  token: string;
  onToken: (text: string) => void;
  testId: string;
}) {
  return (
    <Field label="Token (JWT)">
      {(id) => (
        <textarea
          id={id}
          className="input input--area input--mono lab__token"
          rows={4}
          spellCheck={false}
          autoComplete="off"
          data-testid={testId}
          value={token}
          onChange={(e) => onToken(e.target.value)}
        />
      )}
    </Field>
  );
}
