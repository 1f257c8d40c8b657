/**
 * Ukrainian texts of the shell. A stand-in until the i18n of @poruch/core is wired in: the keys
 * are the translation keys that will be used then.
 */
export const UA: Record<string, string> = {
  'menu.services': 'Послуги',
  'menu.about': 'Про нас',
  'menu.support': 'Підтримати',
  'menu.login': 'Увійти',
  'menu.register': 'Зареєструватися',
  'menu.account': 'Кабінет',
  'menu.logout': 'Вийти',
  'menu.open': 'Відкрити меню',
  'menu.close': 'Закрити меню',
  'menu.label': 'Головне меню',
  'session.loading': 'Завантаження…',
  'session.logged_in_as': 'Ви увійшли як',
  'session.unavailable': 'Сервер тимчасово недоступний. Деякі дані можуть не завантажитися.',
  'session.retry': 'Спробувати ще раз',
  'home.title': 'Українські сервіси поруч із вами',
  'home.intro':
    'Poruch — це каталог і мапа сервісів та бізнесів, які ведуть українці за кордоном. Знайдіть перукарню, лікаря, юриста чи перекладача поблизу, або роботу серед вакансій від українських компаній.',
  'home.catalogue': 'Каталог',
  'home.catalogue_text': 'Сотні послуг за категоріями та країнами.',
  'home.map': 'Мапа',
  'home.map_text': 'Усі сервіси на мапі — шукайте те, що поруч.',
  'home.vacancies': 'Вакансії',
  'home.vacancies_text': 'Робота в українських компаніях за кордоном.',
  'footer.text': 'Poruch — поруч. Зроблено українцями для українців у світі.',
  'footer.privacy': 'Політика конфіденційності',
  'brand.home': 'Poruch — на головну',
};

/** Looks a key up; a missing key shows the spec's "Missing translation" text (spec §8). */
export const t = (key: string): string => UA[key] ?? `Missing translation: ${key}`;
