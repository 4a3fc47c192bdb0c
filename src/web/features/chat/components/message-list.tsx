import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { isTemporary, type ShownMessage } from '../message-timeline.ts';

/** Spec §2 Chat: own bubbles right-aligned, time 'h:mm a'; empty text; older pages on demand. */
export function MessageList({
  messages,
  currentUserId,
  isPending,
  hasMore,
  loadingOlder,
  onLoadOlder,
}: {
  messages: ShownMessage[];
  currentUserId: string;
  isPending: boolean;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}) {
  const { t } = useLingui();
  const { formatTime } = useTimeLabels();
  const endRef = useRef<HTMLDivElement>(null);
  const lastId = messages.at(-1)?.id;

  // Keep the newest message in view when one arrives (not when older ones are prepended).
  useEffect(() => {
    if (lastId) endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [lastId]);

  if (isPending) {
    return (
      <p role="status" className="p-6 text-center text-sm text-muted">
        <Trans>Loading messages...</Trans>
      </p>
    );
  }

  return (
    <div className="flex-1 space-y-3 overflow-y-auto bg-stone-50 p-4">
      {hasMore && (
        <div className="flex justify-center">
          <Button variant="outline" size="sm" onClick={onLoadOlder} disabled={loadingOlder}>
            <Trans>Load older messages</Trans>
          </Button>
        </div>
      )}
      {messages.length === 0 ? (
        <p className="py-10 text-center text-sm text-muted">
          <Trans>No messages yet. Start the conversation!</Trans>
        </p>
      ) : (
        <ol className="space-y-3" aria-label={t`Messages`}>
          {messages.map((m) => {
            const own = m.senderId === currentUserId;
            const pending = isTemporary(m);
            return (
              <li key={m.id} className={cn('flex', own ? 'justify-end' : 'justify-start')}>
                <div
                  className={cn(
                    'max-w-[80%] rounded-2xl px-3.5 py-2 shadow-sm',
                    own ? 'rounded-ee-sm bg-brand-700 text-white' : 'rounded-es-sm bg-white text-ink',
                    pending && 'opacity-80',
                  )}
                >
                  <span className="sr-only">{own ? t`You: ` : t`Them: `}</span>
                  <p className="whitespace-pre-wrap break-words">{m.content}</p>
                  <p className={cn('mt-1 text-end text-xs', own ? 'text-brand-50' : 'text-muted')}>
                    {pending ? (
                      t`Sending…`
                    ) : (
                      <time dateTime={m.createdAt}>{formatTime(m.createdAt, 'time')}</time>
                    )}
                  </p>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <div ref={endRef} />
    </div>
  );
}
