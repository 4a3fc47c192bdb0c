// The uploads feature's public face: what other features may use of it (a listing's photos, a handover's
// and a claim's evidence).
export { PhotoUploader } from './components/photo-uploader.tsx';
