// The universities feature's public face: what other features may use of it. Its hooks live in
// queries.ts, which the feature's own components import (re-exporting a component that imported this
// file would make a loop).
export { UniversitySelect } from './components/university-select.tsx';
