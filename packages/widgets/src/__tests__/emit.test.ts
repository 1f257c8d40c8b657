import { describe, expect, it } from 'vitest';
import { emit } from '../emit.js';

describe('emit', () => {
  it('dispatches a poruch:<name> CustomEvent with the detail', () => {
    const el = document.createElement('div');
    const seen: CustomEvent[] = [];
    el.addEventListener('poruch:select', (e) => seen.push(e as CustomEvent));
    emit(el, 'select', { id: 'svc-1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.detail).toEqual({ id: 'svc-1' });
    expect(seen[0]?.bubbles).toBe(true);
    expect(seen[0]?.composed).toBe(true);
  });

  it('crosses the shadow boundary and reaches the document', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const inner = document.createElement('button');
    host.attachShadow({ mode: 'open' }).append(inner);
    let path: EventTarget[] = [];
    const onReady = (e: Event) => {
      path = e.composedPath();
    };
    document.addEventListener('poruch:ready', onReady);
    try {
      emit(inner, 'ready', null);
    } finally {
      document.removeEventListener('poruch:ready', onReady);
      host.remove();
    }
    // The page's listener ran, and the event travelled out through the host.
    expect(path).toContain(host);
    expect(path).toContain(document);
  });

  it('returns false when a listener cancels the event', () => {
    const el = document.createElement('div');
    el.addEventListener('poruch:submit', (e) => e.preventDefault());
    expect(emit(el, 'submit', {})).toBe(false);
  });
});
