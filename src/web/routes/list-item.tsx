import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CATEGORIES, type Category } from '#shared/constants.ts';
import { useOfferForAsk } from '../features/asks/api.ts';
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
  // Listed from an ask on the "Asked for" board: the form starts from the ask's words, and the new item
  // is offered for it once saved.
  const [params] = useSearchParams();
  const askId = params.get('ask');
  const askTitle = params.get('title');
  const askCategory = params.get('category');
  const offer = useOfferForAsk();
  const defaultValues = useMemo(() => {
    const values = emptyItemValues();
    if (askTitle) values.title = askTitle.slice(0, 120);
    if (askCategory && (CATEGORIES as readonly string[]).includes(askCategory))
      values.category = askCategory as Category;
    return values;
  }, [askTitle, askCategory]);

  const onSubmit = async (payload: ItemPayload) => {
    try {
      const { item } = await create.mutateAsync(payload);
      let offered = false;
      if (askId) {
        try {
          await offer.mutateAsync({ askId, itemId: item.id });
          offered = true;
        } catch (error) {
          // The item is listed all the same; only the offer did not go (the ask closed meanwhile, say).
          toast({
            variant: 'destructive',
            title: t`Your item is listed, but the offer was not sent`,
            description: errorMessage(error, t`Please try again from the Asked for board.`),
          });
        }
      }
      toast({
        title: t`Item listed successfully!`,
        description: offered
          ? t`We offered it for the ask, in a chat message to the student who asked.`
          : t`Your item is now available for others to borrow.`,
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
