import { describe, expect, it } from 'vitest';
import { fieldId, getPath, setPath } from '../paths.js';

describe('getPath', () => {
  const values = { account: { email: 'a@b.c', phone: '' }, service: { tags: ['x'] }, n: 0 };

  it('reads nested values by a dotted path', () => {
    expect(getPath(values, 'account.email')).toBe('a@b.c');
    expect(getPath(values, 'account.phone')).toBe('');
    expect(getPath(values, 'n')).toBe(0);
    expect(getPath(values, 'service.tags.0')).toBe('x');
  });

  it('gives undefined for a path that leaves the object', () => {
    expect(getPath(values, 'account.email.length.x')).toBeUndefined();
    expect(getPath(values, 'missing.deeper')).toBeUndefined();
    expect(getPath(null, 'a')).toBeUndefined();
  });
});

describe('setPath', () => {
  it('replaces one value and copies only the objects on the way', () => {
    const before = { account: { email: 'a', phone: '1' }, service: { name: 'n' } };
    const after = setPath(before, 'account.email', 'b');
    expect(after).toEqual({ account: { email: 'b', phone: '1' }, service: { name: 'n' } });
    expect(before.account.email).toBe('a');
    expect(after.account).not.toBe(before.account);
    expect(after.service).toBe(before.service);
  });

  it('creates the objects a new path needs', () => {
    expect(setPath({}, 'a.b.c', 1)).toEqual({ a: { b: { c: 1 } } });
    expect(setPath({ a: 1 }, 'b', false)).toEqual({ a: 1, b: false });
  });
});

describe('fieldId', () => {
  it('joins the form id and the path with dashes, safe for a DOM id', () => {
    expect(fieldId('register', 'account.email')).toBe('register-account-email');
    expect(fieldId('edit', 'service.social[0]')).toBe('edit-service-social-0-');
  });
});
