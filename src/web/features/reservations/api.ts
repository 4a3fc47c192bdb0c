// The reservations feature's public face: what other features may use of it (the live socket refreshes
// bookings, a notification answers a request, the waitlist shows the borrower's own request). Its hooks
// live in queries.ts, which the feature's own components import (re-exporting a component that imported
// this file would make a loop).
export { openRequestsFor } from './components/my-request.tsx';
export { requestState, useRequestDecision } from './components/use-request-decision.ts';
export { dayRange } from './dates.ts';
export { reservationKeys, useAvailability, useReservations } from './queries.ts';
