import { createContext, useContext } from 'react';
import type { LocaleCode, Translate } from '@poruch/core';
import type { Api } from '@poruch/core/lite';

/** What a widget's state attribute says: `state="loading|ready|error"`. */
export type WidgetState = 'loading' | 'ready' | 'error';

/** What every widget component gets from {@link useWidget}. */
export interface WidgetContextValue {
  /** Core's API client: public calls without credentials, at `api-base`. */
  api: Api;
  /** Translates a key in the widget's language. */
  t: Translate;
  /** The widget's language (`ua` or `en_GB`). */
  lang: LocaleCode;
  /** The site root the API lives under, with a trailing slash; profile links point there. */
  siteBase: string;
  /**
   * Dispatches `poruch:<name>` (bubbles, composed, cancelable) from the custom element, or from
   * the shadow host in a React app, and calls the component's `on<Name>` prop. Returns false
   * when a listener called `preventDefault()`.
   */
  emit: <T>(name: string, detail: T) => boolean;
  /** Sets the `state` attribute and fires `poruch:ready` or `poruch:error` on a change. */
  setState: (state: WidgetState, error?: unknown) => void;
  /** The element carrying the attributes and events: the custom element, or the shadow host. */
  host: () => HTMLElement | null;
  /** True when the widget is embedded in a page of another origin than `api-base`. */
  embedded: boolean;
}

export const WidgetContext = createContext<WidgetContextValue | null>(null);

/** The widget's API client, translator, language, events and state; only inside a WidgetShell. */
export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext);
  if (!value) throw new Error('[poruch] useWidget() is only available inside <WidgetShell>.');
  return value;
}
