import { useLingui } from '@lingui/react/macro';
import { Loader2, Send } from 'lucide-react';
import { Button, type ButtonProps } from '../../../components/ui/button.tsx';
import { useHere } from '../../../lib/return-to.ts';
import { useResendVerification } from '../queries.ts';

/**
 * 'Resend' the verification e-mail; busy while the server sends it. Its link comes back to this
 * page, or to `returnTo` when given.
 */
export function ResendButton({
  variant = 'outline',
  size = 'sm',
  className,
  returnTo,
  email,
}: Pick<ButtonProps, 'variant' | 'size' | 'className'> & { returnTo?: string | null; email?: string }) {
  const { t } = useLingui();
  const here = useHere();
  const { resend, isPending } = useResendVerification(returnTo === undefined ? here : returnTo, email);
  return (
    <Button variant={variant} size={size} className={className} onClick={resend} disabled={isPending}>
      {isPending ? (
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
      ) : (
        <Send className="h-4 w-4" aria-hidden="true" />
      )}
      {isPending ? t`Sending...` : t`Resend`}
    </Button>
  );
}
