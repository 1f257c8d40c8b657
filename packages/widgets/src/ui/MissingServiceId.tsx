import { useEffect } from 'react';
import { ErrorState } from '../shared/ErrorState.js';
import { useWidget } from '../shared/WidgetContext.js';
import { ApiError } from '@poruch/core/lite';
import { warnOnce } from '../warnOnce.js';

/**
 * What a widget that needs `service-id` shows without one: the translated "not found" error
 * state for the visitor, and a `[poruch]` warning for the page's developer.
 */
export function MissingServiceId({ tag }: { tag: string }) {
  const { setState } = useWidget();
  useEffect(() => {
    warnOnce(`<${tag}> needs a service-id attribute.`);
    setState('error');
  }, [tag, setState]);
  return <ErrorState error={new ApiError(0, 'resource_was_not_found')} />;
}
