import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { useResource, type Resource } from '../useResource.js';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** One call of the load function: its argument, its signal, and how to end it. */
interface Call {
  arg: string;
  signal: AbortSignal;
  resolve: (value: string) => void;
  reject: (error: unknown) => void;
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
});

/** Renders a component using the hook with `arg` as its dependency; every load waits in `calls`. */
function harness() {
  const calls: Call[] = [];
  const seen: Resource<string>[] = [];
  function Probe({ arg }: { arg: string }) {
    const resource = useResource(
      (signal) =>
        new Promise<string>((resolve, reject) => calls.push({ arg, signal, resolve, reject })),
      [arg],
    );
    seen.push(resource);
    return <p>{resource.status}</p>;
  }
  root = createRoot(document.createElement('div'));
  const render = (arg: string) => act(() => root!.render(<Probe arg={arg} />));
  const last = () => seen[seen.length - 1]!;
  return { calls, render, last };
}

/** Lets the settled promises' callbacks run and React re-render. */
const settle = () => act(() => Promise.resolve());

/** Ends a load with its answer, then lets React render what follows. */
async function answer(call: Call | undefined, value: string) {
  call!.resolve(value);
  await settle();
}

/** Ends a load with a failure, then lets React render what follows. */
async function fail(call: Call | undefined, error: unknown) {
  call!.reject(error);
  await settle();
}

describe('useResource', () => {
  it('loads, then keeps the data on screen while a reload runs', async () => {
    const { calls, render, last } = harness();
    render('a');
    expect(last()).toMatchObject({ status: 'loading', data: undefined, error: undefined });
    await answer(calls[0], 'A1');
    expect(last()).toMatchObject({ status: 'ready', data: 'A1' });

    act(() => last().reload());
    expect(calls).toHaveLength(2);
    expect(last()).toMatchObject({ status: 'loading', data: 'A1' });
    await answer(calls[1], 'A2');
    expect(last()).toMatchObject({ status: 'ready', data: 'A2' });
  });

  it('lets the newest load win: a change of deps aborts the running load', async () => {
    const { calls, render, last } = harness();
    render('a');
    render('b');
    expect(calls.map((c) => c.arg)).toEqual(['a', 'b']);
    expect(calls[0]!.signal.aborted).toBe(true);
    expect(calls[1]!.signal.aborted).toBe(false);

    await answer(calls[1], 'B');
    await answer(calls[0], 'A, late');
    expect(last()).toMatchObject({ status: 'ready', data: 'B' });
  });

  it('lets the newest load win over a reload that answers late', async () => {
    const { calls, render, last } = harness();
    render('a');
    act(() => last().reload());
    expect(calls[0]!.signal.aborted).toBe(true);
    await answer(calls[1], 'second');
    await fail(calls[0], new Error('first, late'));
    expect(last()).toMatchObject({ status: 'ready', data: 'second', error: undefined });
  });

  it('aborts the running load on unmount and drops its answer', async () => {
    const { calls, render, last } = harness();
    render('a');
    const before = last();
    act(() => root!.unmount());
    root = undefined;
    expect(calls[0]!.signal.aborted).toBe(true);
    await answer(calls[0], 'too late');
    expect(last()).toBe(before);
  });

  it('applies setData when ready, and not while loading', async () => {
    const { calls, render, last } = harness();
    render('a');
    act(() => last().setData((d) => `${d}!`));
    expect(last()).toMatchObject({ status: 'loading', data: undefined });
    await answer(calls[0], 'A');
    act(() => last().setData((d) => `${d}, changed`));
    expect(last()).toMatchObject({ status: 'ready', data: 'A, changed' });
    expect(calls).toHaveLength(1);
  });

  it('shows a failure with the last data, and a retry that succeeds clears it', async () => {
    const { calls, render, last } = harness();
    render('a');
    await answer(calls[0], 'A');
    const failure = new Error('503');
    act(() => last().reload());
    await fail(calls[1], failure);
    expect(last()).toMatchObject({ status: 'error', data: 'A', error: failure });

    act(() => last().reload());
    expect(last()).toMatchObject({ status: 'loading', data: 'A', error: failure });
    await answer(calls[2], 'A again');
    expect(last()).toMatchObject({ status: 'ready', data: 'A again', error: undefined });
  });

  it('takes an AbortError of the call for no failure', async () => {
    const { calls, render, last } = harness();
    render('a');
    await fail(calls[0], new DOMException('aborted', 'AbortError'));
    expect(last()).toMatchObject({ status: 'loading', error: undefined });
  });
});
