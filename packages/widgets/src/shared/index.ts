/**
 * # Shared widget infrastructure
 *
 * Every `<poruch-*>` widget is a React component rendered inside a shadow root (react-shadow),
 * with a thin custom element around it. This folder holds everything they share.
 *
 * ## Adding a widget (`<poruch-thing>`)
 *
 * 1. `src/thing/PoruchThing.tsx`: the wired React component. Wrap the content in
 *    {@link WidgetShell}; inside, {@link useWidget} gives `api`, `t`, `lang`, `emit`,
 *    `setState`, `siteBase` and `embedded`.
 *
 *    ```tsx
 *    export interface ThingProps extends WidgetBaseProps { serviceId?: string; onSelect?: (d: X) => void }
 *    export function PoruchThing(props: ThingProps) {
 *      return (
 *        <WidgetShell {...props} styles={thingStyles} parts={THING_PARTS} handlers={props}>
 *          <Thing serviceId={props.serviceId} />
 *        </WidgetShell>
 *      );
 *    }
 *    function Thing({ serviceId }: { serviceId?: string }) {
 *      const { t } = useWidget();
 *      const { data, error, reload } = useWidgetResource(
 *        ({ api }, signal) => api.get<X>(`services/${serviceId}`, { signal }),
 *        [serviceId],
 *      );
 *      if (error) return <ErrorState error={error} onRetry={reload} />;
 *      …
 *    }
 *    ```
 *
 *    - `useWidgetResource` loads, aborts on change/unmount and sets `state="loading|ready|error"`;
 *      or call `setState` yourself.
 *    - `emit('select', detail)` dispatches `poruch:select` (bubbles, composed) from the
 *      element, and calls the `onSelect` prop in a React app.
 *    - Styles: start from {@link SHELL_STYLES} (added for you) and use `themeVar('--poruch-…')`.
 *      Every `part="…"` name you use goes in `parts`, so `::part()` reaches it.
 *    - Text: `t('widget.…')`, keys in core's `locales/{ua,en_GB}.json`. `common`, `error` and
 *      `widget` are always there; pass the other namespaces as a module-level constant:
 *      `const MESSAGES = [categoryMessages, vacanciesMessages]` → `<WidgetShell messages={MESSAGES}>`
 *      (messages.ts), so each page downloads only the translations its widgets use, in the
 *      language they show (the shell renders the content once that language's chunks are in).
 *    - Effects clean up after themselves: the element unmounts the tree when removed.
 * 2. `src/thing/element.ts`: `export const PoruchThingElement = defineWidget({ tag:
 *    'poruch-thing', component: PoruchThing, attributes: { 'service-id': 'string' } })`. The
 *    loader imports this file when the tag first appears; it must define the element and do
 *    nothing else.
 * 3. One line in `src/loader/elements.ts` (tag → `import('../thing/element.js')`, the reserved
 *    height, the English chunk) and one in shared/english.ts: the English chunk is
 *    `shared/messages/en_GB/widgets/thing.ts`, which exports every namespace the widget shows
 *    (one request on an English page; a namespace left out still loads, from its own chunk).
 * 4. The tag in {@link WIDGET_TAGS} (shared/tags.ts), its element type in types/elements.ts; the
 *    component and element in `src/index.ts`; a section in docs/embedding.md.
 *
 * The API client is core's `createApi` (`@poruch/core/lite`: fetch, no zod), the same one the
 * site's `createApiClient` is built on; failures are core's `ApiError`. Do not use
 * `createApiClient` or `createI18n` in a widget: they bring the toast store, i18next and every
 * translation. {@link loadWidgetI18n} keeps the i18n rules at a fraction of the size.
 */
export { loadWidgetI18n, loadedWidgetI18n } from './createWidgetI18n.js';
export { provideWidgetMessages } from './messages/arrived.js';
export type { WidgetI18n } from './createWidgetI18n.js';
export * from './messages.js';
export { defineWidget } from './defineWidget.js';
export type { AttributeType, PoruchElement, WidgetDefinition } from './defineWidget.js';
export { ErrorState } from './ErrorState.js';
export type { ErrorStateProps } from './ErrorState.js';
export { resolveLang } from './lang.js';
export { WIDGET_TAGS } from './tags.js';
export type { WidgetTag } from './tags.js';
export { DARK_THEME, HOST_STYLES, SHELL_STYLES, THEME_DEFAULTS, themeVar } from './theme.js';
export type { WidgetTheme } from './theme.js';
export { useWidgetResource } from './useWidgetResource.js';
export { WidgetContext, useWidget } from './WidgetContext.js';
export type { WidgetContextValue, WidgetState } from './WidgetContext.js';
export { WidgetShell, setDefaultApiBase } from './WidgetShell.js';
export type { WidgetBaseProps, WidgetShellProps } from './WidgetShell.js';
