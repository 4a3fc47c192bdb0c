import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../components/ui/button.tsx';
import { Card } from '../components/ui/card.tsx';
import { useSession } from '../features/auth/api.ts';
import { useItem } from '../features/items/api.ts';
import { ItemFormSkeleton } from '../features/items/components/form-section.tsx';
import { ItemForm } from '../features/items/components/item-form.tsx';
import { type ItemPayload, itemToValues } from '../features/items/components/item-form-values.ts';
import { useUpdateItem } from '../features/items/item-mutations.ts';
import { ApiError, errorMessage } from '../lib/api.ts';
import { toast } from '../lib/toast.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { paths } from '../paths.ts';
import { AuthGuard } from '../shell/auth-guard.tsx';

export default function EditItemRoute() {
  return (
    <AuthGuard>
      <EditItemPage />
    </AuthGuard>
  );
}

function denyAccess() {
  toast({
    variant: 'destructive',
    title: translate`Access denied`,
    description: translate`You can only edit your own items.`,
  });
}

function EditItemPage() {
  const { t } = useLingui();
  useDocumentTitle(t`Edit Item`);
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { user } = useSession();
  const query = useItem(id);
  const update = useUpdateItem(id);
  const item = query.data?.item;
  const notOwner = Boolean(item && user && item.userId !== user.id);
  // A cached copy that a change has made stale is refetched before it fills the form.
  const loading = query.isPending || (query.isFetching && query.isStale);

  // Spec §2: a non-owner is told and sent back to the item (once, even in StrictMode).
  const denied = useRef(false);
  useEffect(() => {
    if (!notOwner || denied.current) return;
    denied.current = true;
    denyAccess();
    navigate(paths.item(id), { replace: true });
  }, [notOwner, id, navigate]);

  const defaultValues = useMemo(() => (item ? itemToValues(item) : null), [item]);

  const onSubmit = async (payload: ItemPayload) => {
    try {
      await update.mutateAsync(payload);
      toast({ title: t`Item updated successfully!`, description: t`Your changes have been saved.` });
      navigate(paths.item(id));
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        denyAccess();
        navigate(paths.item(id), { replace: true });
        return;
      }
      toast({
        variant: 'destructive',
        title: t`Failed to update item`,
        description: errorMessage(error, t`Please try again.`),
      });
      throw error;
    }
  };

  if (!loading && !item) {
    const missing =
      query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className="mx-auto max-w-md px-4 py-16">
        <Card className="p-8 text-center">
          <h1 className="text-2xl font-bold text-ink">
            {missing ? <Trans>Item not found</Trans> : <Trans>Failed to fetch item</Trans>}
          </h1>
          <p className="mt-2 text-muted">
            {missing
              ? t`The item you're looking for doesn't exist.`
              : errorMessage(query.error, t`Something went wrong. Please try again.`)}
          </p>
          <Button asChild className="mt-6">
            <Link to={paths.browse}>
              <Trans>Back to Browse</Trans>
            </Link>
          </Button>
        </Card>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link
        to={paths.item(id)}
        className="inline-flex min-h-11 items-center gap-2 rounded-lg text-sm font-semibold text-brand-700 hover:text-brand-800"
      >
        <ArrowLeft className="rtl:-scale-x-100 h-4 w-4" aria-hidden="true" />
        <Trans>Back to Item</Trans>
      </Link>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-ink">
        <Trans>Edit Item</Trans>
      </h1>
      <p className="mt-1 text-muted">
        <Trans>Update the details of your listing.</Trans>
      </p>
      <div className="mt-6">
        {loading || !defaultValues || notOwner ? (
          <>
            <span className="sr-only" role="status">
              <Trans>Loading item…</Trans>
            </span>
            <ItemFormSkeleton />
          </>
        ) : (
          <ItemForm
            key={item?.id}
            defaultValues={defaultValues}
            submitLabel={t`Save Changes`}
            pendingLabel={t`Saving...`}
            cancelTo={paths.item(id)}
            onSubmit={onSubmit}
          />
        )}
      </div>
    </div>
  );
}
