import { Trans } from '@lingui/react/macro';
import { MapPin } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { Button } from '../../../components/ui/button.tsx';

// 'My campus first' (decision 025): reserving an item on another campus asks first. CampusLoop hands
// items over in person at a campus meetup, so the borrower should know they are travelling to another
// university before any money is held.

export function OtherCampusConfirm({
  itemCampusName,
  ownCampusName,
  lenderName,
  onContinue,
  onCancel,
}: {
  itemCampusName: string;
  ownCampusName: string;
  lenderName: string;
  onContinue: () => void;
  onCancel: () => void;
}) {
  return (
    <div className="space-y-5">
      <div className="flex items-start gap-3 pe-10">
        <MapPin className="mt-1 h-6 w-6 shrink-0 text-amber-700" aria-hidden="true" />
        <div>
          <Dialog.Title className="text-xl font-bold text-ink">
            <Trans>This item is on another campus</Trans>
          </Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">
            <Trans>
              {lenderName} lends it at <strong className="text-ink">{itemCampusName}</strong>; you are at{' '}
              <strong className="text-ink">{ownCampusName}</strong>. You would pick it up and bring it back in
              person at {itemCampusName}.
            </Trans>
          </Dialog.Description>
        </div>
      </div>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button onClick={onContinue}>
          <Trans>Reserve anyway</Trans>
        </Button>
      </div>
    </div>
  );
}
