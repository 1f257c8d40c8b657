import { tint } from '../shared/theme.js';

/** One line of a placeholder row: its element, its class, and whether it shows a grey bar. */
export type SkeletonLine = readonly [
  tag: 'div' | 'p' | 'h3' | 'span',
  className: string,
  bar?: true,
];

export interface SkeletonRowsProps {
  /** How many rows: the page size. */
  count: number;
  /** The class of each row: the real row's, so that it has the real row's height. */
  className: string;
  /** The real row's lines, with the real classes (their heights are fixed). */
  lines: readonly SkeletonLine[];
}

/**
 * The rows of a list while its first page loads, each of the size of a real row (a list whose
 * rows have one fixed height), so that the answer takes their place without moving the page.
 * Hidden from screen readers: the list's status line says it is loading.
 */
export function SkeletonRows({ count, className, lines }: SkeletonRowsProps) {
  return Array.from({ length: count }, (_, i) => (
    <li key={i} className={className} aria-hidden="true">
      {lines.map(([Tag, lineClass, bar], j) => (
        <Tag key={j} className={lineClass || undefined}>
          {bar && <span className="skeleton-bar" />}
        </Tag>
      ))}
    </li>
  ));
}

/** The placeholder bar of {@link SkeletonRows}. */
export const skeletonStyles = /* css */ `
.skeleton-bar {
  display: inline-block; vertical-align: middle; width: 45%; height: 12px; border-radius: 4px;
  background: ${tint('--poruch-color-muted')};
}
`;
