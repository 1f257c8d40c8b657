/** Styles of `<poruch-vacancies>`, after the shared ones. */
export const vacancyStyles = /* css */ `
.board { display: flex !important; flex-direction: column; gap: var(--_space); }
.filters .field--check { flex: 0 1 auto; align-self: center; margin-top: 18px; }
.vacancy-list { display: grid !important; gap: var(--_space); }
.vacancy { display: flex !important; flex-direction: column; gap: 6px; }
.vacancy__head { display: flex !important; justify-content: space-between; align-items: baseline; gap: 8px; flex-wrap: wrap; }
.vacancy__meta, .vacancy__facts { display: flex !important; flex-wrap: wrap; gap: 4px 14px; align-items: center; }
.vacancy__facts { font-weight: 600; font-size: .95rem; }
.vacancy__text { white-space: pre-line; overflow-wrap: anywhere; }
.board__total { font-size: .92rem; color: var(--_muted); }
`;
