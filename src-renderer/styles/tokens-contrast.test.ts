/**
 * Issue #18 item 15: secondary text (muted notes, faint hints and captions) meets WCAG AA, 4.5:1,
 * on every surface it is drawn on, in both themes. Reads the custom properties from tokens.css
 * itself, so a later colour change is checked as written.
 */
import { describe, expect, it } from 'vitest';

// Read with node:fs, loaded dynamically: the renderer must not import Node modules statically.
const { readFileSync } = await import('node:fs');
const css = readFileSync(new URL('./tokens.css', import.meta.url), 'utf8');

/** The `--name: #hex` declarations of the first block whose selector is exactly `selector`. */
function tokensOf(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start === -1) throw new Error(`no ${selector} block in tokens.css`);
  const body = css.slice(start, css.indexOf('}', start));
  return new Map([...body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1]!, m[2]!.toLowerCase()]));
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

const light = tokensOf(':root');
// Dark overrides only colours; anything it leaves out is inherited from the light block.
const dark = new Map([...light, ...tokensOf(":root[data-theme='dark']")]);

const SECONDARY_TEXT = ['--text-muted', '--text-faint'];
// Every surface secondary text sits on: page, cards, sunken wells, hovered rows, code chips, selection.
const BACKGROUNDS = [
  '--bg',
  '--surface',
  '--surface-raised',
  '--surface-sunken',
  '--surface-hover',
  '--code-bg',
  '--accent-soft',
];

describe('contrastRatio', () => {
  it('matches the WCAG reference values', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    // #767676 on white is the well-known lightest grey that passes AA (4.54:1).
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});

describe.each([
  ['light', light],
  ['dark', dark],
] as const)('%s theme accent', (_theme, tokens) => {
  // Links, the active nav item and selected toggles draw accent text on the page and on accent-soft.
  for (const background of ['--bg', '--surface', '--surface-hover', '--accent-soft']) {
    it(`--accent text on ${background} is at least 4.5:1`, () => {
      expect(contrastRatio(tokens.get('--accent')!, tokens.get(background)!)).toBeGreaterThanOrEqual(4.5);
    });
  }
  it('--accent-text on --accent (primary buttons) is at least 4.5:1', () => {
    expect(contrastRatio(tokens.get('--accent-text')!, tokens.get('--accent')!)).toBeGreaterThanOrEqual(4.5);
  });
});

describe.each([
  ['light', light],
  ['dark', dark],
] as const)('%s theme secondary text', (_theme, tokens) => {
  for (const text of SECONDARY_TEXT) {
    for (const background of BACKGROUNDS) {
      it(`${text} on ${background} is at least 4.5:1`, () => {
        const fg = tokens.get(text);
        const bg = tokens.get(background);
        expect(fg, text).toMatch(/^#[0-9a-f]{6}$/);
        expect(bg, background).toMatch(/^#[0-9a-f]{6}$/);
        expect(contrastRatio(fg!, bg!)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});

describe.each([
  ['light', light],
  ['dark', dark],
] as const)('%s theme token parts', (_theme, tokens) => {
  // The Token lab colours a JWT's header, payload and signature; each stays readable text.
  for (const part of ['--jwt-header', '--jwt-payload', '--jwt-signature']) {
    for (const background of BACKGROUNDS) {
      it(`${part} on ${background} is at least 4.5:1`, () => {
        expect(contrastRatio(tokens.get(part)!, tokens.get(background)!)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
