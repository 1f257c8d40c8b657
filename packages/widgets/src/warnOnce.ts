const warned = new Set<string>();

/**
 * Prints a developer warning with the `[poruch]` prefix, once per distinct message, so a widget
 * rendered many times on a page does not flood the console.
 */
export function warnOnce(message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`[poruch] ${message}`);
}

/** Forgets the warnings already printed. For tests only. */
export function resetWarnings(): void {
  warned.clear();
}
