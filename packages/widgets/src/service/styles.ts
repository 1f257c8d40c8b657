/** Styles of `<poruch-service>`, after the shared ones and the vacancy cards' (vacancies/styles.ts). */
export const serviceStyles = /* css */ `
.profile { display: flex !important; flex-direction: column; gap: var(--_space); }
/* While it loads: the loader's reserve for <poruch-service> (loader/elements.ts), a first screen. */
.profile--loading { min-height: 432.3px; }
.profile__back { align-self: flex-start; }
.profile__head { display: flex !important; flex-direction: column; gap: 6px; }
.profile__meta { display: flex !important; flex-wrap: wrap; gap: 6px 14px; align-items: center; color: var(--_muted); }
.profile__used { display: flex !important; flex-wrap: wrap; gap: 10px; align-items: center; }
.tabs__list { display: flex !important; gap: 4px; border-bottom: 1px solid var(--_border); overflow-x: auto; }
.tabs__tab {
  font: inherit; font-weight: 600; color: var(--_muted); background: none; cursor: pointer;
  border: none; border-bottom: 3px solid transparent; padding: 10px 14px; min-height: 44px;
}
.tabs__list--links { list-style: none; margin: 0; padding: 0; }
.tabs__list--links .tabs__tab { display: inline-flex !important; align-items: center; text-decoration: none; white-space: nowrap; }
.tabs__tab[aria-selected="true"], .tabs__tab[aria-current="page"] { color: var(--_primary); border-bottom-color: var(--_primary); }
/* Inside: the list scrolls sideways (overflow-x), which would clip a ring drawn outside the tab. */
.tabs__tab:focus-visible { outline-offset: -3px; }
.tabs__panel { padding: var(--_space) 0; }
.profile__text { white-space: pre-line; overflow-wrap: anywhere; }
.contacts { display: grid !important; grid-template-columns: max-content 1fr; gap: 8px 16px; margin: 0; }
.contacts dt { font-weight: 600; }
.contacts dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 480px) { .contacts { grid-template-columns: 1fr; } .contacts dd { margin-bottom: 6px; } .tabs__tab { padding: 10px 8px; } }
.report-box { border-top: 1px solid var(--_border); padding-top: var(--_space); }
`;
