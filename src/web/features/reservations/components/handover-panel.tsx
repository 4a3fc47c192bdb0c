import { Camera } from 'lucide-react';
import { useId, useState } from 'react';
import {
  HANDOVER_MAX_PHOTOS,
  HANDOVER_NOTE_MAX,
  HANDOVER_STAGES,
  type HandoverStage,
  openStages,
} from '#shared/handovers.ts';
import type { Handover } from '#shared/schemas/handovers.ts';
import type { Reservation } from '#shared/schemas/reservations.ts';
import { Field } from '../../../components/ui/field.tsx';
import { Textarea } from '../../../components/ui/textarea.tsx';
import { toast } from '../../../lib/toast.ts';
import { formatDate } from '../../items/components/item-labels.ts';
import { PhotoUploader } from '../../uploads/components/photo-uploader.tsx';
import { useAddHandover } from '../handover-api.ts';
import { FormDialog, Photos } from './deposit-claim.tsx';

// Issue 17 item 1 (decision 033) on the reservation card: "Condition at pickup" and "Condition at return",
// each person's photos and note with their times, and a form while the stage is open for additions
// (pickup: approved until 24 hours after "Picked Up"; return: from the pickup until a claim is disputed).

const when = (iso: string) => formatDate(iso, "MMM d 'at' h:mm a");

/** Who wrote a record, as the reader should see them. */
export type HandoverNames = Record<Handover['author'], string>;

/** The records of one stage, read-only: on the card and on the moderators' queue. */
export function HandoverRecords({
  records,
  names,
  empty,
}: {
  records: readonly Handover[];
  names: HandoverNames;
  empty: string;
}) {
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
              <Photos urls={group.urls} what={`the ${h.stage} photos by ${names[h.author]}`} />
              {/* Photos added after the first ones say when: a later photo is evidence of a later moment. */}
              {index > 0 && <p className="text-xs text-muted">Added {when(group.addedAt)}</p>}
            </div>
          ))}
        </li>
      ))}
    </ul>
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

const EMPTY: Record<HandoverStage, string> = {
  pickup: 'No photos yet. A few photos as the item changes hands protect you both.',
  return: 'No photos yet. Photos of the item as it comes back help if anything is wrong.',
};

export function HandoverPanel({ reservation: r, viewerId }: { reservation: Reservation; viewerId: string }) {
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
      ? { borrower: 'You', provider: r.provider.fullName }
      : { borrower: r.borrower.fullName, provider: 'You' };
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
  const headingId = useId();
  const records = r.handovers.filter((h) => h.stage === stage);
  const mine = records.find((h) => h.author === role);
  const roomForMore = !mine || mine.photos.length < HANDOVER_MAX_PHOTOS || !mine.note;
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-line bg-stone-50 p-3 text-sm">
      <h3 id={headingId} className="flex items-center gap-2 font-semibold text-ink">
        <Camera className="h-4 w-4 shrink-0 text-brand-700" aria-hidden="true" />
        Condition at {stage}
      </h3>
      <HandoverRecords records={records} names={names} empty={EMPTY[stage]} />
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
  const add = useAddHandover();
  const [photos, setPhotos] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const noteId = useId();
  const other = role === 'borrower' ? r.provider.fullName : r.borrower.fullName;
  const left = HANDOVER_MAX_PHOTOS - (mine?.photos.length ?? 0);
  return (
    <FormDialog
      trigger={mine ? `Add more at ${stage}` : `Add ${stage} photos`}
      triggerVariant="secondary"
      title={`Condition at ${stage}`}
      description={`Photos and a note are kept with the reservation, with their times, and shown to ${other}. What you send can't be taken back; you can add photos later, ${HANDOVER_MAX_PHOTOS} in all.`}
      submitLabel="Save"
      busy={add.isPending}
      onReset={() => {
        setPhotos([]);
        setNote('');
      }}
      onSubmit={() =>
        add
          .mutateAsync({ reservationId: r.id, stage, photos, note: note.trim() || undefined })
          .then(() => toast({ title: 'Saved', description: `${other} sees what you added at ${stage}.` }))
      }
    >
      {(error) => (
        <>
          {left > 0 && <PhotoUploader value={photos} onChange={setPhotos} max={left} />}
          {mine?.note ? (
            <p className="text-sm text-muted">Your note is written: {mine.note}</p>
          ) : (
            <Field
              id={noteId}
              label="Note (optional)"
              hint={`${note.length} of ${HANDOVER_NOTE_MAX} characters`}
            >
              <Textarea
                id={noteId}
                aria-describedby={`${noteId}-hint`}
                value={note}
                onChange={(event) => setNote(event.target.value)}
                rows={3}
                maxLength={HANDOVER_NOTE_MAX}
                placeholder={
                  stage === 'pickup' ? 'Scratches, missing parts, battery level…' : 'How it came back…'
                }
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
