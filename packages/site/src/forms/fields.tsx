import type { ReactNode } from 'react';

interface FieldBase {
  id: string;
  /** The translated label. */
  label: ReactNode;
  /** Translated messages of the broken rules; the field is marked invalid when there are any. */
  errors?: string[];
  /** A translated hint under the field. */
  hint?: ReactNode;
  required?: boolean;
  disabled?: boolean;
}

export const describedBy = (id: string, errors?: string[], hint?: ReactNode) =>
  [errors?.length ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') ||
  undefined;

/** The messages under a field. */
export function FieldErrors({ id, errors }: { id: string; errors?: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <div className="field__error" id={`${id}-error`}>
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}

function Hint({ id, hint }: { id: string; hint?: ReactNode }) {
  return hint ? (
    <p className="field__hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
}

/** The frame of a labelled control: the label (with the required star), the control, the hint and the messages. */
export function FieldFrame({
  id,
  label,
  errors,
  hint,
  required,
  children,
}: Omit<FieldBase, 'disabled'> & { children: ReactNode }) {
  return (
    <div className={`field${errors?.length ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      {children}
      <Hint id={id} hint={hint} />
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

export interface TextFieldProps extends FieldBase {
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'tel' | 'url' | 'search' | 'date';
  autoComplete?: string;
  /** Renders a text area of this many rows. */
  rows?: number;
  maxLength?: number;
  placeholder?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'url' | 'search';
  onBlur?: () => void;
}

/** A labelled text input or text area with its messages. */
export function TextField(props: TextFieldProps) {
  const { id, label, errors, hint, required, rows, value, onChange } = props;
  const common = {
    id,
    name: id,
    value: value ?? '',
    required,
    disabled: props.disabled,
    maxLength: props.maxLength,
    placeholder: props.placeholder,
    onBlur: props.onBlur,
    'aria-invalid': errors?.length ? true : undefined,
    'aria-describedby': describedBy(id, errors, hint),
  } as const;
  return (
    <FieldFrame id={id} label={label} errors={errors} hint={hint} required={required}>
      {rows ? (
        <textarea {...common} rows={rows} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          inputMode={props.inputMode}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </FieldFrame>
  );
}

export interface CheckboxFieldProps extends Omit<FieldBase, 'hint'> {
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
}

/** A checkbox with its label on the right and its messages under it. */
export function CheckboxField({
  id,
  label,
  errors,
  hint,
  checked,
  onChange,
  required,
  disabled,
}: CheckboxFieldProps) {
  return (
    <div className={`field field--checkbox${errors?.length ? ' field--invalid' : ''}`}>
      <input
        id={id}
        name={id}
        type="checkbox"
        checked={!!checked}
        required={required}
        disabled={disabled}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={describedBy(id, errors, hint)}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <Hint id={id} hint={hint} />
      <FieldErrors id={id} errors={errors} />
    </div>
  );
}

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends FieldBase {
  value: string;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** A first, empty option with this text. */
  placeholder?: string;
  /** Shown before the select, e.g. the chosen country's flag. */
  adornment?: ReactNode;
}

/** A labelled native select: keyboard and screen readers work as everywhere. */
export function SelectField(props: SelectFieldProps) {
  const { id, label, errors, hint, required, value, onChange, options, placeholder } = props;
  return (
    <FieldFrame id={id} label={label} errors={errors} hint={hint} required={required}>
      <div className="field__row">
        {props.adornment}
        <select
          id={id}
          name={id}
          value={value ?? ''}
          required={required}
          disabled={props.disabled}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy(id, errors, hint)}
          onChange={(e) => onChange(e.target.value)}
        >
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
    </FieldFrame>
  );
}

/** A country flag image; decorative beside a country name. */
export function FlagImage({ src, alt = '' }: { src: string; alt?: string }) {
  return <img className="flag" src={src} alt={alt} width={24} height={18} loading="lazy" />;
}
