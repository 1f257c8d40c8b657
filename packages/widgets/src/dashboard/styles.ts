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
.candidates { display: flex !important; flex-direction: column; gap: 6px; }
.notice { color: var(--_success); font-weight: 600; }
.confirm { display: flex !important; flex-wrap: wrap; gap: 8px; align-items: center; }
`;
