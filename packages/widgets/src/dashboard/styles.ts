/** Styles of `<poruch-dashboard>`, after the shared ones. */
export const dashboardStyles = /* css */ `
.dashboard { display: flex !important; flex-direction: column; gap: calc(var(--_space) * 1.5); }
.services { display: grid !important; gap: var(--_space); }
.service__head { display: flex !important; flex-wrap: wrap; justify-content: space-between; gap: 8px; align-items: baseline; }
.service__actions, .vacancy__actions { display: flex !important; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.vacancies { display: grid !important; gap: 8px; margin-top: 10px; }
.services, .vacancy-cards { list-style: none; margin: 0; padding: 0; }
.vacancy-cards { display: grid !important; gap: 8px; }
.vacancy__actions { align-items: center; }
.reason { display: inline-flex !important; align-items: center; gap: 8px; min-height: 44px; cursor: pointer; }
.reason input { width: 20px; height: 20px; margin: 0; flex: none; accent-color: var(--_primary); }
.vacancy__text { margin: 0; white-space: pre-line; overflow-wrap: anywhere; }
.vacancy__name { margin: 0; font-size: 16.8px; overflow-wrap: anywhere; }
.service__head h3 { margin: 0; overflow-wrap: anywhere; }
.form { display: flex !important; flex-direction: column; gap: var(--_space); }
/* A field grows along a row (base styles: flex 1 1 180px); in the form's column it is its own height. */
.form > .field { flex: 0 0 auto; }
.lookalike { display: flex !important; flex-wrap: wrap; justify-content: space-between; gap: 8px 24px; margin: 0; }
.lookalike__where { opacity: 0.8; overflow-wrap: anywhere; }
.candidates { display: flex !important; flex-direction: column; gap: 6px; }
.notice { color: var(--_success); font-weight: 600; }
.confirm { display: flex !important; flex-wrap: wrap; gap: 8px; align-items: center; }
.combobox { position: relative; display: flex !important; flex-direction: column; }
.combobox__list { position: absolute; top: calc(100% + 2px); left: 0; right: 0; z-index: 20; max-height: 272px; overflow-y: auto; margin: 0; padding: 4px 0; list-style: none; background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); box-shadow: 0 6px 18px rgb(0 0 0 / 16%); }
.combobox__list[hidden] { display: none !important; }
.combobox__option { display: flex !important; align-items: center; min-height: 44px; padding: 6px 12px; cursor: pointer; overflow-wrap: anywhere; }
.combobox__option--active { background: rgb(127 127 127 / 15%); background: color-mix(in srgb, var(--_primary) 12%, var(--_surface)); box-shadow: inset 3px 0 0 var(--_primary); }
`;
