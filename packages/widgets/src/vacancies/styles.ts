/**
 * Styles of `<poruch-vacancies>`, after the shared ones. A compact card has one fixed height
 * (single lines, two lines of text), as its loading skeleton, so the page does not move when the
 * vacancies arrive; "Show more" opens a card to its whole text.
 */
export const vacancyStyles = /* css */ `
.board { display: flex !important; flex-direction: column; gap: var(--_space); }
.filters .field--check { flex: 0 1 auto; align-self: center; margin-top: 18px; }
.vacancy-list { display: grid !important; grid-template-columns: minmax(0, 1fr); gap: var(--_space); }
.vacancy { display: flex !important; flex-direction: column; gap: 6px; }
.vacancy__head { display: flex !important; justify-content: space-between; align-items: baseline; gap: 8px; flex-wrap: wrap; }
.vacancy__meta, .vacancy__facts { display: flex !important; flex-wrap: wrap; gap: 4px 14px; align-items: center; }
.vacancy__facts { font-weight: 600; font-size: 15.2px; }
.vacancy__texts { display: flex !important; flex-direction: column; gap: 6px; }
.vacancy__text { white-space: pre-line; overflow-wrap: anywhere; }
.board__total { font-size: 14.72px; line-height: 21px; height: 21px; color: var(--_muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.board__pages { min-height: 42px; }
.vacancy-list--compact .vacancy:not(.vacancy--open) > * { flex: none; }
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__head,
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__meta,
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__facts {
  flex-wrap: nowrap; overflow: hidden; white-space: nowrap; height: 23px; line-height: 23px;
}
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__name { min-width: 0; overflow: hidden; text-overflow: ellipsis; line-height: 23px; }
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__head .badge { flex: none; }
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__texts {
  display: block !important; overflow: hidden; line-height: 23px; height: 46px;
}
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__text { display: inline; }
.vacancy-list--compact .vacancy:not(.vacancy--open) .vacancy__text + .vacancy__text::before { content: " "; }
.vacancy__more { height: 31px; }
.vacancy__more .button--link { line-height: 23px; }
`;
