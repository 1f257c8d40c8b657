import { cleanup, render } from '@testing-library/react';
import { fireEvent, within } from '@testing-library/dom';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs } from '../Tabs.js';

afterEach(cleanup);

const TABS = [
  { id: 'one', label: 'One', panel: <p>First panel</p> },
  { id: 'two', label: 'Two', panel: <p>Second panel</p> },
  { id: 'three', label: 'Three', panel: <p>Third panel</p> },
];

function Harness({ initial }: { initial: string }) {
  const [selected, setSelected] = useState(initial);
  return <Tabs label="Sections" tabs={TABS} selected={selected} onSelect={setSelected} />;
}

/** Which tabs are in the tab order, and which is selected, as the first render left them. */
const roving = (tabs: HTMLElement[]) =>
  tabs.map((t) => [t.textContent, t.tabIndex, t.getAttribute('aria-selected')]);

describe('Tabs (roving tabindex)', () => {
  it('puts exactly the selected tab in the tab order on the first render', () => {
    const ui = within(render(<Harness initial="two" />).container);
    expect(roving(ui.getAllByRole('tab'))).toEqual([
      ['One', -1, 'false'],
      ['Two', 0, 'true'],
      ['Three', -1, 'false'],
    ]);
    expect(ui.getByRole('tabpanel').textContent).toBe('Second panel');
  });

  it('falls back to the first tab when `selected` names no tab, so the list stays reachable', () => {
    const ui = within(render(<Harness initial="nope" />).container);
    expect(roving(ui.getAllByRole('tab'))).toEqual([
      ['One', 0, 'true'],
      ['Two', -1, 'false'],
      ['Three', -1, 'false'],
    ]);
    expect(ui.getByRole('tabpanel').textContent).toBe('First panel');
  });

  it('moves the focus and the selection with the arrow keys, Home and End, wrapping round', async () => {
    const ui = within(render(<Harness initial="one" />).container);
    const tab = (name: string) => ui.getByRole('tab', { name });
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key });
    tab('One').focus();
    const steps: [string, string][] = [
      ['ArrowRight', 'Two'],
      ['ArrowRight', 'Three'],
      ['ArrowRight', 'One'],
      ['ArrowLeft', 'Three'],
      ['Home', 'One'],
      ['End', 'Three'],
    ];
    for (const [key, name] of steps) {
      press(key);
      await ui.findByRole('tab', { name, selected: true });
      expect(document.activeElement).toBe(tab(name));
      expect(tab(name).tabIndex).toBe(0);
      expect(ui.getAllByRole('tab').filter((t) => t.tabIndex === 0)).toHaveLength(1);
    }
  });
});
