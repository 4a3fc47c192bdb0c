// The campus a student picked with a campus switch (Home or Browse), for this tab: Browse opened from
// the menu shows it too, rather than switching to another campus behind the student's back. Kept in
// sessionStorage, so a new tab or a new visit starts from the student's own campus again. Storage a
// browser refuses (private mode, full) only means the choice is not carried over.

const KEY = 'campusloop.chosen-campus';

export function rememberChosenCampus(campus: string): void {
  try {
    sessionStorage.setItem(KEY, campus);
  } catch {
    // Not kept: Browse falls back to the student's own campus.
  }
}

/** The campus last picked in this tab, if any. */
export function chosenCampus(): string | undefined {
  try {
    return sessionStorage.getItem(KEY)?.trim().toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
