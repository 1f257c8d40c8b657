export interface CountryOptionsProps {
  /** The countries in the order shown, each with its name in the page's language (getCountries). */
  countries: readonly { code: string; name: string }[];
  /** The "all countries" option's text, already translated; its value is `''`. */
  allLabel: string;
}

/**
 * The `<option>`s of a country filter: all countries (value `''`), then one per country. The
 * site's home search and `<poruch-search>` both use it.
 */
export function CountryOptions({ countries, allLabel }: CountryOptionsProps) {
  return (
    <>
      <option value="">{allLabel}</option>
      {countries.map((c) => (
        <option key={c.code} value={c.code}>
          {c.name}
        </option>
      ))}
    </>
  );
}
