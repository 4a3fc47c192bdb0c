import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../../tests/helpers/render-with-api.tsx';
import { activateLocale } from '../lib/i18n.ts';
import { SUPPORT_EMAIL } from '../paths.ts';
import AboutPage from './about.tsx';
import ContactPage from './contact.tsx';
import HelpPage from './help.tsx';
import PartnersPage from './partners.tsx';
import PrivacyPage from './privacy.tsx';
import SafetyPage from './safety.tsx';
import StoriesPage from './stories.tsx';
import TermsPage from './terms.tsx';

// The information pages (About, Help, Safety, Terms, Privacy, Partners, Contact, Stories) speak the
// reader's language, English by default and Spanish on request.

// Terms, Help and Privacy read the service fee's figures from the server (GET /api/config).
function renderPage(page: ReactElement) {
  stubApi({
    '/api/config': {
      body: {
        payments: { provider: 'test', publishableKey: null },
        fees: {
          serviceFeePercent: 10,
          serviceFeeMin: '1.00',
          serviceFeeMax: '15.00',
          lenderCommissionPercent: 0,
        },
      },
    },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const pages: [string, ReactElement, string, string][] = [
  ['About', <AboutPage key="about" />, 'How It Works', 'Cómo funciona'],
  ['Help', <HelpPage key="help" />, 'Help Center', 'Centro de ayuda'],
  ['Safety', <SafetyPage key="safety" />, 'Safety Guidelines', 'Pautas de seguridad'],
  ['Terms', <TermsPage key="terms" />, 'Terms of Service', 'Términos del servicio'],
  ['Privacy', <PrivacyPage key="privacy" />, 'Privacy Policy', 'Política de privacidad'],
  ['Partners', <PartnersPage key="partners" />, 'Campus Partners', 'Aliados del campus'],
  ['Contact', <ContactPage key="contact" />, 'Contact Us', 'Contáctanos'],
  ['Stories', <StoriesPage key="stories" />, 'Community Stories', 'Historias de la comunidad'],
];

afterEach(cleanup);

describe('the information pages in English', () => {
  it.each(pages)('%s keeps its English title', (_name, page, english) => {
    renderPage(page);
    expect(screen.getByRole('heading', { level: 1, name: english })).toBeTruthy();
    expect(document.title).toBe(`${english} · CampusLoop`);
  });

  it('keeps the legal wording, links inside a sentence included', () => {
    renderPage(<TermsPage />);
    expect(screen.getByText(/These Terms are governed by the laws of the State of California/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
  });
});

describe('the information pages in Spanish', () => {
  beforeEach(async () => {
    await activateLocale('es');
  });
  afterEach(async () => {
    await activateLocale('en');
  });

  it.each(pages)('%s has its Spanish title and no English one', (_name, page, english, spanish) => {
    renderPage(page);
    expect(screen.getByRole('heading', { level: 1, name: spanish })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1, name: english })).toBeNull();
    expect(document.title).toBe(`${spanish} · CampusLoop`);
  });

  it('translates the About page’s steps, benefits and buttons', () => {
    renderPage(<AboutPage />);
    expect(screen.getByRole('heading', { name: 'Únete con tu correo universitario' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Ahorra dinero' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Explorar artículos' }).getAttribute('href')).toBe('/browse');
    expect(screen.queryByText('Save Money')).toBeNull();
    expect(screen.queryByText('Get Started')).toBeNull();
  });

  it('translates the Help Center’s questions and answers', () => {
    renderPage(<HelpPage />);
    expect(screen.getByText('¿Puedo pagar en efectivo?')).toBeTruthy();
    expect(screen.getByText(/^No\. Todos los pagos deben hacerse a través de la app/)).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Temas de preguntas frecuentes' })).toBeTruthy();
    expect(screen.queryByText('Can I pay in cash?')).toBeNull();
  });

  it('translates the Terms paragraph by paragraph, links and the e-mail address kept', () => {
    renderPage(<TermsPage />);
    expect(screen.getByRole('heading', { name: '14. Ley aplicable' })).toBeTruthy();
    expect(screen.getByText(/Estos Términos se rigen por las leyes del Estado de California/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Política de privacidad' }).getAttribute('href')).toBe(
      '/privacy',
    );
    const account = screen.getByText(/Eres responsable de que la información de tu cuenta/);
    expect(within(account).getByRole('link', { name: SUPPORT_EMAIL })).toBeTruthy();
    expect(screen.queryByText(/governed by the laws/)).toBeNull();
    expect(screen.queryByText(/Last updated/)).toBeNull();
  });

  it('translates the Privacy Policy, its bold lead-ins included', () => {
    renderPage(<PrivacyPage />);
    expect(screen.getByText('Con nuestro procesador de pagos.')).toBeTruthy();
    expect(screen.getByText(/No vendemos tu información personal/)).toBeTruthy();
    expect(screen.queryByText(/We do not sell your personal information/)).toBeNull();
  });

  it('asks for a partnership with a Spanish subject, named the same in the text', () => {
    renderPage(<PartnersPage />);
    const link = screen.getByRole('link', { name: 'Proponer una alianza por correo' });
    expect(link.getAttribute('href')).toBe(
      `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('Consulta de alianza')}`,
    );
    expect(screen.getByText(/con el asunto “Consulta de alianza”\./)).toBeTruthy();
  });

  it('translates Contact’s hours and resources but keeps the postal address as it is mailed', () => {
    renderPage(<ContactPage />);
    expect(screen.getByText('Lunes a viernes')).toBeTruthy();
    expect(screen.getByText('Cerrado')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Centro de ayuda' }).getAttribute('href')).toBe('/help');
    expect(screen.getByText(/450 Serra Mall/)).toBeTruthy();
    expect(screen.queryByText('Monday to Friday')).toBeNull();
  });

  it('translates the stories but not the students’ names', () => {
    renderPage(<StoriesPage />);
    expect(
      screen.getByRole('heading', { name: 'Un taladro inalámbrico para un fin de semana' }),
    ).toBeTruthy();
    expect(screen.getByText('Maya R.')).toBeTruthy();
    expect(screen.getByText(/Ingeniería Mecánica, tercer año/)).toBeTruthy();
    expect(screen.queryByText('A cordless drill for one weekend')).toBeNull();
  });

  it('translates the Safety guidelines and prohibited items', () => {
    renderPage(<SafetyPage />);
    expect(screen.getByText('Armas u objetos peligrosos')).toBeTruthy();
    expect(screen.getByText('En caso de emergencia, llama al 911.')).toBeTruthy();
    expect(screen.queryByText('Weapons or dangerous items')).toBeNull();
  });
});
