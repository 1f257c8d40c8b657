import { useEffect, useRef, useState, type DependencyList } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';

/** Anything with a store and a destroy: a widget's connector. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any state; StateOf<C> recovers it.
export interface Connector<S extends object = any> {
  readonly store: StoreApi<S>;
  destroy(): void;
}

/** The state type of a connector. */
export type StateOf<C> = C extends Connector<infer S> ? S : never;

const destroyed = new WeakSet<object>();

/**
 * A connector for the life of a component: made once, made again when `deps` change, and
 * destroyed (calls aborted, timers cleared) when they change or the component unmounts.
 * Connectors start no work when created, so a replaced one costs nothing.
 */
export function useConnector<C extends Connector>(
  create: () => C,
  deps: DependencyList,
): [StateOf<C>, C] {
  const [connector, setConnector] = useState(create);
  const first = useRef(true);
  useEffect(() => {
    let current = connector;
    // Changed deps, or StrictMode's second mount after the first one's cleanup.
    if (!first.current || destroyed.has(current)) {
      current = create();
      setConnector(current);
    }
    first.current = false;
    return () => {
      destroyed.add(current);
      current.destroy();
    };
    // `create` is a new function every render; `deps` stand for what it reads.
  }, deps);
  return [useStore(connector.store as StoreApi<StateOf<C>>), connector];
}
