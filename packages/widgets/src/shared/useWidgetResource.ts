import { useEffect } from 'react';
import { useResource, type Resource } from '../useResource.js';
import { useWidget, type WidgetContextValue } from './WidgetContext.js';

/**
 * {@link useResource} for a widget: the load receives the widget's context (`api`, …), the
 * data is loaded again when the API changes, and the widget's `state` attribute follows the
 * load: `loading`, then `ready` or `error`.
 *
 * @param load Receives the context and an AbortSignal to pass to the call.
 * @param deps When any changes, the data is loaded again. Defaults to none.
 */
export function useWidgetResource<T>(
  load: (ctx: WidgetContextValue, signal: AbortSignal) => Promise<T>,
  deps: readonly unknown[] = [],
): Resource<T> {
  const ctx = useWidget();
  const resource = useResource((signal) => load(ctx, signal), [ctx.api, ...deps]);
  const { status, error } = resource;
  const { setState } = ctx;
  useEffect(() => setState(status, error), [setState, status, error]);
  return resource;
}
