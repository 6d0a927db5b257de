import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, faultOf } from '../../api/api-error';
import type { OrgClient } from '../../api/org-client';
import { deleteView, saveView, viewKeys, viewVariables, type ViewRecord } from '../../api/views';
import {
  draftOf,
  emptyForm,
  fieldOfFault,
  formOf,
  variableOfFault,
  type FormField,
  type VariableForm,
  type ViewForm,
} from './view-form';

/** What a field of the editor shows when the service's fault on save names it. */
export interface FieldFault {
  error: string | undefined;
  errorTestId: string;
}

/**
 * The view editor's state: the form, save and delete, and where the service's fault on save
 * belongs (the service validates; the form only shows its answer at the field it names).
 */
export function useViewEditor(
  orgClient: OrgClient,
  view: ViewRecord | null,
  defaultSource: string,
  onSaved: (view: ViewRecord) => void,
  onDeleted: () => void,
) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<ViewForm>(() => (view ? formOf(view) : emptyForm(defaultSource)));
  const [saved, setSaved] = useState(false);
  const { draft, queryFields } = draftOf(form);
  const save = useMutation({
    mutationFn: () => saveView(orgClient, draft, view?._id),
    onSuccess: async (result) => {
      setSaved(true);
      await queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) });
      onSaved(result);
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteView(orgClient, view!._id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: viewKeys.all(orgClient.org) });
      onDeleted();
    },
  });
  const fault = save.error instanceof ApiError ? save.error.fault : save.isError ? faultOf(save.error) : undefined;
  const faultField = fieldOfFault(fault?.path, queryFields);
  const faultAt = (field: FormField): FieldFault => ({
    error: fault && faultField === field ? (fault.reason ?? fault.message) : undefined,
    errorTestId: `view-error-${field}`,
  });
  const set = <K extends keyof ViewForm>(key: K, value: ViewForm[K]) => {
    setSaved(false);
    setForm((f) => ({ ...f, [key]: value }));
  };
  /** One variable's default or description as typed, kept by name. */
  const setVariable = (name: string, key: keyof VariableForm, value: string) => {
    setSaved(false);
    setForm((f) => {
      const current = f.variables[name] ?? { defaultValue: '', description: '' };
      return { ...f, variables: { ...f.variables, [name]: { ...current, [key]: value } } };
    });
  };
  return {
    form,
    setVariable,
    variableFault: fault && faultField === 'variables' ? variableOfFault(fault.path, draft.variables) : undefined,
    set,
    saved,
    save,
    remove,
    fault,
    faultField,
    faultAt,
    variables: viewVariables({ query: draft.query }),
    query: draft.query ?? [],
  };
}
