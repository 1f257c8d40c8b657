import { createI18n, feedLinks, translator } from '@poruch/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyFeedLinks } from '../app/seo.js';

/** The app keeps the head's Atom feed links in the interface language (App.tsx, seo.ts). */
describe('applyFeedLinks', () => {
  const links = () =>
    [...document.head.querySelectorAll('link[rel="alternate"][type="application/atom+xml"]')].map(
      (l) => [l.getAttribute('title'), l.getAttribute('href')],
    );
  const ua = feedLinks('ua', translator(createI18n('ua')));
  const en = feedLinks('en_GB', translator(createI18n('en_GB')));

  beforeEach(() => {
    document.head.innerHTML = '<title>Poruch</title>';
  });

  it('adds both feeds when the head has none, in the language given', () => {
    applyFeedLinks(ua);
    expect(links()).toEqual([
      ['Нові сервіси на «Поруч»', '/feeds/services.atom'],
      ['Нові вакансії на «Поруч»', '/feeds/vacancies.atom'],
    ]);
  });

  it('replaces the prerendered ones on a language switch, never adding more', () => {
    applyFeedLinks(ua);
    applyFeedLinks(en);
    expect(links()).toEqual([
      ['New services on Poruch', '/feeds/services.atom?lang=en_GB'],
      ['New vacancies on Poruch', '/feeds/vacancies.atom?lang=en_GB'],
    ]);
    applyFeedLinks(ua);
    expect(links()).toHaveLength(2);
    expect(links()[0]).toEqual(['Нові сервіси на «Поруч»', '/feeds/services.atom']);
  });
});
