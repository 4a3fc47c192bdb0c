import { msg } from '@lingui/core/macro';
import pLimit from 'p-limit';
import { RetryLaterError } from '../../errors.ts';

// Decoding and re-encoding photos is the heaviest CPU work the server does: a burst of uploads would
// take every core from everyone else. Uploads are processed a few at a time per process; a few more
// wait their turn, and past that the uploader is asked to come back shortly. Memory is the
// other cost: a photo's decoded size has little to do with its file's (a 46 KB PNG decodes to 48 MB), so
// each upload holds its photos' pixels, read from their headers, from the moment it is admitted until it
// is done, and an upload that would take the process past its pixel budget is refused the same way.

export interface ImageQueueLimits {
  /** Uploads whose photos are processed at the same time. */
  concurrency: number;
  /** Uploads that may wait for a turn; one more is refused with 503 and Retry-After. */
  waiting: number;
  /** Decoded pixels the uploads admitted (running or waiting) may hold together; past it, 503. */
  pixels: number;
}

/** Seconds a refused uploader is told to wait: a turn usually takes well under that. */
export const UPLOADS_RETRY_AFTER_SECONDS = 5;

export class UploadsBusyError extends RetryLaterError {
  constructor() {
    super(
      503,
      'UPLOADS_BUSY',
      msg`Many photos are being processed right now. Please try again in a few seconds.`,
      UPLOADS_RETRY_AFTER_SECONDS,
    );
  }
}

export interface ImageQueue {
  /** Whether one more upload would be refused now: checked before its body is read. */
  isFull(): boolean;
  /**
   * Runs the task in its turn, holding `pixels` of the budget until it ends; throws UploadsBusyError
   * when too many already wait or the budget has not that much left.
   */
  run<T>(task: () => Promise<T>, pixels: number): Promise<T>;
  /** Pixels held now (for tests and metrics). */
  pixelsHeld(): number;
}

export function createImageQueue({ concurrency, waiting, pixels: budget }: ImageQueueLimits): ImageQueue {
  const limit = pLimit(concurrency);
  let held = 0;
  // Running plus queued (p-limit moves a task from one to the other a tick later: count both).
  const isFull = () => limit.activeCount + limit.pendingCount >= concurrency + waiting || held >= budget;
  return {
    isFull,
    pixelsHeld: () => held,
    async run(task, pixels) {
      if (isFull() || held + pixels > budget) throw new UploadsBusyError();
      held += pixels;
      try {
        return await limit(task);
      } finally {
        held -= pixels;
      }
    },
  };
}
