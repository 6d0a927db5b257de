/**
 * Compiled views, one compile per view version (issue #17: "one compile cached per view
 * version"). An entry is keyed on the view record's `_id` and checked against the record's stored
 * text and the identity of its source definition: an edit changes the text (even two edits in one
 * millisecond, which `updated` alone would miss), and definitions are replaced, never mutated, when
 * they change. Also checked against a `variant`: the org settings the compile read (a fixed where
 * is parsed once, under the org's `disableNegation` of that moment). Lives on the Service like
 * every other cache.
 */
import type { ObjectDef } from '../../../src-shared/schema/types.js';

interface Entry {
  text: string;
  source: ObjectDef | undefined;
  variant: string;
  /** A CompiledView (compile-view.ts); typed by the caller, so the Service does not import the compiler. */
  view: unknown;
}

export class ViewCache {
  private readonly map = new Map<string, Entry>();
  /** Compiles done (misses): tests and the bench read it to see the cache work. */
  compiles = 0;

  constructor(private readonly max = 1000) {}

  /** The cached compile of this version of the view, else `compile()` remembered. */
  get<View>(
    orgId: number,
    record: { _id: string; text: string },
    source: ObjectDef | undefined,
    compile: () => View,
    variant = '',
  ): View {
    const key = `${orgId}:${record._id}`;
    const hit = this.map.get(key);
    if (hit && hit.text === record.text && hit.source === source && hit.variant === variant) return hit.view as View;
    const view = compile();
    this.compiles++;
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { text: record.text, source, variant, view });
    return view;
  }
}
