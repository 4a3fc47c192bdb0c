import { Trans } from '@lingui/react/macro';
import { MessageSquare } from 'lucide-react';
import type { ConversationSummary } from '#shared/schemas/chat.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { itemTitle, otherUserName } from '../api.ts';

/** Spec §2 Chat sidebar: name, last-message date 'MMM d', item title, unread badge; loading and empty. */
export function ConversationList({
  conversations,
  isPending,
  failed,
  selectedId,
  onSelect,
}: {
  conversations: ConversationSummary[];
  isPending: boolean;
  /** The list could not be loaded: said so, with a way to try again, never as "No conversations yet". */
  failed?: { retry: () => void; retrying: boolean };
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  const { formatTime } = useTimeLabels();
  if (failed && !isPending) {
    return (
      <div role="alert" className="flex flex-col items-center px-6 py-10 text-center">
        <h3 className="font-semibold text-ink">
          <Trans>Failed to fetch conversations</Trans>
        </h3>
        <p className="mt-1 text-sm text-muted">
          <Trans>Check your connection and try again.</Trans>
        </p>
        <Button variant="outline" className="mt-4" onClick={failed.retry} disabled={failed.retrying}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  if (isPending) {
    return (
      <p role="status" className="px-4 py-6 text-center text-sm text-muted">
        <Trans>Loading conversations...</Trans>
      </p>
    );
  }
  if (conversations.length === 0) {
    return (
      <div className="flex flex-col items-center px-6 py-10 text-center">
        <MessageSquare className="h-10 w-10 text-stone-400" aria-hidden="true" />
        <h3 className="mt-3 font-semibold text-ink">
          <Trans>No conversations yet</Trans>
        </h3>
        <p className="mt-1 text-sm text-muted">
          <Trans>Start chatting with sellers to see your conversations here.</Trans>
        </p>
      </div>
    );
  }
  return (
    <ul className="divide-y divide-line">
      {conversations.map((c) => {
        const name = otherUserName(c);
        const selected = c.id === selectedId;
        const date = c.lastMessage?.createdAt ?? c.lastMessageAt;
        const unread = c.unreadCount;
        return (
          <li key={c.id}>
            <button
              type="button"
              onClick={() => onSelect(c.id)}
              aria-current={selected ? 'true' : undefined}
              className={cn(
                'flex w-full items-start gap-3 px-4 py-3 text-start hover:bg-stone-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600',
                selected && 'bg-brand-50 hover:bg-brand-50',
              )}
            >
              <Avatar name={name} src={c.otherUser.profileImage} />
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span className="truncate font-semibold text-ink">{name}</span>
                  <time dateTime={date} className="shrink-0 text-xs text-muted">
                    {formatTime(date, 'day')}
                  </time>
                </span>
                <span className="block truncate text-sm text-stone-700">{itemTitle(c)}</span>
                {c.lastMessage && (
                  <span className="block truncate text-sm text-muted">{c.lastMessage.content}</span>
                )}
              </span>
              {c.unreadCount > 0 && (
                <span className="mt-1 flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white">
                  <Trans>
                    {unread}
                    <span className="sr-only"> unread</span>
                  </Trans>
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
