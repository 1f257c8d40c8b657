import type { ReactNode } from 'react';
import type { ServiceProfile as Profile } from '@poruch/core';
import { reportStyles } from '../report/styles.js';
import { categoryMessages } from '../shared/messages/categoryMessages.js';
import { countryNameMessages } from '../shared/messages/countryNameMessages.js';
import { experienceMessages } from '../shared/messages/experienceMessages.js';
import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { flagMessages } from '../shared/messages/flagMessages.js';
import { homeMessages } from '../shared/messages/homeMessages.js';
import { reportFormMessages } from '../shared/messages/reportFormMessages.js';
import { reportReasonMessages } from '../shared/messages/reportReasonMessages.js';
import { serviceProfileMessages } from '../shared/messages/serviceProfileMessages.js';
import { successMessages } from '../shared/messages/successMessages.js';
import { vacanciesMessages } from '../shared/messages/vacanciesMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { SHELL_STYLES } from '../shared/theme.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { baseStyles } from '../ui/baseStyles.js';
import { MissingServiceId } from '../ui/MissingServiceId.js';
import { UI_PARTS } from '../ui/parts.js';
import { isProfileTab, ServiceProfile, type ProfileTab } from './ServiceProfile.js';
import { serviceStyles } from './styles.js';
import { vacancyStyles } from '../vacancies/styles.js';

export interface PoruchServiceProps extends WidgetBaseProps {
  /** The service's id. Attribute `service-id`. Required. */
  serviceId?: string;
  /**
   * Where "Back to list" goes (http or https, absolute or relative to the page). Attribute
   * `back-href`. Defaults to none: the link is a button that only fires `poruch:back`.
   */
  backHref?: string;
  /** The tab shown first: `services`, `vacancies` or `contacts`. Attribute `tab`. Defaults to `services`. */
  tab?: ProfileTab | string;
  /**
   * Each tab's URL (React only). With it the tabs are links that fire `poruch:tab-change`
   * (`{ serviceId, tab }`, cancelable); without it, ARIA tabs switched in place.
   */
  tabHref?: (tab: ProfileTab) => string;
  /** The service name's heading level: 1 where the profile is the page. Defaults to 2. */
  headingLevel?: 1 | 2;
  /**
   * A single-page app's router (React only): the back link and the tab links call it with their
   * href instead of loading the page. Defaults to none.
   */
  onNavigate?: (href: string) => void;
  /**
   * The page's own content at the end of the services tab, from the loaded profile (React only),
   * e.g. the site's map of where the service is: drawn with the profile in one render (nothing
   * under it moves), it stays in the page's DOM and styles and shows in the tab through the
   * `services-end` slot. Defaults to none.
   */
  servicesEnd?: (profile: Profile) => ReactNode;
  /** Called with the profile once it is loaded (e.g. for the page's title); also `poruch:load`. */
  onLoad?: (profile: Profile) => void;
  /** Called when a tab link is followed; also `poruch:tab-change`. */
  onTabChange?: (detail: { serviceId: string; tab: ProfileTab }) => void;
  /** Called on "Back to list"; also fired as `poruch:back` with `{ serviceId }` (cancelable). */
  onBack?: (detail: { serviceId: string }) => void;
  /** Called when a report from the profile is stored; also `poruch:report-sent`. */
  onReportSent?: (detail: { serviceId: string; reportId: string }) => void;
}

/** The `part`s of `<poruch-service>`. */
export const SERVICE_PARTS = [
  ...UI_PARTS,
  'profile',
  'back',
  'title',
  'used',
  'used-button',
  'report-button',
  'tablist',
  'tab',
  'tab-selected',
  'tabpanel',
  'link',
  'list',
  'vacancy',
  'report',
  'form',
  'submit',
] as const;

/** The translation namespaces the widget uses beyond common, error and widget. */
const SERVICE_MESSAGES = [
  categoryMessages,
  countryNameMessages,
  experienceMessages,
  fieldMessages,
  flagMessages,
  homeMessages,
  reportFormMessages,
  reportReasonMessages,
  serviceProfileMessages,
  successMessages,
  vacanciesMessages,
  validationMessages,
];

/** The widget's own styles, after the shell's reset. */
const STYLES = baseStyles + reportStyles + vacancyStyles + serviceStyles;

/**
 * The whole stylesheet of `<poruch-service>`'s shadow root (the shell's reset and the widget's
 * styles): the site's server draws a profile's first screen with it before the scripts run.
 */
export const SERVICE_SHADOW_CSS = SHELL_STYLES + STYLES;

/**
 * `<poruch-service>` as a React component: the profile of one approved service with tabs for
 * services, vacancies and contacts, "I have used this service", and a report form.
 */
export function PoruchService(props: PoruchServiceProps) {
  return (
    <WidgetShell
      {...props}
      styles={STYLES}
      parts={SERVICE_PARTS}
      handlers={props}
      messages={SERVICE_MESSAGES}
    >
      {props.serviceId ? (
        <ServiceProfile
          serviceId={props.serviceId}
          backHref={props.backHref}
          tab={isProfileTab(props.tab) ? props.tab : undefined}
          tabHref={props.tabHref}
          headingLevel={props.headingLevel}
          onNavigate={props.onNavigate}
          servicesEnd={props.servicesEnd}
        />
      ) : (
        <MissingServiceId tag="poruch-service" />
      )}
    </WidgetShell>
  );
}
