import type { SetupRequest } from '../../api/types';
import { passwordProblem } from '../../../src-shared/passwords/strength';

/** The first-run form: the request plus the password typed a second time. */
export interface SetupValues extends SetupRequest {
  confirm?: string;
}

export type SetupErrors = Partial<Record<keyof SetupValues, string>>;

export const ORG_CODE_PATTERN = /^[a-z0-9-]+$/;

/**
 * Checks the first-run form before it is sent, so simple mistakes are fixed without a round trip.
 * The service validates again; this is a convenience, not the gate.
 */
export function validateSetup(values: SetupValues): SetupErrors {
  const errors: SetupErrors = {};
  if (values.org === '') errors.org = 'Enter an org code.';
  else if (!ORG_CODE_PATTERN.test(values.org)) {
    errors.org = 'Use lower-case letters, digits and hyphens only.';
  }
  const email = values.email.trim();
  if (email === '') errors.email = 'Enter the administrator’s email.';
  else if (!/^[^\s@]+@[^\s@]+$/.test(email)) errors.email = 'Enter an email address like admin@example.com.';
  const passwordError = passwordProblem(values.password);
  if (passwordError !== undefined) errors.password = passwordError;
  if (values.confirm !== undefined && values.confirm !== values.password) {
    errors.confirm = 'The two passwords differ.';
  }
  return errors;
}

export function hasErrors(errors: SetupErrors): boolean {
  return Object.keys(errors).length > 0;
}
