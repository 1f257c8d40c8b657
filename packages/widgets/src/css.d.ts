// `import css from 'x.css?inline'` gives the file's text, to put inside a shadow root (Vite and
// vitest do this natively; the rollup build has a small plugin for it).
declare module '*.css?inline' {
  const css: string;
  export default css;
}
