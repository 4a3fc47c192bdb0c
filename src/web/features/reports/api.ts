// The reports feature's public face: what other features may use of it (the Report button with its
// dialog, the reasons' names). Its hooks live in queries.ts, which the feature's own components import
// (re-exporting a component that imported this file would make a loop).
export { ReportDialog } from './components/report-dialog.tsx';
export { REPORT_REASON_NAMES } from './report-reasons.ts';
