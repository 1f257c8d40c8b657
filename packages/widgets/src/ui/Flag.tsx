import { flagUrl } from '@poruch/core/lite';

export interface FlagProps {
  /** Two-letter country code. */
  code: string;
  /** The country's display name, already translated; shown beside the flag unless `hideName`. */
  name: string;
  /** Where the `flags/4x3` SVGs are served, e.g. `https://poruch.org/flags/4x3`. */
  base: string;
  /** Show the flag alone; the name stays as its alt text. Defaults to false. */
  hideName?: boolean;
}

/** A country's flag with its name; a placeholder flag for a country without one. */
export function Flag({ code, name, base, hideName = false }: FlagProps) {
  return (
    <span className="flag" part="flag">
      <img
        className="flag__img"
        src={flagUrl(code, base)}
        alt={hideName ? name : ''}
        width={20}
        height={15}
        loading="lazy"
        // A CORS request without credentials: no cookie of the Poruch site goes with a flag.
        crossOrigin="anonymous"
      />
      {!hideName && <span className="flag__name">{name}</span>}
    </span>
  );
}
