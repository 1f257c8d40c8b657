/** Styles of `<poruch-report>`, after the shared ones. */
export const reportStyles = /* css */ `
.report { display: flex !important; flex-direction: column; gap: var(--_space); max-width: 640px; }
/* A field grows along a row (baseStyles); in the form's column it keeps its own height. */
.report > .field { flex: none; }
.report fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 8px var(--_space) var(--_space); margin: 0; }
.report legend { font-weight: 600; font-size: 14.72px; padding: 0 4px; }
.reasons { display: flex !important; flex-direction: column; gap: 6px; }
.reason { display: flex !important; align-items: center; gap: 8px; cursor: pointer; }
.reason input { width: 18px; height: 18px; }
.report__actions { display: flex !important; gap: 10px; flex-wrap: wrap; }
`;
