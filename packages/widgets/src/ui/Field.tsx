import { cloneElement, useId, type ReactElement } from 'react';

export interface FieldProps {
  /** The label, already translated. */
  label: string;
  /** Messages of the broken rules, already translated; the control is marked invalid. */
  errors?: readonly string[];
  /** A hint under the control, already translated. */
  hint?: string;
  /** One control: input, select or textarea. Its id and aria attributes are set here. */
  children: ReactElement<Record<string, unknown>>;
}

/** A labelled form control with its hint and its validation messages. */
export function Field({ label, errors = [], hint, children }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', errors.length ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className="field" part="field">
      <label className="field__label" htmlFor={id} part="label">
        {label}
      </label>
      {cloneElement(children, {
        id,
        'aria-invalid': errors.length ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p className="field__error" id={errorId} part="field-error">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

export interface CheckboxProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  errors?: readonly string[];
  disabled?: boolean;
}

/** A checkbox with its label to the right and its validation messages below. */
export function Checkbox({ label, checked, onChange, errors = [], disabled }: CheckboxProps) {
  const id = useId();
  return (
    <div className="field field--check" part="field">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-invalid={errors.length ? true : undefined}
        aria-describedby={errors.length ? `${id}-error` : undefined}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label htmlFor={id} part="label">
        {label}
      </label>
      {errors.length > 0 && (
        <p className="field__error" id={`${id}-error`} part="field-error">
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}
