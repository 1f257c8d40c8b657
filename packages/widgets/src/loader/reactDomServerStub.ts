// react-shadow imports `react-dom/server` for its server-side mode, which a browser never uses.
// The script-tag build aliases that import here instead of bundling a server renderer.
export const renderToString = (): string => '';
export default { renderToString };
