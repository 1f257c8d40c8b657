/**
 * One piece of code for the site's account forms (login, reset password, registration, personal
 * data, credentials, account deletion): a form is a list of field specs bound to a `useForm`
 * controller, in rows of one or two, inside a card with its title and its actions.
 *
 * ```tsx
 * <FormCard title={t('credentials.title')} onSubmit={submit} submitLabel={t('credentials.submit')} busy={form.submitting}>
 *   <FieldList form={form} fields={[emailField(t, 'email'), newPasswordFields(t, 'newPassword', 'confirmPassword')]} />
 * </FormCard>
 * ```
 */
import { useId, type FormEvent, type ReactNode } from 'react';
import { LIMITS, type Translate } from '@poruch/core';
import { CheckboxField, SelectField, TextField, type SelectOption } from './fields.js';
import type { FormController } from './useForm.js';

/** One field of a form: where its value lives and how it is shown. */
export interface FieldSpec {
  /** The dotted path of the value in the form (`account.email`). */
  path: string;
  label: ReactNode;
  /** Defaults to `text`. */
  kind?: 'text' | 'email' | 'password' | 'tel' | 'checkbox' | 'select';
  autoComplete?: string;
  required?: boolean;
  maxLength?: number;
  hint?: ReactNode;
  /** The options of a `select`. */
  options?: readonly SelectOption[];
  /** Shows a text field's value in clear (a password's "show" switch). */
  reveal?: boolean;
}

/** A row of the list: one field, or two side by side on wide screens. */
export type FieldRow = FieldSpec | readonly [FieldSpec, FieldSpec];

function Field({ form, spec }: { form: FormController<object>; spec: FieldSpec }) {
  const { kind = 'text', label, required, hint } = spec;
  if (kind === 'checkbox')
    return (
      <CheckboxField
        {...form.bindCheck(spec.path)}
        label={label}
        {...(required ? { required } : {})}
        {...(hint ? { hint } : {})}
      />
    );
  if (kind === 'select')
    return (
      <SelectField
        {...form.bind(spec.path)}
        label={label}
        options={spec.options ?? []}
        {...(required ? { required } : {})}
        {...(hint ? { hint } : {})}
      />
    );
  return (
    <TextField
      {...form.bind(spec.path)}
      label={label}
      type={kind === 'password' && spec.reveal ? 'text' : kind}
      {...(spec.autoComplete ? { autoComplete: spec.autoComplete } : {})}
      {...(required ? { required } : {})}
      {...(spec.maxLength ? { maxLength: spec.maxLength } : {})}
      {...(hint ? { hint } : {})}
    />
  );
}

/** The fields of a form, bound to its controller, each with its label, hint and messages. */
export function FieldList({
  form,
  fields,
}: {
  form: FormController<object>;
  fields: readonly FieldRow[];
}) {
  return (
    <>
      {fields.map((row) =>
        'path' in row ? (
          <Field key={row.path} form={form} spec={row} />
        ) : (
          <div className="form__grid" key={row[0].path}>
            <Field form={form} spec={row[0]} />
            <Field form={form} spec={row[1]} />
          </div>
        ),
      )}
    </>
  );
}

export interface FormCardProps {
  /** The card's heading (h2), which also names the form. Defaults to none. */
  title?: ReactNode;
  onSubmit: (e: FormEvent) => void;
  submitLabel: string;
  /** Disables the submit button while the call runs. */
  busy: boolean;
  /** A danger-styled submit (deletion). Defaults to false. */
  danger?: boolean;
  /** Beside the submit button: a cancel button, a link. */
  actions?: ReactNode;
  /** Under the actions: a footnote. */
  footer?: ReactNode;
  /** Extra class names of the form (`card form__section` by default). */
  className?: string;
  children: ReactNode;
}

/** A form in a card: its title, its fields (children), and the submit with the other actions. */
export function FormCard(props: FormCardProps) {
  const { title, onSubmit, submitLabel, busy, danger, actions, children } = props;
  const id = useId();
  return (
    <form
      className={props.className ?? 'card form__section'}
      onSubmit={onSubmit}
      noValidate
      aria-busy={busy}
      {...(title ? { 'aria-labelledby': id } : {})}
    >
      {title && <h2 id={id}>{title}</h2>}
      {children}
      <div className="form__actions">
        <button
          type="submit"
          className={danger ? 'button button--danger' : 'button'}
          disabled={busy}
        >
          {submitLabel}
        </button>
        {actions}
      </div>
      {props.footer}
    </form>
  );
}

/* The account fields every form shares, so each is written once. `p` is the values' prefix. */

const at = (p: string, name: string) => (p ? `${p}.${name}` : name);

/** First and last name, side by side. */
export const nameFields = (t: Translate, p = ''): FieldRow => [
  {
    path: at(p, 'firstName'),
    label: t('field.firstName'),
    required: true,
    autoComplete: 'given-name',
    maxLength: LIMITS.personNameMax,
  },
  {
    path: at(p, 'lastName'),
    label: t('field.lastName'),
    autoComplete: 'family-name',
    maxLength: LIMITS.personNameMax,
  },
];

export const phoneField = (t: Translate, p = ''): FieldSpec => ({
  path: at(p, 'phone'),
  label: t('field.phone'),
  kind: 'tel',
  autoComplete: 'tel',
  maxLength: LIMITS.phoneMax,
});

export const emailField = (t: Translate, p = '', more: Partial<FieldSpec> = {}): FieldSpec => ({
  path: at(p, 'email'),
  label: t('field.email'),
  kind: 'email',
  autoComplete: 'email',
  ...more,
});

/** A new password and its confirmation, side by side. */
export const newPasswordFields = (
  t: Translate,
  password: string,
  confirm: string,
  more: Partial<FieldSpec> = {},
): FieldRow => [
  {
    path: password,
    label: t(`field.${password.split('.').pop()!}`),
    kind: 'password',
    autoComplete: 'new-password',
    ...more,
  },
  {
    path: confirm,
    label: t('field.confirmPassword'),
    kind: 'password',
    autoComplete: 'new-password',
    ...(more.required ? { required: true } : {}),
  },
];

export const currentPasswordField = (t: Translate): FieldSpec => ({
  path: 'currentPassword',
  label: t('field.currentPassword'),
  kind: 'password',
  autoComplete: 'current-password',
  required: true,
});
