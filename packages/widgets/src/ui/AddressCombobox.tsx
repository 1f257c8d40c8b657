import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { AddressDetails } from '@poruch/core';
import { SUGGEST_DELAY_MS, wantsSuggestions } from '../dashboard/serviceFormModel.js';

export interface AddressComboboxProps {
  /** Set by the field frame around it (label `for`); a generated one otherwise. */
  id?: string;
  value: string;
  /** The user typed: the text as it is now. */
  onChange: (text: string) => void;
  /** The user took a suggestion: it is a complete candidate, no lookup is needed after it. */
  onPick: (candidate: AddressDetails) => void;
  /** Asks the geocoder for places matching the text; aborted when the user types on. */
  suggest: (text: string, signal: AbortSignal) => Promise<readonly AddressDetails[]>;
  /** The list's accessible name, translated ("Suggested places"). */
  listLabel: string;
  /** Read by screen readers when suggestions appear, translated. */
  shownMessage: string;
  required?: boolean;
  maxLength?: number;
  autoComplete?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/**
 * The address input with suggestions while the user types, after the WAI-ARIA combobox pattern
 * (list autocomplete): a pause in typing asks for places (an earlier request still running is
 * aborted), Down and Up move through them, Enter or a click takes one, Escape closes the list.
 * Shared by the site's service form and the dashboard widget's.
 */
export function AddressCombobox(props: AddressComboboxProps) {
  const { value, onChange, onPick, suggest, listLabel, shownMessage } = props;
  const generated = useId();
  const id = props.id ?? generated;
  const listId = `${id}-suggestions`;
  const [options, setOptions] = useState<readonly AddressDetails[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>(
    {},
  );

  const cancel = () => {
    clearTimeout(pending.current.timer);
    pending.current.controller?.abort();
    pending.current = {};
  };
  useEffect(() => cancel, []);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  const typed = (text: string) => {
    onChange(text);
    cancel();
    close();
    if (!wantsSuggestions(text)) {
      setOptions([]);
      return;
    }
    const controller = new AbortController();
    pending.current.controller = controller;
    pending.current.timer = setTimeout(() => {
      suggest(text, controller.signal).then(
        (found) => {
          if (controller.signal.aborted) return;
          setOptions(found);
          setOpen(found.length > 0);
          setActive(-1);
        },
        // A failed or aborted suggestion leaves the field as typed; "Find" still works.
        () => undefined,
      );
    }, SUGGEST_DELAY_MS);
  };

  const pick = (candidate: AddressDetails) => {
    cancel();
    close();
    setOptions([]);
    onPick(candidate);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const count = options.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!count) return;
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      if (!open) {
        setOpen(true);
        setActive(step === 1 ? 0 : count - 1);
      } else setActive((i) => (i < 0 ? (step === 1 ? 0 : count - 1) : (i + step + count) % count));
    } else if (e.key === 'Enter' && open && active >= 0 && options[active]) {
      e.preventDefault();
      pick(options[active]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      close();
    }
  };

  const expanded = open && options.length > 0;
  return (
    <div className="combobox">
      <input
        id={id}
        name={id}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={props['aria-invalid']}
        aria-describedby={props['aria-describedby']}
        value={value}
        required={props.required}
        maxLength={props.maxLength}
        autoComplete={props.autoComplete ?? 'off'}
        onChange={(e) => typed(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onBlur={() => {
          // Leaving the field (to "Find", say) also drops a suggestion still on its way.
          cancel();
          close();
        }}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={listLabel}
        className="combobox__list"
        part="suggestions"
        hidden={!expanded}
      >
        {options.map((c, i) => (
          <li
            key={`${c.lat},${c.lng},${i}`}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`combobox__option${i === active ? ' combobox__option--active' : ''}`}
            // Keeps the focus in the input, so the list is not closed by its blur first.
            onMouseDown={(e) => e.preventDefault()}
            onMouseMove={() => setActive(i)}
            onClick={() => pick(c)}
          >
            {c.displayName}
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status">
        {expanded ? shownMessage : ''}
      </span>
    </div>
  );
}
