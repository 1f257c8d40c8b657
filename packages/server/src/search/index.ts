/**
 * The search, by concern: services.ts and vacancies.ts (the two searches), pages.ts (the SQL page
 * builders they share), geo.ts (distances and boxes), searchQuery.ts (the text query), cache.ts
 * (the result cache).
 */
export {
  invalidateSearchCache,
  searchCacheListening,
  setSearchCache,
  stopSearchCache,
  type JsonBody,
} from './cache.js';
export { editDistance } from './editDistance.js';
export { queryTokens, searchKey, transliterate } from './normalize.js';
export { RANK_LIMIT, TOTAL_CAP } from './pages.js';
export { buildTextQuery, lookupWords, setMatchBounds, type TextQuery } from './searchQuery.js';
export { searchServices, searchServicesJson } from './services.js';
export { searchVacancies, searchVacanciesJson } from './vacancies.js';
