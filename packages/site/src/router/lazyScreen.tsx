import { lazy, type ComponentType, type ReactElement } from 'react';

/** A screen loaded on demand that can also be loaded ahead of its first render. */
export type LazyScreen = (() => ReactElement) & {
  /** Starts loading the screen's code (once); resolves when it is there. */
  preload(): Promise<void>;
};

/**
 * Like `React.lazy`, plus `preload()`: main.tsx loads the first screen's chunk before the first
 * render, so that render shows the screen at once instead of the loading fallback. The
 * prerendered HTML (scripts/prerender.mjs) then stays on screen until React replaces it with the
 * same content, with no spinner between them. Once loaded, the screen renders without suspending.
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loaded: ComponentType | undefined;
  let pending: Promise<{ default: ComponentType }> | undefined;
  const start = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        // A failed chunk (offline) may be retried by the next render.
        pending = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(start);
  function Screen() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  Screen.preload = () => start().then(() => undefined);
  return Screen;
}
