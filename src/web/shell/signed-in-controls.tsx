import type { SessionUser } from '#shared/schemas/auth.ts';
import { TooltipProvider } from '../components/ui/tooltip.tsx';
import { ChatDropdown } from '../features/chat/components/chat-dropdown.tsx';
import { NotificationsDropdown } from '../features/notifications/components/notifications-dropdown.tsx';
import { UserMenu } from './user-menu.tsx';

// The signed-in person's header controls: Messages, Notifications and the user menu. Their own chunk
// (loaded by header.tsx once someone is signed in), so a visitor's first page load carries none of the
// dropdown menus, their positioning engine or the date formatting they use.

export default function SignedInControls({ user }: { user: SessionUser }) {
  return (
    // One tooltip provider for the three icon buttons: the skip delay carries from one to the next.
    <TooltipProvider>
      <ChatDropdown />
      <NotificationsDropdown />
      <UserMenu user={user} />
    </TooltipProvider>
  );
}
