import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ImagePlus, X } from 'lucide-react';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { LIMITS } from '#shared/constants.ts';
import { thumbnailOf } from '#shared/photos.ts';
import { buttonClasses } from '../../../components/ui/button.tsx';
import { IconTooltip } from '../../../components/ui/tooltip.tsx';
import { cn } from '../../../lib/cn.ts';
import { compressImage } from '../../../lib/image-compress.ts';

// Spec §2 List an Item / Edit Item photos, §5 photo rules, §8 upload failures: pick, compress, upload with
// progress, preview (the first is the cover), remove. The form owns the list of URLs.

export const UPLOAD_URL = '/api/upload/proxy';

export class UploadError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/**
 * Sends the photos in the field `images` and answers their URLs. XMLHttpRequest rather than fetch, because
 * only it reports upload progress. Same-origin, so the browser sends the Origin header the server checks.
 */
export function uploadPhotos(
  files: readonly File[],
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const file of files) form.append('images', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_URL);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: { urls?: unknown; message?: unknown; error?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // A proxy's HTML error page, say: the status still tells what happened.
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        const message = [body.error, body.message].find((m) => typeof m === 'string' && m) as
          | string
          | undefined;
        reject(new UploadError(xhr.status, message ?? t`Failed to upload images`));
        return;
      }
      const urls = Array.isArray(body.urls)
        ? body.urls.filter((u): u is string => typeof u === 'string')
        : [];
      if (urls.length === 0) reject(new UploadError(xhr.status, t`Upload succeeded but no URLs returned`));
      else resolve(urls);
    };
    xhr.onerror = () => reject(new UploadError(0, t`Network error: the photos could not be sent`));
    xhr.onabort = () => reject(new UploadError(0, t`Upload cancelled`));
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/**
 * Spec §8: the advice shown under a failed upload. The status decides where it can (the message may be
 * in another language): 0 never reached the server, 413 too large, 503 no storage.
 */
export function uploadTip(status: number, message: string): string {
  if (status === 413 || /too large/i.test(message)) {
    return t`Use images under 5MB (large images are compressed automatically).`;
  }
  if (status === 0 || /network|fetch/i.test(message)) return t`Check your connection and try again.`;
  if (status === 503 || /storage/i.test(message)) {
    return t`Image storage may not be configured. Please contact support.`;
  }
  return t`Try smaller images, check your connection, or use JPG or PNG.`;
}

function PhotoPreview({ url, alt }: { url: string; alt: string }) {
  // The small copy first; the original when it has none (photos from elsewhere); nothing when both fail.
  const [src, setSrc] = useState<string | null>(thumbnailOf(url));
  if (!src) return <div className="flex h-full items-center justify-center text-xs text-muted">{alt}</div>;
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setSrc(src === url ? null : url)}
      className="h-full w-full object-cover"
    />
  );
}

export function PhotoUploader({
  value,
  onChange,
  max = LIMITS.photosPerItem,
}: {
  value: string[];
  onChange(urls: string[]): void;
  max?: number;
}) {
  const { t } = useLingui();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  // The list may change while photos upload (say the form resets); add to the newest one.
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  }, [value]);
  const upload = useRef<AbortController | null>(null);
  useEffect(() => () => upload.current?.abort(), []);

  const [progress, setProgress] = useState<number | null>(null);
  const [pending, setPending] = useState<string[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ message: string; tip: string } | null>(null);
  const uploading = progress !== null;
  const count = value.length;
  const failureMessage = failure?.message;

  async function addFiles(files: File[]) {
    setNotice(null);
    setFailure(null);
    if (files.length === 0) return;
    if (value.length + files.length > max) {
      setNotice(t`You can upload a maximum of ${max} images.`);
      return;
    }
    // Images of any size are tried (they are compressed first); other big files cannot be.
    const tooLarge = files.filter((f) => !f.type.startsWith('image/') && f.size > LIMITS.photoBytes);
    if (tooLarge.length > 0) {
      const names = tooLarge.map((f) => f.name).join(', ');
      setNotice(t`Files too large (max 5MB): ${names}`);
      return;
    }

    const controller = new AbortController();
    upload.current = controller;
    const previews = files.map((f) => URL.createObjectURL(f));
    setPending(previews);
    setProgress(0);
    try {
      // A photo the browser cannot redraw (HEIC, say) goes as it is: the server has the last word.
      const ready = await Promise.all(files.map((f) => compressImage(f).catch(() => f)));
      const urls = await uploadPhotos(ready, setProgress, controller.signal);
      if (!controller.signal.aborted) onChange([...latest.current, ...urls]);
    } catch (error) {
      if (controller.signal.aborted) return;
      const status = error instanceof UploadError ? error.status : 0;
      const message = error instanceof Error && error.message ? error.message : t`Failed to upload images`;
      setFailure({ message, tip: uploadTip(status, message) });
    } finally {
      for (const preview of previews) URL.revokeObjectURL(preview);
      if (!controller.signal.aborted) {
        setPending([]);
        setProgress(null);
      }
    }
  }

  function onSelect(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    // Cleared so that choosing the same file again still counts as a change.
    event.target.value = '';
    void addFiles(files);
  }

  function remove(index: number) {
    onChange(value.filter((_, i) => i !== index));
    setNotice(null);
    // The button that had focus is gone: keep keyboard users in the photo section.
    inputRef.current?.focus();
  }

  return (
    <div className="space-y-3">
      {(value.length > 0 || pending.length > 0) && (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" aria-label={t`Photos`}>
          {value.map((url, i) => {
            const number = i + 1;
            const removeLabel = t`Remove photo ${number}`;
            return (
              <li
                key={url}
                className="relative aspect-square overflow-hidden rounded-lg border border-line bg-stone-100"
              >
                <PhotoPreview url={url} alt={i === 0 ? t`Photo ${number} (cover)` : t`Photo ${number}`} />
                {i === 0 && (
                  <span
                    aria-hidden="true"
                    className="absolute top-2 start-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white"
                  >
                    <Trans>Cover</Trans>
                  </span>
                )}
                <IconTooltip label={removeLabel}>
                  <button
                    type="button"
                    onClick={() => remove(i)}
                    disabled={uploading}
                    aria-label={removeLabel}
                    className="absolute top-2 end-2 inline-flex h-9 w-9 items-center justify-center rounded-full bg-white/95 text-ink shadow-sm hover:bg-white disabled:opacity-60"
                  >
                    <X aria-hidden="true" className="h-4 w-4" />
                  </button>
                </IconTooltip>
              </li>
            );
          })}
          {pending.map((src) => (
            <li
              key={src}
              className="relative aspect-square overflow-hidden rounded-lg border border-dashed border-brand-200 bg-brand-50"
            >
              <img src={src} alt="" className="h-full w-full object-cover opacity-50" />
            </li>
          ))}
        </ul>
      )}

      <div>
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          accept="image/*"
          multiple
          disabled={uploading}
          onChange={onSelect}
          aria-describedby={hintId}
          className="peer sr-only"
        />
        <label
          htmlFor={inputId}
          className={cn(
            buttonClasses('outline'),
            'cursor-pointer peer-disabled:cursor-not-allowed peer-disabled:opacity-60',
            'peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600',
          )}
        >
          <ImagePlus aria-hidden="true" className="h-4 w-4" />
          {value.length > 0 ? <Trans>Add more photos</Trans> : <Trans>Add photos</Trans>}
        </label>
        <p id={hintId} className="mt-1.5 text-sm text-muted">
          <Trans>
            {count} of {max} photos. JPG or PNG work best; large photos are compressed automatically.
          </Trans>
        </p>
      </div>

      {uploading && (
        <div className="space-y-1">
          <div
            role="progressbar"
            aria-label={t`Uploading photos`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-2 w-full overflow-hidden rounded-full bg-brand-100"
          >
            <div
              className="h-full rounded-full bg-brand-700 transition-[width]"
              style={{ width: `${progress}%` }}
            />
          </div>
          <p className="text-sm text-muted">
            <Trans>Uploading… {progress}%</Trans>
          </p>
        </div>
      )}

      {notice && (
        <p role="alert" className="text-sm font-medium text-danger">
          {notice}
        </p>
      )}
      {failure && (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm">
          <p className="font-semibold text-danger">
            <Trans>Upload failed: {failureMessage}</Trans>
          </p>
          <p className="mt-1 text-ink">{failure.tip}</p>
        </div>
      )}
    </div>
  );
}
