import { credentialsSchema, type FieldError, type Translate } from '@poruch/core';
import { act, createElement, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useForm, type FormController } from '../useForm.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Translation that shows the key and its parameters, so a test sees what would be translated. */
const t: Translate = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);

interface Values {
  email: string;
  password: string;
  account: { phone: string; consent: boolean };
}
const initial: Values = { email: '', password: '', account: { phone: '', consent: false } };

let root: Root;
let host: HTMLElement;
let form: FormController<Values>;

/** Renders a form with an input per field, so the focus on the first broken field can be seen. */
function Form({ expose }: { expose: (f: FormController<Values>) => void }) {
  const f = useForm('login', initial, t);
  // After every render (act flushes effects), the test reads the latest controller.
  useEffect(() => {
    expose(f);
  });
  return createElement(
    'form',
    null,
    createElement('input', { id: f.bind('email').id }),
    createElement('input', { id: f.bind('password').id }),
  );
}

beforeEach(async () => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(() => root.render(createElement(Form, { expose: (f) => (form = f) })));
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

const fields = () => form.errors.map((e) => e.field);

describe('useForm', () => {
  it('sets nested values by path and binds fields to them', async () => {
    await act(() => form.set('account.phone', '+48 600'));
    await act(() => form.bindCheck('account.consent').onChange(true));
    expect(form.values).toEqual({
      email: '',
      password: '',
      account: { phone: '+48 600', consent: true },
    });
    expect(form.get('account.phone')).toBe('+48 600');
    const bound = form.bind('account.phone');
    expect(bound).toMatchObject({ id: 'login-account-phone', value: '+48 600', errors: [] });
    expect(form.bindCheck('account.consent').checked).toBe(true);
    expect(initial.account.phone).toBe('');
  });

  it('validates with a shared schema: errors under their fields, focus on the first', async () => {
    let parsed: unknown;
    await act(() => {
      parsed = form.validate(credentialsSchema, { email: 'not an e-mail', password: '' });
    });
    expect(parsed).toBeNull();
    expect(fields()).toEqual(['email', 'password']);
    expect(form.errorsFor('email')).toHaveLength(1);
    expect(form.bind('password').errors).toHaveLength(1);
    expect(document.activeElement?.id).toBe('login-email');

    // Typing into a field forgets its messages only.
    await act(() => form.set('email', 'a@b.example'));
    expect(fields()).toEqual(['password']);

    await act(() => {
      parsed = form.validate(credentialsSchema, { email: 'a@b.example', password: 'x' });
    });
    expect(parsed).toEqual({ email: 'a@b.example', password: 'x' });
    expect(form.errors).toEqual([]);
  });

  it('puts a prefix before the paths of nested errors and finds them under their parent', async () => {
    await act(() => {
      form.validate(credentialsSchema, { email: 'x', password: 'y' }, 'account');
    });
    expect(fields()).toEqual(['account.email']);
    expect(form.errorsFor('account')).toHaveLength(1);
    expect(form.errorsFor('email')).toEqual([]);
  });

  it('runs a submit: busy while it runs, the result when it succeeds', async () => {
    let finish!: (v: string) => void;
    let result: Promise<string | undefined>;
    await act(() => {
      result = form.run(() => new Promise<string>((r) => (finish = r)));
    });
    expect(form.submitting).toBe(true);
    await act(async () => {
      finish('saved');
      await result;
    });
    expect(await result!).toBe('saved');
    expect(form.submitting).toBe(false);
  });

  it("shows a failed submit's field errors, with the prefix and the extra errors", async () => {
    const apiError = {
      name: 'ApiError',
      key: 'validation',
      fields: [{ field: 'name', key: 'validation.required', params: { name: 'name' } }],
    };
    const extra: FieldError = { field: 'email', key: 'validation.email_is_used' };
    let result: unknown = 'not set';
    await act(async () => {
      result = await form.run(() => Promise.reject(apiError), {
        prefix: 'service',
        onError: () => [extra],
      });
    });
    expect(result).toBeUndefined();
    expect(form.submitting).toBe(false);
    expect(fields()).toEqual(['email', 'service.name']);

    // A failure that is no API error and brings no extra errors changes nothing.
    await act(() => form.clearErrors('email'));
    await act(async () => {
      await form.run(() => Promise.reject(new Error('offline')));
    });
    expect(fields()).toEqual(['service.name']);
  });

  it('reset replaces every value and clears the errors', async () => {
    await act(() => form.setErrors([{ field: 'email', key: 'validation.required' }]));
    expect(fields()).toEqual(['email']);
    const loaded = { email: 'e@x.example', password: '', account: { phone: '1', consent: true } };
    await act(() => form.reset(loaded));
    expect(form.values).toEqual(loaded);
    expect(form.errors).toEqual([]);
  });
});
