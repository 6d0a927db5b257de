/** The longest address SMTP can carry (RFC 5321), and the account property's maxLength. */
const MAX_EMAIL_LENGTH = 254;
/** Whitespace, control and invisible formatting characters (a bidi override spoofs how an address reads). */
const INVISIBLE_OR_SPACE = /[\s\p{Cc}\p{Cf}]/u;

/**
 * Whether `text` is an email address (docs/compatibility.md#records-and-routes-as-the-original-shapes-them types an account's email `<EMAIL>`),
 * for the `format: 'email'` of a property. Pragmatic rather than RFC 5322, whose quoted forms no
 * mail system here needs: after trimming, one `@`, a non-empty name before it, a domain of
 * non-empty dot-separated labels after it (one label too: `admin@localhost` is a fine address on
 * an offline machine, and the console's `type="email"` fields accept it), no whitespace or control
 * characters, at most 254 characters. Non-ASCII letters stay allowed (internationalised addresses).
 */
export function isEmailAddress(text: string): boolean {
  const trimmed = text.trim();
  const parts = trimmed.split('@');
  return (
    trimmed.length <= MAX_EMAIL_LENGTH &&
    !INVISIBLE_OR_SPACE.test(trimmed) &&
    parts.length === 2 &&
    parts[0] !== '' &&
    (parts[1] ?? '').split('.').every((label) => label !== '')
  );
}
