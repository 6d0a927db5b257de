import { createElement as h, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { Pager } from './Pager';
import { QueryState } from './QueryState';
import { ScreenHeader } from './ScreenHeader';

type AnyProps = Record<string, unknown> & { children?: ReactNode };

/** Walks host elements (Pager renders nothing else) to find one by its data-testid. */
function byTestId(node: ReactNode, testId: string): ReactElement<AnyProps> | undefined {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) {
      const found = byTestId(child, testId);
      if (found) return found;
    }
    return undefined;
  }
  if (!isValidElement<AnyProps>(node)) return undefined;
  if (node.props['data-testid'] === testId) return node;
  return byTestId(node.props.children, testId);
}

const pagerProps = {
  testId: 'grid',
  range: 'Rows 1–25',
  canPrevious: false,
  canNext: true,
  onPrevious: () => undefined,
  onNext: () => undefined,
};

describe('ScreenHeader', () => {
  it('renders title, description and actions in the screen header markup', () => {
    const html = renderToStaticMarkup(
      h(ScreenHeader, {
        title: 'Roles',
        titleId: 'roles-title',
        description: 'desc',
        actions: h('button', null, 'New'),
      }),
    );
    expect(html).toBe(
      '<div class="screen__header"><div><h1 class="screen__title" id="roles-title">Roles</h1>' +
        '<p class="screen__subtitle">desc</p></div><div class="screen__actions"><button>New</button></div></div>',
    );
  });

  it('leaves out what is not given', () => {
    const html = renderToStaticMarkup(h(ScreenHeader, { title: 'T', titleId: 't' }));
    expect(html).not.toContain('screen__subtitle');
    expect(html).not.toContain('screen__actions');
  });
});

describe('QueryState', () => {
  const base = { data: undefined, error: null, isPending: false, isError: false, refetch: vi.fn() };
  const render = (query: object, extra: object = {}) =>
    renderToStaticMarkup(
      h(QueryState<string[]>, {
        query: query as never,
        loading: 'Loading roles…',
        empty: 'No roles yet.',
        isEmpty: (rows: string[]) => rows.length === 0,
        emptyTestId: 'roles-empty',
        children: (rows: string[]) => h('ul', { 'data-testid': 'rows' }, rows.join(',')),
        ...extra,
      }),
    );

  it('shows the loading line while pending', () => {
    const html = render({ ...base, isPending: true });
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading roles…');
    expect(html).not.toContain('data-testid="rows"');
  });

  it('shows the fault’s own message when the query failed', () => {
    const error = new ApiError({
      object: 'fault',
      name: 'error',
      code: 'kError',
      errCode: 'service.invalidArgument.thing',
      status: 400,
      message: 'The widget count must be positive.',
    });
    const html = render({ ...base, isError: true, error });
    expect(html).toContain('data-testid="fault-message"');
    expect(html).toContain('The widget count must be positive.');
    expect(html).toContain('service.invalidArgument.thing');
    expect(html).toContain('Try again');
  });

  it('shows the empty state for an empty answer and the content otherwise', () => {
    expect(render({ ...base, data: [] })).toBe(
      '<div class="empty-state" data-testid="roles-empty">No roles yet.</div>',
    );
    expect(render({ ...base, data: ['a', 'b'] })).toBe('<ul data-testid="rows">a,b</ul>');
  });

  it('renders content for an empty answer when no empty state is given', () => {
    expect(render({ ...base, data: [] }, { empty: undefined })).toBe('<ul data-testid="rows"></ul>');
  });
});

describe('Pager', () => {
  it('renders range, buttons and their disabled state with prefixed test ids', () => {
    const html = renderToStaticMarkup(h(Pager, pagerProps));
    expect(html).toContain('data-testid="grid-range">Rows 1–25</span>');
    expect(html).toMatch(/disabled="" data-testid="grid-prev">‹ Previous/);
    expect(html).toMatch(/data-testid="grid-next">Next ›/);
    expect(html).not.toMatch(/disabled="" data-testid="grid-next"/);
    expect(html).not.toContain('pager__size');
  });

  it('calls back on previous / next', () => {
    const onPrevious = vi.fn();
    const onNext = vi.fn();
    const tree = Pager({ ...pagerProps, canPrevious: true, onPrevious, onNext });
    (byTestId(tree, 'grid-prev')?.props.onClick as () => void)();
    (byTestId(tree, 'grid-next')?.props.onClick as () => void)();
    expect(onPrevious).toHaveBeenCalledTimes(1);
    expect(onNext).toHaveBeenCalledTimes(1);
  });

  it('offers the page sizes and passes on only one of them', () => {
    const onChange = vi.fn();
    const pageSize = { value: 50, options: [25, 50, 100], onChange, label: 'Per page' };
    const html = renderToStaticMarkup(h(Pager, { ...pagerProps, pageSize, nextLabel: 'Older ›' }));
    expect(html).toContain('Per page');
    expect(html).toContain('<option value="50" selected="">50</option>');
    expect(html).toContain('Older ›');
    const select = byTestId(Pager({ ...pagerProps, pageSize }), 'grid-page-size');
    const change = select?.props.onChange as (event: { target: { value: string } }) => void;
    change({ target: { value: '100' } });
    change({ target: { value: '7' } });
    expect(onChange.mock.calls).toEqual([[100]]);
  });
});
