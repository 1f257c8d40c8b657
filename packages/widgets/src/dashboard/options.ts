import { createContext, useContext, type ReactNode } from 'react';
import type { Service } from '@poruch/core';

/** What the host asks before a deletion: the question, translated; resolves true to go on. */
export type ConfirmFn = (question: { title: string; message: string }) => Promise<boolean>;

/** The host's hooks into the dashboard's parts (props of {@link PoruchDashboard}). */
export interface DashboardOptions {
  /** Extra actions on each service card: the host's own links (edit page, profile). */
  renderServiceActions?: ((service: Service) => ReactNode) | undefined;
  /** Asks before a deletion; without it the card asks in place. */
  confirm?: ConfirmFn | undefined;
  /** True when the host tells the success messages itself (it gave `onNotice`). */
  hostNotices: boolean;
}

export const DashboardOptionsContext = createContext<DashboardOptions>({ hostNotices: false });

export const useDashboardOptions = () => useContext(DashboardOptionsContext);
