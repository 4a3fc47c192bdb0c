import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CATEGORIES } from '#shared/constants.ts';
import { CATEGORY_FACTORS } from '#shared/impact.ts';
import { dashboard, leaders } from '../../../tests/helpers/impact-fixtures.ts';
import { renderWithApi, stubApi } from '../../../tests/helpers/render-with-api.tsx';
import { TYPICAL_ITEMS } from '../features/impact/components/impact-assumptions.tsx';
import { activateLocale, i18n } from '../lib/i18n.ts';
import { Header } from '../shell/header.tsx';
import { MobileBar } from '../shell/mobile-bar.tsx';
import ImpactPage from './impact.tsx';
import NotFoundPage from './not-found.tsx';

// The app's own frame and the impact dashboard read in Spanish, numbers and months
// written as a Spanish reader in the US expects, with no English left in what they say.

const berkeley = dashboard({ topContributors: leaders });
const answers = {
  '/api/auth/me': { body: { user: null } },
  '/api/impact': {
    body: {
      defaultCampus: { campus: 'berkeley.edu', campusName: berkeley.campusName },
      campuses: [{ campus: 'berkeley.edu', campusName: berkeley.campusName, itemsShared: 1200 }],
    },
  },
  '/api/impact/berkeley.edu/dashboard': { body: berkeley },
};

describe('in Spanish', () => {
  beforeEach(async () => {
    await activateLocale('es');
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await activateLocale('en');
  });

  it('the impact dashboard says everything in Spanish', async () => {
    stubApi(answers);
    renderWithApi(<ImpactPage />, '/impact?campus=berkeley.edu');
    expect(screen.getByRole('heading', { level: 1, name: 'Panel de impacto del campus' })).toBeTruthy();

    await screen.findByText('$45,210');
    const ours = screen.getByRole('region', { name: 'Nuestro impacto' });
    for (const text of ['1,200', '980 kg', '1,411 lb', 'Artículos compartidos', 'préstamos devueltos'])
      expect(within(ours).getByText(text)).toBeTruthy();

    const goals = screen.getByRole('region', { name: 'Metas de sostenibilidad' });
    expect(
      within(goals).getByRole('progressbar', { name: 'Meta de artículos compartidos en marzo' }),
    ).toBeTruthy();
    expect(within(goals).getByText('100% de la meta de marzo: ¡lograda!')).toBeTruthy();
    expect(within(goals).getByText('+25% respecto al mes pasado (4)')).toBeTruthy();
    expect(goals.textContent).toContain('5 personas activas en marzo');
    expect(goals.textContent).toContain(
      '140 estudiantes en la comunidad de University of California-Berkeley.',
    );

    const categories = screen.getByRole('region', { name: 'Impacto por categoría' });
    const cards = within(categories).getAllByRole('listitem');
    expect(cards.map((c) => c.querySelector('h3')?.textContent)).toEqual(['Libros', 'Herramientas', 'Ropa']);
    expect(cards[0]!.textContent).toContain('400 compartidos');
    expect(cards[2]!.textContent).toContain('Ninguno devuelto aún');

    const achievements = screen.getByRole('region', { name: 'Logros del campus' });
    expect(achievements.textContent).toContain('980 de 1,000 kg de CO₂');
    expect(achievements.textContent).toContain('Desbloqueado');

    const campus = screen.getByRole('region', { name: 'University of California-Berkeley' });
    expect(campus.textContent).toContain(
      '140 estudiantes comparten aquí. 1,200 préstamos devueltos hasta ahora.',
    );
    expect(campus.textContent).toContain('Quienes más aportaron esta semana');
    expect(campus.textContent).toContain('3 artículos compartidos');
    expect(campus.textContent).toContain('1 insignia');

    const method = screen.getByRole('region', { name: 'Cómo lo calculamos' });
    expect(method.textContent).toContain('cuenta como la mitad de lo que comprar algo nuevo habría costado');
    expect(method.textContent).toContain('un libro de texto');
    expect(within(method).getByRole('rowheader', { name: 'Muebles' })).toBeTruthy();
    expect(method.textContent).toContain('acero 2, aluminio 9');

    // Nothing the page says is left in English (the campus, people's names and the server's
    // achievement names are data).
    const text = document.body.textContent ?? '';
    for (const english of [
      'Our Impact',
      'Sustainability Goals',
      'students share',
      'borrows returned',
      'of the goal',
    ])
      expect(text).not.toContain(english);
    expect(document.title).toBe('Impacto de University of California-Berkeley · CampusLoop');
  });

  it('the header, the phone bar and the missing page speak Spanish', async () => {
    stubApi(answers);
    renderWithApi(
      <>
        <Header />
        <NotFoundPage />
        <MobileBar />
      </>,
    );
    expect(screen.getByRole('navigation', { name: 'Principal' }).textContent).toBe(
      'ExplorarPublicar artículoImpacto',
    );
    expect(await screen.findByRole('link', { name: 'Únete ahora' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Inicio de CampusLoop' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: '404: página no encontrada' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver al inicio' })).toBeTruthy();
    const phone = screen.getByRole('navigation', { name: 'Móvil' });
    expect(within(phone).getByRole('link', { name: 'Iniciar sesión' })).toBeTruthy();
    expect(phone.textContent).not.toContain('Browse');
    expect(document.title).toBe('Página no encontrada · CampusLoop');
  });
});

describe('the typical items of the method table', () => {
  it('say in English what CATEGORY_FACTORS says (its words are kept there too)', () => {
    for (const category of CATEGORIES)
      expect(i18n._(TYPICAL_ITEMS[category])).toBe(CATEGORY_FACTORS[category].typical);
  });
});
