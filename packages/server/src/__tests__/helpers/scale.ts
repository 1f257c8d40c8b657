/** Retries `check` until it passes or `timeoutMs` is over (then throws its last failure). */
export async function eventually(check: () => Promise<void>, timeoutMs: number, stepMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
