import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Camera } from 'lucide-react';
import { useId, useState } from 'react';
import {
  HANDOVER_MAX_PHOTOS,
  HANDOVER_NOTE_MAX,
  HANDOVER_STAGES,
  type HandoverStage,
  openStages,
} from '#shared/booking/handovers.ts';
import type { Handover } from '#shared/schemas/handovers.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Field } from '../../../components/ui/field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { toast } from '../../../lib/toast.ts';
import { PhotoUploader } from '../../uploads/api.ts';
import { dateTime } from '../dates.ts';
import { useAddHandover } from '../handover-api.ts';
import { FormDialog, Photos } from './deposit-claim.tsx';

// Decision 033, on the reservation card: "Condition at pickup" and "Condition at return",
// each person's photos and note with their times, and a form while the stage is open for additions
// (pickup: approved until 24 hours after "Picked Up"; return: from the pickup until a claim is disputed).

const when = (iso: string) => dateTime(iso, 'short');

/** Who wrote a record, as the reader should see them. */
export type HandoverNames = Record<Handover['author'], string>;

/** Each stage's words, one message each (a stage's name is not put into a sentence). */
const STAGE_TEXT: Record<
  HandoverStage,
  {
    heading: MessageDescriptor;
    addFirst: MessageDescriptor;
    addMore: MessageDescriptor;
    placeholder: MessageDescriptor;
  }
> = {
  pickup: {
    heading: msg`Condition at pickup`,
    addFirst: msg`Add pickup photos`,
    addMore: msg`Add more at pickup`,
    placeholder: msg`Scratches, missing parts, battery level…`,
  },
  return: {
    heading: msg`Condition at return`,
    addFirst: msg`Add return photos`,
    addMore: msg`Add more at return`,
    placeholder: msg`How it came back…`,
  },
};

/** The heading of a stage's record ('Condition at pickup'), for the card and the moderators' queue. */
export function StageHeading({ stage }: { stage: HandoverStage }) {
  const { i18n } = useLingui();
  return <>{i18n._(STAGE_TEXT[stage].heading)}</>;
}

/** The records of one stage, read-only: on the card and on the moderators' queue. */
export function HandoverRecords({
  records,
  names,
  viewer,
  empty,
}: {
  records: readonly Handover[];
  names: HandoverNames;
  /** The reader's own side, when they are one of the two: their photos are 'by You'. */
  viewer?: Handover['author'];
  empty: string;
}) {
  const { t } = useLingui();
  /** 'Photo 1 of the pickup photos by Maya Chen': one message per stage, and for the reader's own. */
  const photoLabel = (h: Handover) => (number: number) => {
    const name = names[h.author];
    if (h.author === viewer)
      return h.stage === 'pickup'
        ? t`Photo ${number} of the pickup photos by You`
        : t`Photo ${number} of the return photos by You`;
    return h.stage === 'pickup'
      ? t`Photo ${number} of the pickup photos by ${name}`
      : t`Photo ${number} of the return photos by ${name}`;
  };
  if (!records.length) return <p className="mt-1 text-muted">{empty}</p>;
  return (
    <ul className="mt-2 space-y-3">
      {records.map((h) => (
        <li key={h.id}>
          <p className="font-semibold text-ink">
            {names[h.author]} <span className="font-normal text-muted">· {when(h.createdAt)}</span>
          </p>
          {h.note && <p className="mt-0.5 whitespace-pre-line break-words text-ink">{h.note}</p>}
          {photoGroups(h).map((group, index) => (
            <div key={group.addedAt}>
              <Photos urls={group.urls} labelOf={photoLabel(h)} />
              {/* Photos added after the first ones say when: a later photo is evidence of a later moment. */}
              {index > 0 && <AddedAt at={when(group.addedAt)} />}
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

function AddedAt({ at }: { at: string }) {
  return (
    <p className="text-xs text-muted">
      <Trans>Added {at}</Trans>
    </p>
  );
}

/** Photos added together, in the order added. */
function photoGroups(h: Handover): { addedAt: string; urls: string[] }[] {
  const groups: { addedAt: string; urls: string[] }[] = [];
  for (const p of h.photos) {
    const last = groups.at(-1);
    if (last && last.addedAt === p.addedAt) last.urls.push(p.url);
    else groups.push({ addedAt: p.addedAt, urls: [p.url] });
  }
  return groups;
}

const EMPTY: Record<HandoverStage, MessageDescriptor> = {
  pickup: msg`No photos yet. A few photos as the item changes hands protect you both.`,
  return: msg`No photos yet. Photos of the item as it comes back help if anything is wrong.`,
};

export function HandoverPanel({ reservation: r, viewerId }: { reservation: Reservation; viewerId: string }) {
  const { t } = useLingui();
  const role: Handover['author'] = viewerId === r.providerId ? 'provider' : 'borrower';
  const open = openStages(
    { status: r.status, pickedUpAt: r.pickedUpAt ? new Date(r.pickedUpAt) : null },
    new Date(),
  );
  const stages = HANDOVER_STAGES.filter(
    (stage) => open.includes(stage) || r.handovers.some((h) => h.stage === stage),
  );
  if (!stages.length) return null;
  const names: HandoverNames =
    role === 'borrower'
      ? { borrower: t`You`, provider: r.provider.fullName }
      : { borrower: r.borrower.fullName, provider: t`You` };
  return (
    <div className="mt-4 grid gap-3 sm:grid-cols-2">
      {stages.map((stage) => (
        <StageSection
          key={stage}
          reservation={r}
          stage={stage}
          role={role}
          names={names}
          canAdd={open.includes(stage)}
        />
      ))}
    </div>
  );
}

function StageSection({
  reservation: r,
  stage,
  role,
  names,
  canAdd,
}: {
  reservation: Reservation;
  stage: HandoverStage;
  role: Handover['author'];
  names: HandoverNames;
  canAdd: boolean;
}) {
  const { i18n } = useLingui();
  const headingId = useId();
  const records = r.handovers.filter((h) => h.stage === stage);
  const mine = records.find((h) => h.author === role);
  const roomForMore = !mine || mine.photos.length < HANDOVER_MAX_PHOTOS || !mine.note;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-stone-50 p-3 text-sm">
      <h3 id={headingId} className="flex items-center gap-2 font-semibold text-ink">
        <Camera className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        {i18n._(STAGE_TEXT[stage].heading)}
      </h3>
      <HandoverRecords records={records} names={names} viewer={role} empty={i18n._(EMPTY[stage])} />
      {canAdd && roomForMore && (
        <div className="mt-3">
          <AddHandover reservation={r} stage={stage} mine={mine} role={role} />
        </div>
      )}
    </section>
  );
}

function AddHandover({
  reservation: r,
  stage,
  mine,
  role,
}: {
  reservation: Reservation;
  stage: HandoverStage;
  mine: Handover | undefined;
  role: Handover['author'];
}) {
  const { t, i18n } = useLingui();
  const add = useAddHandover();
  const [photos, setPhotos] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const noteId = useId();
  const other = role === 'borrower' ? r.provider.fullName : r.borrower.fullName;
  const left = HANDOVER_MAX_PHOTOS - (mine?.photos.length ?? 0);
  const text = STAGE_TEXT[stage];
  const myNote = mine?.note;
  const most = HANDOVER_MAX_PHOTOS;
  const length = note.length;
  const maxLength = HANDOVER_NOTE_MAX;
  const savedToast = () =>
    toast({
      title: t`Saved`,
      description:
        stage === 'pickup'
          ? t`${other} sees what you added at pickup.`
          : t`${other} sees what you added at return.`,
    });
  return (
    <FormDialog
      trigger={i18n._(mine ? text.addMore : text.addFirst)}
      triggerVariant="secondary"
      title={i18n._(text.heading)}
      description={t`Photos and a note are kept with the reservation, with their times, and shown to ${other}. What you send can't be taken back; you can add photos later, ${most} in all.`}
      submitLabel={t`Save`}
      busy={add.isPending}
      onReset={() => {
        setPhotos([]);
        setNote('');
      }}
      onSubmit={() =>
        add
          .mutateAsync({ reservationId: r.id, stage, photos, note: note.trim() || undefined })
          .then(savedToast)
      }
    >
      {(error) => (
        <>
          {left > 0 && <PhotoUploader value={photos} onChange={setPhotos} max={left} />}
          {myNote ? (
            <p className="text-sm text-muted">
              <Trans>Your note is written: {myNote}</Trans>
            </p>
          ) : (
            <Field id={noteId} label={t`Note (optional)`} hint={t`${length} of ${maxLength} characters`}>
              <Textarea
                id={noteId}
                aria-describedby={`${noteId}-hint`}
                value={note}
                onChange={(event) => setNote(event.target.value)}
                rows={3}
                maxLength={HANDOVER_NOTE_MAX}
                placeholder={i18n._(text.placeholder)}
              />
            </Field>
          )}
          {error && (
            <p role="alert" className="text-sm font-medium text-danger">
              {error}
            </p>
          )}
        </>
      )}
    </FormDialog>
  );
}
