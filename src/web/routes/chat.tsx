import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, LogIn, MessagesSquare } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { PublicUser } from '#shared/schemas/auth.ts';
import { PagePlaceholder } from '../components/layout/page-placeholder.tsx';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { IconTooltip } from '../components/ui/tooltip.tsx';
import { useSession } from '../features/auth/api.ts';
import {
  fetchMessages,
  itemTitle,
  markConversationRead,
  otherUserName,
  useConversations,
  useMessages,
  useRefreshConversations,
} from '../features/chat/api.ts';
import { ConversationList } from '../features/chat/components/conversation-list.tsx';
import { MessageComposer } from '../features/chat/components/message-composer.tsx';
import { MessageList } from '../features/chat/components/message-list.tsx';
import {
  isTemporary,
  type ShownMessage,
  withConfirmed,
  withHistory,
  withOlder,
  withReceived,
  withSending,
} from '../features/chat/message-timeline.ts';
import { useLiveSocket } from '../features/live/live-socket.tsx';
import { tempMessageId } from '../lib/chat-socket.ts';
import { cn } from '../lib/cn.ts';
import { keepScroll } from '../lib/scroll-restoration.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';

// Spec §2 Chat (/chat): the page itself tells a visitor to sign in (no AuthGuard);
// ?conversation={id} preselects a conversation.

export default function ChatRoute() {
  const { t } = useLingui();
  useDocumentTitle(t`Messages`);
  const { user, isLoading } = useSession();
  if (isLoading) return <PagePlaceholder />;
  if (!user) {
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Card className="flex flex-col items-center p-8 text-center">
          <MessagesSquare className="h-10 w-10 text-brand-700" aria-hidden="true" />
          <h1 className="mt-4 text-xl font-bold text-ink">
            <Trans>Please log in to access messages</Trans>
          </h1>
          <Button asChild className="mt-6">
            <Link to={paths.login}>
              <LogIn className="h-4 w-4" aria-hidden="true" />
              <Trans>Go to Login</Trans>
            </Link>
          </Button>
        </Card>
      </div>
    );
  }
  return <ChatPage user={user} />;
}

function ChatPage({ user }: { user: PublicUser }) {
  const { t } = useLingui();
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = searchParams.get('conversation');
  const conversationsQuery = useConversations();
  const { data: conversations = [], isPending } = conversationsQuery;
  // A failed poll keeps the list it had; only a list never loaded is said to have failed.
  const conversationsFailed = conversationsQuery.isError && conversationsQuery.data === undefined;
  const refresh = useRefreshConversations();
  const { connected, send, subscribe } = useLiveSocket();
  const selected = conversations.find((c) => c.id === selectedId) ?? null;

  const history = useMessages(selectedId);
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);

  // A new selection starts from an empty pane until its history arrives.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset only when the selection changes
  useEffect(() => {
    setMessages([]);
    setHasMore(false);
    setSendError(null);
  }, [selectedId]);

  // The history over HTTP replaces the local list (spec §4); reading it clears unread counts.
  useEffect(() => {
    if (!history.data) return;
    const page = history.data.messages;
    setMessages((list) => withHistory(list, page, user.id));
    setHasMore(history.data.hasMore);
    refresh();
  }, [history.data, refresh, user.id]);

  // Live events (spec §4): confirmations replace temporary bubbles; each message shows once, in the
  // server's order, whether its push or its confirmation comes first (message-timeline.ts).
  useEffect(
    () =>
      subscribe((event) => {
        if (event.type === 'messageConfirm') {
          if (event.conversationId !== selectedId) return;
          setMessages((list) => withConfirmed(list, event.message, event.tempId));
          refresh();
        } else if (event.type === 'newMessage') {
          if (event.conversationId === selectedId) {
            setMessages((list) => withReceived(list, event.message, user.id));
            // Read on arrival when the person is looking at it, so their badge does not count it.
            if (event.message.senderId !== user.id && document.visibilityState === 'visible') {
              markConversationRead(event.conversationId).catch(() => {});
            }
          }
          refresh();
        } else if (event.type === 'error') {
          if (event.tempId) setMessages((list) => list.filter((m) => m.id !== event.tempId));
          setSendError(event.message);
        }
      }),
    [subscribe, selectedId, refresh, user.id],
  );

  const select = (id: string | null) => setSearchParams(id ? { conversation: id } : {}, keepScroll);

  const onSend = (content: string) => {
    if (!selectedId) return false;
    const tempId = tempMessageId();
    if (send(selectedId, content, tempId) === false) return false;
    setSendError(null);
    setMessages((list) =>
      withSending(list, {
        id: tempId,
        conversationId: selectedId,
        senderId: user.id,
        content,
        isRead: false,
        createdAt: new Date().toISOString(),
      }),
    );
    return true;
  };

  const loadOlder = async () => {
    const oldest = messages.find((m) => !isTemporary(m));
    if (!selectedId || !oldest) return;
    setLoadingOlder(true);
    try {
      const page = await fetchMessages(selectedId, oldest.id);
      setMessages((list) => withOlder(list, page.messages));
      setHasMore(page.hasMore);
    } catch (error) {
      setSendError(error instanceof Error ? error.message : t`Failed to load older messages`);
    } finally {
      setLoadingOlder(false);
    }
  };

  return (
    <div className="mx-auto max-w-6xl px-0 md:px-4 md:py-6">
      <h1 className="sr-only">
        <Trans>Chat</Trans>
      </h1>
      <div className="flex h-[calc(100dvh-8rem)] overflow-hidden border-line bg-white md:h-[calc(100dvh-7rem)] md:min-h-[28rem] md:rounded-2xl md:border md:shadow-sm">
        <section
          aria-labelledby="conversations-heading"
          className={cn(
            'w-full flex-col border-line md:flex md:w-80 md:shrink-0 md:border-e',
            selectedId ? 'hidden' : 'flex',
          )}
        >
          <h2
            id="conversations-heading"
            className="border-b border-line px-4 py-3 text-lg font-bold text-ink"
          >
            <Trans>Messages</Trans>
          </h2>
          <div className="flex-1 overflow-y-auto">
            <ConversationList
              conversations={conversations}
              isPending={isPending}
              failed={
                conversationsFailed
                  ? {
                      retry: () => void conversationsQuery.refetch(),
                      retrying: conversationsQuery.isFetching,
                    }
                  : undefined
              }
              selectedId={selectedId}
              onSelect={select}
            />
          </div>
        </section>

        <section
          aria-label={t`Conversation`}
          className={cn('min-w-0 flex-1 flex-col md:flex', selectedId ? 'flex' : 'hidden')}
        >
          {selectedId ? (
            <>
              {/* data-toast-avoid: a toast keeps clear of who this is with and the way back (decision 026). */}
              <div
                className="flex items-center gap-2 border-b border-line px-2 py-2 md:px-4"
                data-toast-avoid=""
              >
                <IconTooltip label={t`Back to conversations`}>
                  <Button
                    variant="ghost"
                    size="icon"
                    className="md:hidden"
                    onClick={() => select(null)}
                    aria-label={t`Back to conversations`}
                  >
                    <ArrowLeft className="rtl:-scale-x-100 h-5 w-5" aria-hidden="true" />
                  </Button>
                </IconTooltip>
                <div className="min-w-0 flex-1">
                  <h2 className="truncate font-bold text-ink">
                    {selected ? otherUserName(selected) : isPending ? t`Loading…` : t`Unknown User`}
                  </h2>
                  <p className="truncate text-sm text-muted">
                    {selected ? itemTitle(selected) : isPending ? '' : t`Item not found`}
                  </p>
                </div>
                {!connected && (
                  <span role="status" className="shrink-0 text-xs font-semibold text-amber-800">
                    <Trans>Connecting...</Trans>
                  </span>
                )}
              </div>
              <MessageList
                messages={messages}
                currentUserId={user.id}
                isPending={history.isPending}
                hasMore={hasMore}
                loadingOlder={loadingOlder}
                onLoadOlder={() => void loadOlder()}
              />
              {history.isError && (
                <p role="alert" className="px-4 py-2 text-sm text-danger">
                  {history.error instanceof Error ? history.error.message : t`Failed to load messages`}
                </p>
              )}
              {sendError && (
                <p role="alert" className="px-4 py-2 text-sm text-danger">
                  {sendError}
                </p>
              )}
              <MessageComposer key={selectedId} connected={connected} onSend={onSend} />
            </>
          ) : (
            <div className="flex flex-1 flex-col items-center justify-center p-8 text-center">
              <MessagesSquare className="h-12 w-12 text-stone-400" aria-hidden="true" />
              <h2 className="mt-4 text-lg font-bold text-ink">
                <Trans>Select a conversation</Trans>
              </h2>
              <p className="mt-1 text-sm text-muted">
                <Trans>Choose a conversation from the sidebar to start chatting.</Trans>
              </p>
            </div>
          )}
        </section>
      </div>
    </div>
  );
}
