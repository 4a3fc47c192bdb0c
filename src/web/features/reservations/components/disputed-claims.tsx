import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { HANDOVER_STAGES } from '#shared/booking/handovers.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { Input } from '../../../components/ui/input.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { toast } from '../../../lib/toast.ts';
import { dateTime, dayLabel } from '../dates.ts';
import { useDisputeChat } from '../handover-api.ts';
import { useDecideClaim, useDisputedClaims } from '../queries.ts';
import { Photos } from './deposit-claim.tsx';
import { type HandoverNames, HandoverRecords, StageHeading } from './handover-panel.tsx';

// The moderators' queue of disputed deposit claims, with both sides, the photos and notes
// both added at pickup and at return, and their chat (read-only, decision 033); the moderator decides
// how much of the claim the lender keeps (0 to all of it), and the rest of the deposit is refunded.

export function DisputedClaims() {
  const { t } = useLingui();
  const { data, isPending, isError, error } = useDisputedClaims();
  if (isPending)
    return (
      <p className="mt-6 text-muted">
        <Trans>Loading disputes…</Trans>
      </p>
    );
  if (isError) return <p className="mt-6 text-danger">{errorMessage(error, t`Failed to load disputes.`)}</p>;
  if (!data.claims.length) {
    return (
      <Card className="mt-6 px-6 py-10 text-center">
        <h2 className="text-lg font-semibold text-ink">
          <Trans>No disputed claims</Trans>
        </h2>
        <p className="mt-1 text-muted">
          <Trans>When a borrower disputes a lender's deposit claim, it shows here.</Trans>
        </p>
      </Card>
    );
  }
  return (
    <ul className="mt-6 space-y-4">
      {data.claims.map((r) => (
        <li key={r.id}>
          <DisputedClaim reservation={r} />
        </li>
      ))}
    </ul>
  );
}

function DisputedClaim({ reservation: r }: { reservation: Reservation }) {
  const { t } = useLingui();
  const decide = useDecideClaim();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string>();
  const amountId = useId();
  const noteId = useId();
  const headingId = useId();
  const c = r.claim;
  const title = r.item.title;
  const lender = r.provider.fullName;
  const borrower = r.borrower.fullName;
  const from = dayLabel(r.startDate, 'short');
  const to = dayLabel(r.endDate, 'short');
  const deposit = `$${r.depositAmount}`;
  const claimed = `$${c?.amountClaimed}`;
  const returned = c?.returnedAt ? dateTime(c.returnedAt, 'weekday') : null;
  const names: HandoverNames = {
    borrower: t`${borrower} (borrower)`,
    provider: t`${lender} (lender)`,
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    decide.mutate(
      { id: r.id, amountAwarded: amount, note },
      {
        onSuccess: () =>
          toast({
            title: t`Claim decided`,
            description: t`Both people are told; the rest of the deposit is refunded.`,
          }),
        onError: (failure) => setProblem(errorMessage(failure, t`Failed to decide the claim.`)),
      },
    );
  };
  return (
    <Card className="p-4 sm:p-5">
      <article aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          <Trans>
            {title}: {lender} (lender) and {borrower} (borrower)
          </Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">
          {returned ? (
            <Trans>
              {from} - {to} · {deposit} deposit · returned {returned}
            </Trans>
          ) : (
            <Trans>
              {from} - {to} · {deposit} deposit · not returned
            </Trans>
          )}
        </p>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          <section className="rounded-xl border border-orange-200 bg-orange-50 p-3 text-sm">
            <h3 className="font-semibold text-orange-950">
              <Trans>
                {lender} claims {claimed}
              </Trans>
            </h3>
            <p className="mt-1 whitespace-pre-line text-orange-950">{c?.description}</p>
            {c?.photos.length ? (
              <Photos urls={c.photos} labelOf={(number) => t`Photo ${number} of the problem`} />
            ) : null}
          </section>
          <section className="rounded-xl border border-line bg-stone-50 p-3 text-sm">
            <h3 className="font-semibold text-ink">
              <Trans>{borrower} disputes it</Trans>
            </h3>
            <p className="mt-1 whitespace-pre-line text-ink">{c?.disputeNote}</p>
            {c?.disputePhotos.length ? (
              <Photos
                urls={c.disputePhotos}
                labelOf={(number) => t`Photo ${number} of the borrower's side`}
              />
            ) : null}
          </section>
        </div>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {HANDOVER_STAGES.map((stage) => (
            <section key={stage} className="rounded-xl border border-line p-3 text-sm">
              <h3 className="font-semibold text-ink">
                <StageHeading stage={stage} />
              </h3>
              <HandoverRecords
                records={r.handovers.filter((h) => h.stage === stage)}
                names={names}
                empty={t`Neither of them added anything.`}
              />
            </section>
          ))}
        </div>
        <ChatLog reservation={r} names={names} />
        <form
          onSubmit={onSubmit}
          noValidate
          className="mt-4 grid gap-3 sm:grid-cols-[12rem_1fr_auto] sm:items-end"
        >
          <Field id={amountId} label={t`Lender keeps (0 to ${claimed})`} error={problem}>
            <Input
              {...describedBy(amountId, problem)}
              value={amount}
              onChange={(event) => setAmount(event.target.value.replace(/[^\d.]/g, ''))}
              inputMode="decimal"
              placeholder="0.00"
            />
          </Field>
          <Field id={noteId} label={t`Note to both (optional)`}>
            <Textarea
              id={noteId}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              rows={1}
              className="min-h-11"
              maxLength={2000}
            />
          </Field>
          <Button type="submit" disabled={decide.isPending || !amount}>
            <Trans>Decide</Trans>
          </Button>
        </form>
      </article>
    </Card>
  );
}

/** The two people's chat about the item, read-only: what they agreed and when they said it. */
function ChatLog({ reservation: r, names }: { reservation: Reservation; names: HandoverNames }) {
  const { t } = useLingui();
  const chat = useDisputeChat(r.id);
  const headingId = useId();
  let body: ReactNode;
  if (chat.isPending)
    body = (
      <p className="mt-1 text-muted">
        <Trans>Loading the chat…</Trans>
      </p>
    );
  else if (chat.isError)
    body = <p className="mt-1 text-danger">{errorMessage(chat.error, t`Failed to load the chat.`)}</p>;
  else if (!chat.data.messages.length)
    body = (
      <p className="mt-1 text-muted">
        <Trans>They did not write to each other on CampusLoop.</Trans>
      </p>
    );
  else
    body = (
      // No scroll box of its own: the page scrolls, so a keyboard reads it all too.
      <ol aria-labelledby={headingId} className="mt-2 space-y-2 rounded-lg bg-white p-2">
        {chat.data.hasMore && (
          <li className="text-xs text-muted">
            <Trans>Older messages are not shown.</Trans>
          </li>
        )}
        {chat.data.messages.map((m) => (
          <li key={m.id}>
            <p className="text-xs text-muted">
              <span className="font-semibold text-ink">{names[m.author]}</span> ·{' '}
              {dateTime(m.createdAt, 'short')}
            </p>
            <p className="whitespace-pre-line break-words text-ink">{m.content}</p>
          </li>
        ))}
      </ol>
    );
  return (
    <section className="mt-3 rounded-xl border border-line bg-stone-50 p-3 text-sm">
      <h3 id={headingId} className="font-semibold text-ink">
        <Trans>Their chat</Trans>
      </h3>
      {body}
    </section>
  );
}
