import { CATEGORY_KEYS, type Translate } from '@poruch/core/lite';

export interface CategoryOptionsProps {
  /** The value of the "all categories" option: what the form means by no category. */
  allValue: string;
  /** The translate function of the page or the widget (the `category.*` keys). */
  t: Translate;
}

/**
 * The `<option>`s of a category filter: all categories, then every category of the catalogue
 * in its order. The site's home search and `<poruch-search>` both use it, so that the two
 * offer the same categories under the same names.
 */
export function CategoryOptions({ allValue, t }: CategoryOptionsProps) {
  return (
    <>
      <option value={allValue}>{t('category.all')}</option>
      {CATEGORY_KEYS.map((k) => (
        <option key={k} value={k}>
          {t(`category.${k}`)}
        </option>
      ))}
    </>
  );
}
