import { Trans, useLingui } from '@lingui/react/macro';
import { formatMoney } from '#shared/format.ts';
import { useServiceFeeRates } from '../lib/client-config.ts';

// What the service fee is (decision 055), in the words Terms, Help and Privacy share, with the figures
// the server charges by (GET /api/config): never written into the pages themselves.

/** '10%' in the reader's language ('10 %' in Spanish). */
function usePercent() {
  const { i18n } = useLingui();
  return (percent: number) =>
    new Intl.NumberFormat(i18n.locale, { style: 'percent', maximumFractionDigits: 2 }).format(percent / 100);
}

/** The fee, what it is refunded with, the commission when there is one, and when the card is charged. */
export function ServiceFeeTerms() {
  const rates = useServiceFeeRates();
  const percentOf = usePercent();
  if (!rates) {
    return (
      <p>
        <Trans>
          Borrowers pay a service fee on the rental, shown as its own line at checkout before they pay.
        </Trans>
      </p>
    );
  }
  const percent = percentOf(rates.serviceFeePercent);
  const min = formatMoney(rates.serviceFeeMinCents);
  const max = formatMoney(rates.serviceFeeMaxCents);
  const commission = percentOf(rates.lenderCommissionPercent);
  const noFee = rates.serviceFeePercent === 0 && rates.serviceFeeMinCents === 0;
  return (
    <>
      <p>
        {noFee ? (
          <Trans>CampusLoop charges borrowers no service fee at the moment.</Trans>
        ) : (
          <Trans>
            Borrowers pay a service fee of {percent} of the rental, at least {min} and at most {max}, shown as
            its own line at checkout. Free items and items with only a deposit have no service fee.
          </Trans>
        )}
      </p>
      {!noFee && (
        <p>
          <Trans>
            When rental is refunded (a cancellation under the item's policy, an early return, or a booking
            cancelled by the lender), the service fee is refunded in the same proportion as the rental. A
            deposit refund, or a deposit the lender keeps, does not change the service fee.
          </Trans>
        </p>
      )}
      {rates.lenderCommissionPercent > 0 && (
        <p>
          <Trans>
            Lenders pay a commission of {commission} of the rental, taken from their rental earnings and
            returned in proportion when rental is refunded. It is never taken from a deposit a lender keeps.
          </Trans>
        </p>
      )}
      <p>
        <Trans>
          When you send a request, your card is held (authorised) for the rental, the service fee and any
          deposit; nothing is charged yet. The card is charged when the lender approves. If the request is
          declined, cancelled or expires, the hold is released.
        </Trans>
      </p>
    </>
  );
}
