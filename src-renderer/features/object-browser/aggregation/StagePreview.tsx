import type { FaultBody } from '../../../../src-shared/faults';
import type { PipelineDocument } from '../../../api/aggregations';
import { FaultMessage } from '../../../components/FaultMessage';
import { compactJson } from './stage-cards';

export type PreviewState =
  | { kind: 'off' }
  | { kind: 'fault' }
  | { kind: 'blocked'; stage: number }
  | { kind: 'error'; fault: FaultBody }
  | { kind: 'loading' }
  | { kind: 'documents'; documents: PipelineDocument[]; stale: boolean };

/** What comes out of one stage: its first documents, or why there is nothing to show. */
export function StagePreview({ state, label }: { state: PreviewState; label: string }) {
  return (
    <section
      className="stage-preview"
      aria-label={label}
      data-testid="agg-stage-preview"
      aria-busy={state.kind === 'loading' || (state.kind === 'documents' && state.stale) || undefined}
    >
      <PreviewBody state={state} />
    </section>
  );
}

function PreviewBody({ state }: { state: PreviewState }) {
  switch (state.kind) {
    case 'off':
      return <p className="qb-hint">Off: the documents pass this stage unchanged.</p>;
    case 'fault':
      return <p className="qb-hint">No preview until the stage is fixed.</p>;
    case 'blocked':
      return <p className="qb-hint">No preview until stage {state.stage} is fixed.</p>;
    case 'error':
      return <FaultMessage fault={state.fault} compact />;
    case 'loading':
      return (
        <p className="status-line" role="status">
          <span className="spinner" aria-hidden="true" /> Running the stages so far…
        </p>
      );
    case 'documents':
      return state.documents.length === 0 ? (
        <p className="qb-hint" data-testid="agg-stage-preview-empty">
          No documents come out of this stage.
        </p>
      ) : (
        <>
          <p className="stage-preview__caption" data-testid="agg-stage-preview-count">
            First {state.documents.length} {state.documents.length === 1 ? 'document' : 'documents'}
          </p>
          <ol className="stage-preview__documents">
            {state.documents.map((doc, i) => (
              <li key={i}>
                <pre className="stage-preview__document" tabIndex={0}>
                  {compactJson(doc)}
                </pre>
              </li>
            ))}
          </ol>
        </>
      );
  }
}
