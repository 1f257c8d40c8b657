import { waitFor } from '@testing-library/dom';

/**
 * The shadow root holding a widget's content (the `.poruch-shell` of react-shadow), found
 * through any number of shadow roots below `from` (the custom element adds one).
 */
export function findFrameRoot(from: ParentNode): ShadowRoot | null {
  const stack: ParentNode[] = [from];
  if (from instanceof Element && from.shadowRoot) stack.push(from.shadowRoot);
  while (stack.length) {
    const node = stack.pop()!;
    for (const el of Array.from(node.querySelectorAll('*'))) {
      if (el.classList.contains('poruch-shell') && el.shadowRoot) return el.shadowRoot;
      if (el.shadowRoot) stack.push(el.shadowRoot);
    }
  }
  return null;
}

/** Waits until the widget has rendered its frame and returns its `.poruch-root` element. */
export async function widgetRoot(from: ParentNode): Promise<HTMLElement> {
  return waitFor(
    () => {
      const root = findFrameRoot(from)?.querySelector<HTMLElement>('.poruch-root');
      if (!root) throw new Error('the widget has not rendered yet');
      return root;
    },
    { timeout: 5000 },
  );
}

/**
 * The `state` attribute of the widget: on the custom element, or (React) on the shadow host,
 * where the shell sets it when there is no element.
 */
export function stateOf(from: HTMLElement): string | null {
  if (from.hasAttribute('state')) return from.getAttribute('state');
  const root = findFrameRoot(from);
  return (root?.host as HTMLElement | undefined)?.getAttribute('state') ?? null;
}
