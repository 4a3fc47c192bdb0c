import { Loader2, Send } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import { useResendVerification } from '../api.ts';

/** 'Resend' the verification e-mail; busy while the server sends it. */
export function ResendButton({
  variant = 'outline',
  size = 'sm',
  className,
}: Pick<ButtonProps, 'variant' | 'size' | 'className'>) {
  const { resend, isPending } = useResendVerification();
  return (
    <Button variant={variant} size={size} className={className} onClick={resend} disabled={isPending}>
      {isPending ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
      ) : (
        <Send className="h-4 w-4" aria-hidden="true" />
      )}
      {isPending ? 'Sending...' : 'Resend'}
    </Button>
  );
}
