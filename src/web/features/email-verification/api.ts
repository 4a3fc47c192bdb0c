// The email-verification feature's public face: what other features may use of it (an action that
// needs a confirmed address shows why it is refused). Its hooks live in queries.ts.
export { VerificationRequired } from './components/verification-required.tsx';
