import { fieldMessages } from '../shared/messages/fieldMessages.js';
import { reportFormMessages } from '../shared/messages/reportFormMessages.js';
import { reportReasonMessages } from '../shared/messages/reportReasonMessages.js';
import { successMessages } from '../shared/messages/successMessages.js';
import { validationMessages } from '../shared/messages/validationMessages.js';
import { WidgetShell, type WidgetBaseProps } from '../shared/WidgetShell.js';
import { baseStyles } from '../ui/baseStyles.js';
import { MissingServiceId } from '../ui/MissingServiceId.js';
import { UI_PARTS } from '../ui/parts.js';
import { ReportForm, type ReportSentDetail } from './ReportForm.js';
import { reportStyles } from './styles.js';

export interface PoruchReportProps extends WidgetBaseProps {
  /** The reported service's id. Attribute `service-id`. Required. */
  serviceId?: string;
  /** Called with the report's id once it is stored; also fired as `poruch:report-sent`. */
  onReportSent?: (detail: ReportSentDetail) => void;
}

/** The `part`s of `<poruch-report>`. */
export const REPORT_PARTS = [...UI_PARTS, 'report', 'form', 'submit'] as const;

/** The translation namespaces the widget uses beyond common, error and widget. */
const REPORT_MESSAGES = [
  fieldMessages,
  reportFormMessages,
  reportReasonMessages,
  successMessages,
  validationMessages,
];

/**
 * `<poruch-report>` as a React component: the report form for one service, posted anonymously.
 */
export function PoruchReport(props: PoruchReportProps) {
  return (
    <WidgetShell
      {...props}
      styles={baseStyles + reportStyles}
      parts={REPORT_PARTS}
      handlers={props}
      messages={REPORT_MESSAGES}
    >
      {props.serviceId ? (
        <ReportForm serviceId={props.serviceId} />
      ) : (
        <MissingServiceId tag="poruch-report" />
      )}
    </WidgetShell>
  );
}
