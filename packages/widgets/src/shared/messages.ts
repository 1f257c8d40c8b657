export type { Messages, Namespaces } from './messages/types.js';

// One module per namespace of core's locale files (./messages/), so that each element's chunk
// holds only the translations it uses: the script-tag build splits the JSON files by top-level
// key, and a module imported by one widget lands in that widget's chunk. Ukrainian, the
// default, is imported statically (a widget shows it without waiting); English is imported
// dynamically when a widget shows it: an element's in one chunk with all its namespaces
// (./messages/en_GB/widgets/, english.ts), a React component's from ./messages/en_GB/, one chunk
// per namespace.
// `common`, `error` and `widget` are always there; a widget imports the others it needs from
// ./messages/ directly (not from this file, which would make every namespace part of every
// element's graph): `<WidgetShell messages={[categoryMessages, mapMessages]}>`.
export { alertsMessages } from './messages/alertsMessages.js';
export { categoryMessages } from './messages/categoryMessages.js';
export { commonMessages } from './messages/commonMessages.js';
export { countryNameMessages } from './messages/countryNameMessages.js';
export { errorMessages } from './messages/errorMessages.js';
export { experienceMessages } from './messages/experienceMessages.js';
export { fieldMessages } from './messages/fieldMessages.js';
export { flagMessages } from './messages/flagMessages.js';
export { homeMessages } from './messages/homeMessages.js';
export { mapMessages } from './messages/mapMessages.js';
export { reportFormMessages } from './messages/reportFormMessages.js';
export { reportReasonMessages } from './messages/reportReasonMessages.js';
export { serviceProfileMessages } from './messages/serviceProfileMessages.js';
export { successMessages } from './messages/successMessages.js';
export { vacanciesMessages } from './messages/vacanciesMessages.js';
export { validationMessages } from './messages/validationMessages.js';
export { widgetMessages } from './messages/widgetMessages.js';
