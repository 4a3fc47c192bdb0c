import { type ComponentType, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import { TriggerFace, triggerClassName, type UniversitySelectProps } from './university-trigger.tsx';

// Spec §2 Register, and the campus switch of Home and Browse: the university directory's combobox
// (university-combobox.tsx). Its list is Radix's popover with the positioning, focus and dismissal
// code under it, about a tenth of what the first script was, and nothing on the first screen needs it
// before someone goes for the button. So the page comes with the button alone, in the combobox's own
// markup (university-trigger.tsx), on the server and in the browser's first render alike, so hydration
// finds what was rendered; a pointer, a touch or the keyboard focus on it fetches the combobox, which
// then takes the button's place. A press before it has arrived opens it as soon as it is here.
// While the button has the keyboard focus it is not swapped (the focus would be lost): the combobox
// takes its place when it is pressed or left.

type Combobox = ComponentType<UniversitySelectProps & { openAtOnce?: boolean }>;

let combobox: Combobox | undefined;
let loading: Promise<Combobox> | undefined;

/** Fetches the combobox once, for every selector on the page. */
export function preloadUniversityCombobox(): Promise<Combobox> {
  loading ??= import('./university-combobox.tsx').then((module) => {
    combobox = module.UniversityCombobox;
    return combobox;
  });
  return loading;
}

export function UniversitySelect(props: UniversitySelectProps) {
  // Never the combobox in the first render, even when it is already here: the server had the button.
  const [Loaded, setLoaded] = useState<Combobox | null>(null);
  const [focused, setFocused] = useState(false);
  const [pressed, setPressed] = useState(false);

  useEffect(() => {
    const ready = combobox;
    if (ready) setLoaded(() => ready);
  }, []);

  const load = () =>
    void preloadUniversityCombobox().then(
      // At once, with its effects: a press that came first opens the list with the focus in its search
      // field before anything else can be typed.
      (loaded) => flushSync(() => setLoaded(() => loaded)),
      // Offline, or a new version deployed: a second press tries again.
      () => {
        loading = undefined;
      },
    );

  if (Loaded && (pressed || !focused)) return <Loaded {...props} openAtOnce={pressed} />;

  const { id, value, invalid, describedBy, placeholder, display } = props;
  return (
    // Radix's trigger, attribute for attribute, in its order.
    <button
      type="button"
      aria-haspopup="dialog"
      aria-expanded="false"
      data-state="closed"
      id={id}
      aria-invalid={invalid || undefined}
      aria-describedby={describedBy}
      className={triggerClassName(invalid)}
      onPointerEnter={load}
      onTouchStart={load}
      onFocus={() => {
        setFocused(true);
        load();
      }}
      onBlur={() => setFocused(false)}
      onClick={() => {
        setPressed(true);
        load();
      }}
    >
      <TriggerFace value={value} placeholder={placeholder} display={display} />
    </button>
  );
}
