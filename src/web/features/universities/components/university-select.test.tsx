import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApi, stubApi } from '../../../../../tests/helpers/render-with-api.tsx';
import { UniversityCombobox } from './university-combobox.tsx';
import { preloadUniversityCombobox, UniversitySelect } from './university-select.tsx';

// The campus switch of Home and Browse comes with its button alone; Radix's popover comes when
// someone goes for it (docs/performance.md, "The first script"). Nothing may differ for the person
// pressing it: the same button, the list opening on the first press, the focus in its search field.

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const stanford = { name: 'Stanford University', domain: 'stanford.edu', state: 'CA', city: 'Stanford' };

function renderSelect(Select = UniversitySelect) {
  stubApi({
    '/api/universities?q=': {
      body: { groups: [{ state: 'CA', stateName: 'California', universities: [stanford] }], total: 1 },
    },
  });
  return renderWithApi(
    <>
      <label htmlFor="campus">Campus</label>
      <Select id="campus" value={stanford} onChange={() => {}} display={(u) => u.name} />
    </>,
  );
}

describe('the university selector', () => {
  it("comes as the combobox's own button, so taking its place changes nothing on screen", () => {
    renderSelect();
    const light = screen.getByLabelText('Campus').outerHTML;
    expect(light).toContain('aria-haspopup="dialog"');
    expect(light).toContain('aria-expanded="false"');
    cleanup();
    renderSelect(UniversityCombobox);
    expect(screen.getByLabelText('Campus').outerHTML).toBe(light);
  });

  it('opens on the first press, with the focus in its search field', async () => {
    renderSelect();
    fireEvent.click(screen.getByLabelText('Campus'));
    const search = await screen.findByRole('combobox', { name: 'Search universities' });
    await waitFor(() => expect(document.activeElement).toBe(search));
    expect(await screen.findByRole('option', { name: /Stanford University/ })).toBeTruthy();
  });

  it('keeps the button that has the keyboard focus until it is pressed', async () => {
    renderSelect();
    const button = screen.getByLabelText('Campus');
    act(() => button.focus());
    await act(() => preloadUniversityCombobox());
    // Not swapped under the focus.
    expect(screen.getByLabelText('Campus')).toBe(button);
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    const search = await screen.findByRole('combobox', { name: 'Search universities' });
    await waitFor(() => expect(document.activeElement).toBe(search));
  });
});
