import { describe, expect, it } from 'vitest';
import { ApiError, createI18n, isApiError, normalizeError, translator } from '../../index.js';

const en = translator(createI18n('en_GB'));
const ua = translator(createI18n('ua'));

describe('normalizeError', () => {
  it('summary from body.errors.message, detail from body.error.message', () => {
    const body = {
      statusCode: 404,
      errors: { message: 'not_found' },
      error: { message: 'resource_was_not_found' },
    };
    expect(normalizeError(404, 'Not Found', body, en)).toEqual({
      key: 'not_found',
      summary: 'Request not found',
      detail: 'Contact the administrator',
      detailKey: 'resource_was_not_found',
      fields: [],
    });
  });

  it('body.errors.message wins over the status text', () => {
    const n = normalizeError(
      401,
      'Unauthorized',
      { errors: { message: 'wrong_user_or_password' } },
      ua,
    );
    expect(n.key).toBe('wrong_user_or_password');
    expect(n.summary).toBe('Неправильна електронна пошта або пароль');
    expect(n.detail).toBeUndefined();
  });

  it('without a body: the status text lower-cased with underscores', () => {
    expect(normalizeError(500, 'Internal Server Error', undefined, en)).toMatchObject({
      key: 'internal_server_error',
      summary: 'System error',
      fields: [],
    });
    expect(normalizeError(404, 'Not Found', 'Not Found', en).key).toBe('not_found');
    expect(normalizeError(400, 'Bad Request', { errors: {} }, en).key).toBe('bad_request');
  });

  it('a status text without translation shows the missing-translation text', () => {
    expect(normalizeError(418, "I'm a Teapot", null, en).summary).toBe(
      "Missing translation: error.i'm_a_teapot",
    );
  });

  it('a detail key without translation shows the missing-translation text', () => {
    const n = normalizeError(
      400,
      'Bad Request',
      { errors: { message: 'bad_request' }, error: { message: 'odd thing' } },
      en,
    );
    expect(n.detail).toBe('Missing translation: error.odd thing');
  });

  it('without a status text (HTTP/2): the standard key of the status', () => {
    expect(normalizeError(404, '', undefined, en).key).toBe('not_found');
    expect(normalizeError(503, '', undefined, en).summary).toBe(
      'The service is unavailable: try again later',
    );
    expect(normalizeError(599, '', undefined, en).key).toBe('unknown_error');
  });

  it('keeps well-formed field errors and drops the rest', () => {
    const body = {
      statusCode: 400,
      errors: {
        message: 'validation_failed',
        fields: [
          { field: 'email', key: 'validation.email', params: { email: 'name@example.com' } },
          { nonsense: true },
          { field: 'firstName', key: 'validation.required' },
        ],
      },
    };
    const n = normalizeError(400, 'Bad Request', body, en);
    expect(n.summary).toBe('Check the highlighted fields');
    expect(n.fields).toEqual([
      { field: 'email', key: 'validation.email', params: { email: 'name@example.com' } },
      { field: 'firstName', key: 'validation.required' },
    ]);
  });
});

describe('ApiError', () => {
  it('carries status, key, summary, detail, fields and the body', () => {
    const body = {
      statusCode: 400,
      errors: {
        message: 'validation_failed',
        fields: [{ field: 'account.email', key: 'validation.email' }],
      },
      error: { message: 'terms_not_agreed' },
    };
    const e = new ApiError(400, normalizeError(400, 'Bad Request', body, en), body);
    expect(e).toBeInstanceOf(Error);
    expect(isApiError(e)).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(e.name).toBe('ApiError');
    expect(e.message).toBe('Check the highlighted fields');
    expect(e.status).toBe(400);
    expect(e.key).toBe('validation_failed');
    expect(e.detail).toBe('You must agree to the terms and conditions');
    expect(e.body).toEqual(body);
    expect(e.fieldErrors('account.email')).toEqual([
      { field: 'account.email', key: 'validation.email' },
    ]);
    expect(e.fieldErrors('other')).toEqual([]);
  });
});
