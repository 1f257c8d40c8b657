import { act, cleanup, render } from '@testing-library/react';
import { fireEvent, waitFor, within } from '@testing-library/dom';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressDetails } from '@poruch/core';
import { createApi } from '@poruch/core/lite';
import { apiServerForSuite } from '../../__tests__/helpers/apiServer.js';
import {
  fetchAddressSuggestions,
  SUGGEST_DELAY_MS,
  suggestionAddress,
} from '../../dashboard/serviceFormModel.js';
import { AddressCombobox } from '../AddressCombobox.js';

const api = apiServerForSuite();

afterEach(cleanup);

type Suggest = (text: string, signal: AbortSignal) => Promise<readonly AddressDetails[]>;

/** The combobox as a form holds it: the text, and what was picked. */
function Harness({ suggest }: { suggest: Suggest }) {
  const [value, setValue] = useState('');
  const [picked, setPicked] = useState<AddressDetails | null>(null);
  return (
    <>
      <label htmlFor="address">Address</label>
      <AddressCombobox
        id="address"
        value={value}
        onChange={setValue}
        onPick={(c) => {
          setPicked(c);
          setValue(suggestionAddress(value, c));
        }}
        suggest={suggest}
        listLabel="Suggested places"
        shownMessage="Suggestions available"
      />
      <p data-testid="picked">{picked?.displayName ?? ''}</p>
    </>
  );
}

const place = (city: string, country = 'DE'): AddressDetails => ({
  lat: 50,
  lng: 8,
  displayName: `${city}, ${country}`,
  city,
  countryCode: country,
  approximate: true,
  source: 'gazetteer',
});

/** A suggest function that records its calls and answers when told to. */
function controlled() {
  const calls: { text: string; signal: AbortSignal; answer(list: AddressDetails[]): void }[] = [];
  const suggest: Suggest = (text, signal) =>
    new Promise((resolve) => calls.push({ text, signal, answer: resolve }));
  return { calls, suggest };
}

const setup = (suggest: Suggest) => {
  const ui = within(render(<Harness suggest={suggest} />).container);
  return { ui, input: ui.getByRole('combobox', { name: 'Address' }) as HTMLInputElement };
};

const type = (input: HTMLInputElement, text: string) =>
  fireEvent.change(input, { target: { value: text } });
const pause = () => act(() => new Promise((r) => setTimeout(r, SUGGEST_DELAY_MS + 50)));
const key = (input: HTMLElement, k: string) => fireEvent.keyDown(input, { key: k });

describe('AddressCombobox', () => {
  it('asks once per pause in typing, drops a stale answer, and lists the fresh one', async () => {
    const { calls, suggest } = controlled();
    const { ui, input } = setup(suggest);
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    const list = document.getElementById(input.getAttribute('aria-controls')!)!;
    expect(list.getAttribute('role')).toBe('listbox');

    type(input, 'N');
    type(input, 'Ne');
    type(input, 'Neu');
    await pause();
    expect(calls.map((c) => c.text)).toEqual(['Neu']);

    type(input, 'Neus');
    expect(calls[0]!.signal.aborted).toBe(true);
    await pause();
    expect(calls.map((c) => c.text)).toEqual(['Neu', 'Neus']);
    // The first answer arrives late: it is not shown.
    await act(async () => calls[0]!.answer([place('Neubrandenburg')]));
    expect(input.getAttribute('aria-expanded')).toBe('false');
    await act(async () => calls[1]!.answer([place('Neuss'), place('Neustadt')]));
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(ui.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Neuss, DE',
      'Neustadt, DE',
    ]);
    expect(ui.getByRole('status').textContent).toBe('Suggestions available');
  });

  it('moves with Down and Up, takes one with Enter, closes with Escape', async () => {
    const { calls, suggest } = controlled();
    const { ui, input } = setup(suggest);
    type(input, 'Hauptstraße 1, Neus');
    await pause();
    await act(async () => calls[0]!.answer([place('Neuss'), place('Neustadt')]));
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);

    key(input, 'ArrowDown');
    const active = () => document.getElementById(input.getAttribute('aria-activedescendant')!);
    expect(active()?.textContent).toBe('Neuss, DE');
    expect(active()?.getAttribute('aria-selected')).toBe('true');
    key(input, 'ArrowDown');
    expect(active()?.textContent).toBe('Neustadt, DE');
    key(input, 'ArrowDown');
    expect(active()?.textContent).toBe('Neuss, DE');
    key(input, 'ArrowUp');
    expect(active()?.textContent).toBe('Neustadt, DE');

    key(input, 'Escape');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.hasAttribute('aria-activedescendant')).toBe(false);
    // Down opens the list again.
    key(input, 'ArrowDown');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    key(input, 'ArrowDown');
    key(input, 'Enter');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(ui.getByTestId('picked').textContent).toBe('Neustadt, DE');
    expect(input.value).toBe('Hauptstraße 1, Neustadt, DE');
  });

  it('takes a suggestion with the mouse, and asks nothing for text without a word', async () => {
    const { calls, suggest } = controlled();
    const { ui, input } = setup(suggest);
    type(input, '12');
    await pause();
    expect(calls).toEqual([]);
    type(input, 'Krak');
    await pause();
    await act(async () => calls[0]!.answer([place('Kraków', 'PL')]));
    fireEvent.mouseDown(ui.getByRole('option'));
    fireEvent.click(ui.getByRole('option'));
    expect(ui.getByTestId('picked').textContent).toBe('Kraków, PL');
    expect(input.value).toBe('Kraków, PL');
  });

  it('lists what the server suggests', async () => {
    const client = createApi({ baseUrl: api.url });
    // The gazetteer is built on the first lookup (about half a second): not the widget's time.
    expect(
      await fetchAddressSuggestions(client, 'Ber', 'DE', new AbortController().signal),
    ).not.toEqual([]);
    const { ui, input } = setup((text, signal) =>
      fetchAddressSuggestions(client, text, 'DE', signal),
    );
    type(input, 'Hauptstraße 1, Neust');
    await waitFor(() => expect(ui.getAllByRole('option').length).toBeGreaterThan(1));
    expect(ui.getAllByRole('option')[0]!.textContent).toBe('Neustadt, Rheinland-Pfalz, DE');
    key(input, 'ArrowDown');
    key(input, 'Enter');
    expect(input.value).toBe('Hauptstraße 1, Neustadt, Rheinland-Pfalz, DE');
  }, 30_000);
});

describe('suggestionAddress', () => {
  const neustadt = { ...place('Neustadt'), displayName: 'Neustadt, Rheinland-Pfalz, DE' };
  it('replaces what was typed of the town and keeps the street', () => {
    expect(suggestionAddress('Hauptstraße 1, Neus', neustadt)).toBe(
      'Hauptstraße 1, Neustadt, Rheinland-Pfalz, DE',
    );
    expect(suggestionAddress('Hauptstraße 1, 67433 neust', neustadt)).toBe(
      'Hauptstraße 1, 67433 Neustadt, Rheinland-Pfalz, DE',
    );
    expect(suggestionAddress('Marszałkowska 10 Krak', place('Kraków', 'PL'))).toBe(
      'Marszałkowska 10, Kraków, PL',
    );
    // Typed in Ukrainian: the last word is the town.
    expect(suggestionAddress('вул. Пулавська 5, Варш', place('Warsaw', 'PL'))).toBe(
      'вул. Пулавська 5, Warsaw, PL',
    );
  });

  it('takes a street-level geocoder’s full address as it is', () => {
    const full = { ...place('Berlin'), source: 'nominatim', approximate: false } as const;
    expect(
      suggestionAddress('Unter den Linden 7, Ber', { ...full, displayName: 'x, Berlin' }),
    ).toBe('x, Berlin');
  });
});
