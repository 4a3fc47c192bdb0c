import { format } from 'date-fns';
import { MessageCircle } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { badgeCount, LIMITS } from '#shared/constants.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import { paths } from '../../../paths.ts';
import { itemTitle, otherUserName, useConversations, useUnreadCount } from '../api.ts';

/** Spec §2 Header: 'Messages', the first five conversations, 'View all messages', the unread badge. */
export function ChatDropdown() {
  const { data: conversations = [] } = useConversations();
  const { data: unreadCount = 0 } = useUnreadCount();
  const shown = conversations.slice(0, LIMITS.dropdownEntries);

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        className="relative flex h-10 w-10 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100"
        aria-label={unreadCount ? `Messages, ${unreadCount} unread` : 'Messages'}
      >
        <MessageCircle className="h-5 w-5" aria-hidden="true" />
        {unreadCount > 0 && (
          <span
            aria-hidden="true"
            className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-danger px-1 text-[11px] font-bold text-white"
          >
            {badgeCount(unreadCount)}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-line bg-white p-1.5 shadow-xl"
        >
          <DropdownMenu.Label className="px-3 py-2 font-bold text-ink">Messages</DropdownMenu.Label>
          <DropdownMenu.Separator className="h-px bg-line" />
          {shown.length === 0 ? (
            <div className="px-3 py-6 text-center">
              <p className="text-sm font-semibold text-ink">No messages yet</p>
              <p className="mt-1 text-sm text-muted">Start chatting about items you're interested in!</p>
            </div>
          ) : (
            shown.map((c) => {
              const name = otherUserName(c);
              return (
                <DropdownMenu.Item key={c.id} asChild>
                  <Link
                    to={paths.chat(c.id)}
                    className="flex items-start gap-3 rounded-lg px-3 py-2.5 outline-none data-[highlighted]:bg-brand-50"
                  >
                    <Avatar name={name} src={c.otherUser.profileImage} size="sm" />
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="truncate text-sm font-semibold text-ink">{name}</span>
                        <span className="shrink-0 text-xs text-muted">
                          {format(new Date(c.lastMessage?.createdAt ?? c.lastMessageAt), 'MMM d')}
                        </span>
                      </span>
                      <span className="block truncate text-sm text-stone-700">{itemTitle(c)}</span>
                    </span>
                    {c.unreadCount > 0 && (
                      <span className="mt-0.5 flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white">
                        {badgeCount(c.unreadCount)}
                        <span className="sr-only"> unread</span>
                      </span>
                    )}
                  </Link>
                </DropdownMenu.Item>
              );
            })
          )}
          <DropdownMenu.Separator className="h-px bg-line" />
          <DropdownMenu.Item asChild>
            <Link
              to={paths.chat()}
              className="block rounded-lg px-3 py-2 text-center text-sm font-semibold text-brand-700 outline-none data-[highlighted]:bg-brand-50"
            >
              View all messages
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
