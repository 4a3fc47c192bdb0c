import { Trans, useLingui } from '@lingui/react/macro';
import { SendHorizontal } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { MESSAGE_MAX_LENGTH } from '#shared/schemas/chat.ts';
import { Button } from '../../../components/ui/button.tsx';
import { IconTooltip } from '../../../components/ui/tooltip.tsx';

/**
 * Spec §2 Chat / §5 Message: 'Type a message...' ('Connecting...' and disabled while offline);
 * Enter sends the trimmed text, Shift+Enter starts a new line, blank text is not sent.
 */
export function MessageComposer({
  connected,
  onSend,
}: {
  connected: boolean;
  /** Returns false when the text could not be sent (it then stays in the box). */
  onSend: (content: string) => boolean;
}) {
  const { t } = useLingui();
  const [text, setText] = useState('');
  const id = useId();
  const trimmed = text.trim();

  const submit = () => {
    if (!connected || !trimmed) return;
    if (onSend(trimmed)) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    // data-toast-avoid: a toast never covers the message box being typed in (decision 026).
    <form
      onSubmit={onSubmit}
      data-toast-avoid=""
      className="flex items-end gap-2 border-t border-line bg-white p-3"
    >
      <label htmlFor={id} className="sr-only">
        <Trans>Message</Trans>
      </label>
      <textarea
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={connected ? t`Type a message...` : t`Connecting...`}
        disabled={!connected}
        rows={1}
        maxLength={MESSAGE_MAX_LENGTH}
        className="block max-h-32 min-h-11 w-full resize-none rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base text-ink placeholder:text-stone-500 focus:border-brand-600 focus:outline-none focus-visible:outline-2 focus-visible:outline-brand-600 disabled:bg-stone-100"
      />
      <IconTooltip label={t`Send message`}>
        <Button type="submit" size="icon" disabled={!connected || !trimmed} aria-label={t`Send message`}>
          <SendHorizontal className="h-5 w-5" aria-hidden="true" />
        </Button>
      </IconTooltip>
    </form>
  );
}
