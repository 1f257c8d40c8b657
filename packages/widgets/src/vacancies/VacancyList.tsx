import { useLayoutEffect, useRef, useState } from 'react';
import type { Vacancy, VacancyHit } from '@poruch/core';
import { categoryLabelKey, countryNameKey, type Translate } from '@poruch/core/lite';
import { Flag } from '../ui/Flag.js';
import { SkeletonRows, type SkeletonLine } from '../ui/Skeleton.js';

type Item = Vacancy & { service?: VacancyHit['service'] };

export interface VacancyListProps {
  /** Vacancies; with their employer (search results) or without (one service's profile). */
  items: readonly Item[];
  t: Translate;
  /** Where the flag SVGs are served. */
  flagBase: string;
  /** Hide the employer line: the partner embed shows one employer's vacancies. */
  hideEmployer?: boolean;
  /** Heading level of each vacancy's name. Defaults to 3. */
  headingLevel?: 2 | 3;
  /**
   * Cards of one fixed height (the board: a page takes the place of its loading skeleton without
   * moving the page): one line each for the name, the employer and the facts, two of the texts,
   * and "Show more" for the rest. Defaults to false: every card shows all its text.
   */
  compact?: boolean;
}

/** The vacancies of a page as cards: name, employer, country, experience, salary, texts. */
export function VacancyList(props: VacancyListProps) {
  const { items } = props;
  return (
    <ul className={`vacancy-list${props.compact ? ' vacancy-list--compact' : ''}`} part="list">
      {items.map((v) => (
        <VacancyCard key={v.id} vacancy={v} {...props} />
      ))}
    </ul>
  );
}

function VacancyCard(props: VacancyListProps & { vacancy: Item }) {
  const { vacancy: v, t, flagBase, hideEmployer, headingLevel = 3, compact } = props;
  const [open, setOpen] = useState(false);
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const texts = useRef<HTMLDivElement>(null);
  // "Show more" only when the two lines cut the texts, at the card's width.
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    const el = texts.current;
    if (!compact || !el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (!el.closest('.vacancy--open')) setCut(el.scrollHeight > el.clientHeight + 1);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [compact]);
  return (
    <li
      className={`card vacancy${open ? ' vacancy--open' : ''}`}
      part="vacancy"
      data-vacancy-id={v.id}
    >
      <div className="vacancy__head">
        <H className="vacancy__name">{v.name}</H>
        <span className={`badge ${v.isOpen ? 'badge--open' : ''}`}>
          {t(v.isOpen ? 'vacancies.open' : 'vacancies.closed')}
        </span>
      </div>
      {v.service && (
        <p className="vacancy__meta muted">
          {!hideEmployer && (
            <span>
              {t('vacancies.employer')}: <strong>{v.service.name}</strong>
            </span>
          )}
          <Flag
            code={v.service.countryCode}
            name={t(countryNameKey(v.service.countryCode))}
            base={flagBase}
          />
          {v.service.category && <span>{t(categoryLabelKey(v.service.category))}</span>}
        </p>
      )}
      <p className="vacancy__facts">
        <span>{t('vacancies.experience', { experience: t(`experience.${v.experience}`) })}</span>
        {v.salary && <span>{t('vacancies.salary', { salary: v.salary })}</span>}
      </p>
      <div className="vacancy__texts" ref={texts}>
        {v.description && <p className="vacancy__text">{v.description}</p>}
        {v.requirements && (
          <p className="vacancy__text">
            <strong>{t('field.requirements')}:</strong> {v.requirements}
          </p>
        )}
      </div>
      {compact && (
        <div className="vacancy__more">
          {(cut || open) && (
            <button
              type="button"
              className="button button--link"
              part="button"
              aria-expanded={open}
              onClick={() => setOpen(!open)}
            >
              {t('common.show_more')}
            </button>
          )}
        </div>
      )}
    </li>
  );
}

/** A compact card's lines (vacancies/styles.ts fixes their heights), for the loading skeleton. */
const CARD_LINES: readonly SkeletonLine[] = [
  ['div', 'vacancy__head', true],
  ['p', 'vacancy__meta', true],
  ['p', 'vacancy__facts', true],
  ['div', 'vacancy__texts'],
  ['div', 'vacancy__more'],
];

/**
 * The board's page while it loads: `count` cards of the compact cards' height, so that the
 * answer takes their place without moving the page.
 */
export function VacancySkeleton({ count }: { count: number }) {
  return (
    <ul className="vacancy-list vacancy-list--compact" aria-hidden="true">
      <SkeletonRows count={count} className="card vacancy" lines={CARD_LINES} />
    </ul>
  );
}
