/** The prefix of every event a Poruch widget dispatches. */
export const EVENT_PREFIX = 'poruch:';

/**
 * Dispatches a `poruch:<name>` CustomEvent from a widget element.
 *
 * `bubbles` and `composed` are set so that the event leaves the widget's shadow root and reaches
 * listeners on the host page (`document.addEventListener('poruch:select', …)`).
 *
 * @param el The element the event starts from: the custom element or a node inside its shadow root.
 * @param name The event name without the prefix, e.g. `select`.
 * @param detail The payload, available as `event.detail`.
 * @returns `false` when a listener called `preventDefault()` (the event is cancelable).
 */
export function emit<T>(el: EventTarget, name: string, detail: T): boolean {
  return el.dispatchEvent(
    new CustomEvent<T>(`${EVENT_PREFIX}${name}`, {
      detail,
      bubbles: true,
      composed: true,
      cancelable: true,
    }),
  );
}
