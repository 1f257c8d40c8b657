import { TRACE_SAMPLE_RATE, type RuntimeConfig } from '@poruch/core';

/** What is sent for one error. */
export interface ErrorReport {
  kind: 'error' | 'unhandledrejection' | 'trace';
  message: string;
  stack?: string;
  url: string;
  version: string;
  userAgent: string;
  /** Page-load timings, on the sampled share of page loads only. */
  timing?: Record<string, number>;
}

export interface ErrorReportingOptions {
  /**
   * Where reports are POSTed as JSON. Defaults to `VITE_ERROR_REPORTING_URL` of the build; without
   * one nothing is sent.
   */
  endpoint?: string;
  /** Share of page loads whose timings are sent. Defaults to 0.3 (TRACE_SAMPLE_RATE). */
  traceSampleRate?: number;
  /** At most this many error reports per page. Defaults to 10. */
  maxReports?: number;
}

const DEFAULT_ENDPOINT: string | undefined = import.meta.env.VITE_ERROR_REPORTING_URL;

/**
 * Error reporting as `GET /env` configures it: nothing at all when `errorReporting.enabled` is
 * false or there is no endpoint; otherwise uncaught errors and unhandled rejections are POSTed
 * with the version, and the page-load timings of 30% of page loads. Returns a stop function.
 */
export function startErrorReporting(
  config: Pick<RuntimeConfig, 'errorReporting'> | null,
  options: ErrorReportingOptions = {},
): () => void {
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  if (!config?.errorReporting.enabled || !endpoint) return () => undefined;
  const { version } = config.errorReporting;
  const rate = options.traceSampleRate ?? TRACE_SAMPLE_RATE;
  let left = options.maxReports ?? 10;

  const send = (report: Omit<ErrorReport, 'url' | 'version' | 'userAgent'>) => {
    if (report.kind !== 'trace' && left-- <= 0) return;
    const body = JSON.stringify({
      ...report,
      url: window.location.href,
      version,
      userAgent: navigator.userAgent,
    } satisfies ErrorReport);
    if (!navigator.sendBeacon?.(endpoint, new Blob([body], { type: 'application/json' }))) {
      void fetch(endpoint, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        keepalive: true,
      }).catch(() => undefined);
    }
  };
  const onError = (e: ErrorEvent) =>
    send({ kind: 'error', message: e.message, stack: (e.error as Error | undefined)?.stack });
  const onRejection = (e: PromiseRejectionEvent) => {
    const reason = e.reason as { message?: string; stack?: string } | undefined;
    send({
      kind: 'unhandledrejection',
      message: reason?.message ?? String(e.reason),
      stack: reason?.stack,
    });
  };
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);

  if (Math.random() < rate) {
    const nav = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined;
    if (nav) {
      send({
        kind: 'trace',
        message: 'page-load',
        timing: {
          ttfb: nav.responseStart,
          domContentLoaded: nav.domContentLoadedEventEnd,
          load: nav.loadEventEnd,
        },
      });
    }
  }
  return () => {
    window.removeEventListener('error', onError);
    window.removeEventListener('unhandledrejection', onRejection);
  };
}
