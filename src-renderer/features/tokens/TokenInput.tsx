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
    <div className="field">
      <label className="field__label" htmlFor={`${testId}-input`}>
        Token (JWT)
      </label>
      <textarea
        id={`${testId}-input`}
        className="input input--area input--mono"
        rows={4}
        spellCheck={false}
        autoComplete="off"
        placeholder="eyJhbGciOi…"
        data-testid={testId}
        value={token}
        onChange={(e) => onToken(e.target.value)}
      />
    </div>
  );
}
