/**
 * A token's text cut into the parts jwt.io colours: header, payload and signature (the dots
 * between them kept), so the encoded text and its decoded halves can share a colour each.
 */
import { normalizeToken } from './claims';

export type TokenPartName = 'header' | 'payload' | 'signature' | 'extra';

export interface TokenPart {
  part: TokenPartName;
  text: string;
}

const NAMES: readonly TokenPartName[] = ['header', 'payload', 'signature'];

/** The parts in order with the dots as their own plain pieces; anything past a third dot is `extra`. */
export function tokenParts(text: string): (TokenPart | '.')[] {
  const token = normalizeToken(text);
  if (token === '') return [];
  const out: (TokenPart | '.')[] = [];
  token.split('.').forEach((piece, index) => {
    if (index > 0) out.push('.');
    out.push({ part: NAMES[index] ?? 'extra', text: piece });
  });
  return out;
}
