import { describe, expect, it } from 'vitest';
import {
  ApiError,
  STATUS_KEYS,
  createI18n,
  errorKey,
  isAbort,
  isApiError,
  translateError,
  translator,
} from '../../index.js';

const en = translator(createI18n('en_GB'));
const ua = translator(createI18n('ua'));

describe('errorKey', () => {
  it('body.errors.message wins over the status text', () => {
    expect(errorKey(401, 'Unauthorized', { errors: { message: 'wrong_user_or_password' } })).toBe(
      'wrong_user_or_password',
    );
  });

  it('without a catalogue body: the status text lower-cased with underscores', () => {
    expect(errorKey(500, 'Internal Server Error', undefined)).toBe('internal_server_error');
    expect(errorKey(404, 'Not Found', 'Not Found')).toBe('not_found');
    expect(errorKey(400, 'Bad Request', { errors: {} })).toBe('bad_request');
    expect(errorKey(418, "I'm a Teapot", null)).toBe("i'm_a_teapot");
  });

  it('without a status text (HTTP/2): the standard key of the status', () => {
    expect(errorKey(404, '', undefined)).toBe('not_found');
    expect(errorKey(503, '', undefined)).toBe('service_unavailable');
    expect(errorKey(599, '', undefined)).toBe('unknown_error');
  });

  it("the table's keys are what the standard status texts give, and all are translated", () => {
    const texts: Record<number, string> = {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      405: 'Method Not Allowed',
      408: 'Request Timeout',
      409: 'Conflict',
      413: 'Payload Too Large',
      415: 'Unsupported Media Type',
      422: 'Unprocessable Entity',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
      504: 'Gateway Timeout',
    };
    expect(Object.keys(STATUS_KEYS).map(Number)).toEqual(Object.keys(texts).map(Number));
    for (const [status, key] of Object.entries(STATUS_KEYS)) {
      expect(errorKey(Number(status), texts[Number(status)]!, undefined)).toBe(key);
      expect(en(`error.${key}`), key).not.toMatch(/^Missing translation/);
      expect(ua(`error.${key}`), key).not.toMatch(/^Missing translation/);
    }
  });
});

describe('ApiError', () => {
  it('carries status, key, detail key, well-formed fields and the body', () => {
    const body = {
      statusCode: 400,
      errors: {
        message: 'validation_failed',
        fields: [
          { field: 'account.email', key: 'validation.email', params: { email: 'a@b.co' } },
          { nonsense: true },
          { field: 'firstName', key: 'validation.required', params: { bad: {} } },
          { field: 'lastName', key: 'validation.required' },
        ],
      },
      error: { message: 'terms_not_agreed' },
    };
    const e = new ApiError(400, errorKey(400, 'Bad Request', body), body);
    expect(e).toBeInstanceOf(Error);
    expect(isApiError(e)).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(isApiError({ name: 'ApiError', key: 'not_found' })).toBe(true);
    expect(e.name).toBe('ApiError');
    expect(e.message).toBe('[poruch] request failed: validation_failed');
    expect(e.status).toBe(400);
    expect(e.key).toBe('validation_failed');
    expect(e.detailKey).toBe('terms_not_agreed');
    expect(e.body).toEqual(body);
    expect(e.fields).toEqual([
      { field: 'account.email', key: 'validation.email', params: { email: 'a@b.co' } },
      { field: 'lastName', key: 'validation.required' },
    ]);
    expect(e.fieldErrors('account.email')).toHaveLength(1);
    expect(e.fieldErrors('other')).toEqual([]);
  });

  it('without a catalogue body: no body, no fields, no detail', () => {
    const e = new ApiError(502, 'bad_gateway', '<html>');
    expect(e.body).toBeUndefined();
    expect(e.fields).toEqual([]);
    expect(e.detailKey).toBeUndefined();
  });

  it('isAbort tells an abort from a failure', () => {
    expect(isAbort(new DOMException('stop', 'AbortError'))).toBe(true);
    expect(isAbort(new ApiError(0, 'network_error'))).toBe(false);
    expect(isAbort(undefined)).toBe(false);
  });
});

describe('translateError', () => {
  it('summary from the key, detail from the detail key', () => {
    const body = { errors: { message: 'not_found' }, error: { message: 'resource_was_not_found' } };
    expect(translateError(new ApiError(404, errorKey(404, 'Not Found', body), body), en)).toEqual({
      summary: 'Not found',
      detail: 'Contact the administrator',
    });
    expect(translateError(new ApiError(401, 'wrong_user_or_password'), ua)).toEqual({
      summary: 'Неправильна електронна пошта або пароль',
    });
  });

  it('anything but an ApiError is an unknown_error; a missing translation says so', () => {
    expect(translateError(new TypeError('x'), en).summary).toBe(en('error.unknown_error'));
    expect(translateError(new ApiError(418, "i'm_a_teapot"), en).summary).toBe(
      "Missing translation: error.i'm_a_teapot",
    );
    const odd = new ApiError(400, 'bad_request', { errors: {}, error: { message: 'odd thing' } });
    expect(translateError(odd, en).detail).toBe('Missing translation: error.odd thing');
  });
});
