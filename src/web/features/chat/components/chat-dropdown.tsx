import { Trans, useLingui } from '@lingui/react/macro';
import { MessageCircle } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { badgeCount, LIMITS } from '#shared/constants.ts';
import { Avatar } from '../../../components/layout/avatar.tsx';
import {
  HeaderDropdownTrigger,
  headerDropdownContentClasses,
} from '../../../components/layout/header-dropdown-trigger.tsx';
import { useTimeLabels } from '../../../lib/time-labels.ts';
import { paths } from '../../../paths.ts';
import { itemTitle, otherUserName, useConversations, useUnreadCount } from '../api.ts';

/** Spec §2 Header: 'Messages', the first five conversations, 'View all messages', the unread badge. */
export function ChatDropdown() {
  const { t } = useLingui();
  const { formatTime } = useTimeLabels();
  const { data: conversations = [] } = useConversations();
  const { data: unreadCount = 0 } = useUnreadCount();
  const shown = conversations.slice(0, LIMITS.dropdownEntries);

  return (
    <DropdownMenu.Root modal={false}>
      <HeaderDropdownTrigger icon={MessageCircle} label={t`Messages`} unread={unreadCount} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={8} className={headerDropdownContentClasses}>
          <DropdownMenu.Label className="px-3 py-2 font-bold text-ink">
            <Trans>Messages</Trans>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="h-px bg-line" />
          {shown.length === 0 ? (
            <div className="px-3 py-6 text-center">
              <p className="text-sm font-semibold text-ink">
                <Trans>No messages yet</Trans>
              </p>
              <p className="mt-1 text-sm text-muted">
                <Trans>Start chatting about items you're interested in!</Trans>
              </p>
            </div>
          ) : (
            shown.map((c) => {
              const name = otherUserName(c);
              const unread = badgeCount(c.unreadCount);
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
                          {formatTime(c.lastMessage?.createdAt ?? c.lastMessageAt, 'day')}
                        </span>
                      </span>
                      <span className="block truncate text-sm text-stone-700">{itemTitle(c)}</span>
                    </span>
                    {c.unreadCount > 0 && (
                      <span className="mt-0.5 flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-700 px-1.5 text-xs font-bold text-white">
                        <Trans>
                          {unread}
                          <span className="sr-only"> unread</span>
                        </Trans>
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
              <Trans>View all messages</Trans>
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
