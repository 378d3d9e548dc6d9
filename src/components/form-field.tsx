// Label, control, hint and error for one input, wired for assistive tech (aria-describedby,
// aria-invalid). The control is passed as a render function so it gets the ids it needs.
import { useId, type ReactNode } from 'react';
import './form-field.css';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface Props {
  label: string;
  error?: string;
  hint?: string;
  children: (control: FieldControlProps) => ReactNode;
  trailing?: ReactNode;
}

export function FormField({ label, error, hint, children, trailing }: Props) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__row">
        {children({ id, 'aria-invalid': !!error, 'aria-describedby': describedBy })}
        {trailing}
      </div>
      {error ? (
        <p className="field__error" id={errorId}>
          {error}
        </p>
      ) : hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
