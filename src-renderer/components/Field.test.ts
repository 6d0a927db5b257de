import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, FieldError, FieldHint, FieldSet, FieldType } from './Field';

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

describe('Field with a render function', () => {
  it('wires the label to the control and the control to its note', () => {
    const html = renderToStaticMarkup(
      h(Field, {
        label: 'Label',
        hint: 'Say it',
        children: (id: string, describedBy: string | undefined) => h('input', { id, 'aria-describedby': describedBy }),
      }),
    );
    const id = /<label class="field__label" for="([^"]+)">Label<\/label>/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toContain(`<input id="${id}" aria-describedby="${id}-note"/>`);
    expect(html).toContain(`<p class="field__hint" id="${id}-note">Say it</p>`);
  });

  it('shows the error instead of the hint, and no describedby without a note', () => {
    const withError = renderToStaticMarkup(
      h(Field, {
        label: 'L',
        hint: 'hint',
        error: 'Too short',
        errorTestId: 'field-error',
        children: (id: string) => h('input', { id }),
      }),
    );
    expect(withError).toMatch(/^<div class="field field--invalid">/);
    expect(withError).toContain('data-testid="field-error">Too short</p>');
    expect(withError).not.toContain('hint');
    const bare = renderToStaticMarkup(
      h(Field, {
        label: 'L',
        children: (id: string, describedBy: string | undefined) => h('input', { id, title: String(describedBy) }),
      }),
    );
    expect(bare).toContain('title="undefined"');
  });
});

describe('field notes outside a single field', () => {
  it('renders the hand-written error, hint, type note and legend markup', () => {
    expect(renderToStaticMarkup(h(FieldError, { alert: true, testId: 'f', children: 'No' }))).toBe(
      '<p class="field__error" role="alert" data-testid="f">No</p>',
    );
    expect(renderToStaticMarkup(h(FieldError, { as: 'span', children: 'No' }))).toBe(
      '<span class="field__error">No</span>',
    );
    expect(renderToStaticMarkup(h(FieldHint, { testId: 'h', children: 'Hm' }))).toBe(
      '<span class="field__hint" data-testid="h">Hm</span>',
    );
    expect(renderToStaticMarkup(h(FieldType, { children: 'JSON' }))).toBe('<span class="field__type">JSON</span>');
    expect(
      renderToStaticMarkup(h(FieldSet, { legend: 'Starts', className: 'k', testId: 's', children: h('input') })),
    ).toBe('<fieldset class="k" data-testid="s"><legend class="field__label">Starts</legend><input/></fieldset>');
  });

  it('makes a display field a div (nothing for a label to point at) and keeps a given id', () => {
    expect(renderToStaticMarkup(h(Field, { label: 'curl', display: true, children: h('pre') }))).toBe(
      '<div class="field"><span class="field__label">curl</span><pre></pre></div>',
    );
    expect(
      renderToStaticMarkup(
        h(Field, { label: 'Args', id: 'args', labelClassName: 't', children: (id: string) => h('input', { id }) }),
      ),
    ).toBe('<div class="field"><label class="field__label t" for="args">Args</label><input id="args"/></div>');
  });
});
