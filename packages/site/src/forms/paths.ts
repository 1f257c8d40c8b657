/** Reads a dotted path (`account.email`) out of a nested object. */
export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** A copy of `obj` with the value at a dotted path replaced; the objects on the way are copied. */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const source = (obj ?? {}) as Record<string, unknown>;
  return {
    ...source,
    [head!]: rest.length ? setPath(source[head!], rest.join('.'), value) : value,
  } as T;
}

/** The DOM id of a form field: `<form>-<path with dashes>`. */
export const fieldId = (formId: string, path: string): string =>
  `${formId}-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
