import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../features/auth/api.ts';
import { VerificationRequired } from '../features/email-verification/components/verification-required.tsx';
import { ItemForm } from '../features/items/components/item-form.tsx';
import { emptyItemValues, type ItemPayload } from '../features/items/components/item-form-values.ts';
import { useCreateItem } from '../features/items/item-mutations.ts';
import { errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

export default function ListItemRoute() {
  return (
    <AuthGuard>
      <ListItemPage />
    </AuthGuard>
  );
}

function ListItemPage() {
  const { t } = useLingui();
  useDocumentTitle(t`List an Item`);
  const navigate = useNavigate();
  const { user } = useSession();
  const create = useCreateItem();
  const defaultValues = useMemo(emptyItemValues, []);

  const onSubmit = async (payload: ItemPayload) => {
    try {
      const { item } = await create.mutateAsync(payload);
      toast({
        title: t`Item listed successfully!`,
        description: t`Your item is now available for others to borrow.`,
      });
      navigate(paths.item(item.id));
    } catch (error) {
      toast({
        variant: 'destructive',
        title: t`Failed to list item`,
        description: errorMessage(error, t`Please try again.`),
      });
      throw error;
    }
  };

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-3xl font-bold tracking-tight text-ink">
        <Trans>List an Item</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Share something you own with students on your campus.</Trans>
      </p>
      {user && !user.isVerified && (
        // Before they fill the form, not after; what they type stays while they verify in another tab.
        <div className="mt-6">
          <VerificationRequired email={user.email} action="list items" />
        </div>
      )}
      <div className="mt-6">
        <ItemForm
          defaultValues={defaultValues}
          submitLabel={t`List Item`}
          pendingLabel={t`Listing...`}
          cancelTo={paths.browse}
          onSubmit={onSubmit}
        />
      </div>
    </div>
  );
}
