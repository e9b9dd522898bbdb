import type { ReactNode } from 'react';

/*
 * The back office's field block: a label, the control, an optional hint and, when the form was refused, the
 * reason in words right under the control. One place owns the wiring a screen reader depends on, so no form can
 * forget a part of it: the label names the control (`for`), the control is described by its error (read first)
 * and its hint, and it is marked invalid only while it has an error.
 */

/** The attributes a field's control carries; spread them on the input, select or textarea. */
export interface AdminFieldControl {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** The ids of a field's hint and error paragraphs, made from the control's id. */
export const fieldHintId = (id: string) => `${id}-hint`;
export const fieldErrorId = (id: string) => `${id}-error`;

/** What describes a field: its error (read first) and its hint, those it has; undefined when neither. */
export function fieldDescribedBy(id: string, error?: string | null, hint?: ReactNode): string | undefined {
  return [error ? fieldErrorId(id) : '', hint ? fieldHintId(id) : ''].filter(Boolean).join(' ') || undefined;
}

/**
 * The wiring of a control whose error (and hint) are shown next to it: for controls that are not in a labelled
 * block, such as a table cell named by `aria-label`.
 */
export function adminFieldControl(id: string, error?: string | null, hint?: ReactNode): AdminFieldControl {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': fieldDescribedBy(id, error, hint),
  };
}

/** The hint and error paragraphs that `adminFieldControl(id, error, hint)` points at. */
export function AdminFieldMessages({
  id,
  error,
  hint,
}: {
  id: string;
  error?: string | null;
  hint?: ReactNode;
}) {
  return (
    <>
      {hint && (
        <p id={fieldHintId(id)} className="admin-field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={fieldErrorId(id)} className="admin-field__error">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled field: `children` gets the control's attributes (id and aria wiring) to spread on it. */
export function AdminField({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  children: (control: AdminFieldControl) => ReactNode;
}) {
  return (
    <div className={`admin-field${error ? ' admin-field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(adminFieldControl(id, error, hint))}
      <AdminFieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}
