import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field } from './Field';

/** Field replaces hand-written markup: it must render the very same DOM, so CSS and e2e selectors hold. */
describe('Field', () => {
  it('renders the hand-written label wrapper', () => {
    const input = h('input', { className: 'input', 'data-testid': 'x' });
    expect(renderToStaticMarkup(h(Field, { label: 'Email', children: input }))).toBe(
      '<label class="field"><span class="field__label">Email</span><input class="input" data-testid="x"/></label>',
    );
    expect(renderToStaticMarkup(h(Field, { label: 'Body', wide: true, children: input }))).toBe(
      '<label class="field field--wide"><span class="field__label">Body</span><input class="input" data-testid="x"/></label>',
    );
  });

  it('adds the invalid state, a hint and an error when given', () => {
    const html = renderToStaticMarkup(h(Field, { label: 'N', hint: 'h', error: 'e', children: h('input') }));
    expect(html).toBe(
      '<label class="field field--invalid"><span class="field__label">N</span><input/><span class="field__hint">h</span><span class="field__error">e</span></label>',
    );
  });
});
