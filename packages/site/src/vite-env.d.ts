/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the error reporter POSTs (see src/app/errorReporting.ts). Unset: nothing is sent. */
  readonly VITE_ERROR_REPORTING_URL?: string;
}
