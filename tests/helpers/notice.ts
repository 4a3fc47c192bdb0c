import type { NoticeText } from '../../src/server/features/notifications/service.ts';

/** A test notification's words, as notify takes them: text that is in no catalogue, as is. */
export function noticeText(title: string, message: string): () => NoticeText {
  return () => ({
    title: { id: `test:${title}`, message: title },
    message: { id: `test:${message}`, message },
  });
}
