import { msg } from '@lingui/core/macro';
import pLimit from 'p-limit';
import { RetryLaterError } from '../../errors.ts';

// Decoding and re-encoding photos is the heaviest CPU work the server does: a burst of uploads would
// take every core from everyone else. Uploads are processed a few at a time per process; a few more
// wait their turn, and past that the uploader is asked to come back shortly (issue 12).

export interface ImageQueueLimits {
  /** Uploads whose photos are processed at the same time. */
  concurrency: number;
  /** Uploads that may wait for a turn; one more is refused with 503 and Retry-After. */
  waiting: number;
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
  /** Runs the task in its turn; throws UploadsBusyError when too many already wait. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createImageQueue({ concurrency, waiting }: ImageQueueLimits): ImageQueue {
  const limit = pLimit(concurrency);
  // Running plus queued (p-limit moves a task from one to the other a tick later: count both).
  const isFull = () => limit.activeCount + limit.pendingCount >= concurrency + waiting;
  return {
    isFull,
    run(task) {
      if (isFull()) throw new UploadsBusyError();
      return limit(task);
    },
  };
}
