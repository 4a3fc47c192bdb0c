import { msg } from '@lingui/core/macro';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/server/clock.ts';
import { users } from '../../src/server/db/schema/users.ts';
import { deliveryService } from '../../src/server/features/deliveries/service.ts';
import { notificationService } from '../../src/server/features/notifications/service.ts';
import { createSignedInUser, createUser } from '../factories.ts';
import { mailsTo, passwordResetLinkIn, readOutbox, recipients } from '../helpers/outbox.ts';
import { setupTestApp } from '../helpers/test-app.ts';

// The account's language (users.locale, PUT /api/account/language), and the server
// writing in the reader's language: a request's answer in the caller's (the language cookie, else the
// account's, else Accept-Language), an e-mail or a notification in its recipient's.

const t = setupTestApp();
const db = () => t.database.db;
const tag = () => Math.random().toString(36).slice(2, 8);

async function localeOf(userId: string) {
  const [row] = await db().select({ locale: users.locale }).from(users).where(eq(users.id, userId));
  return row?.locale;
}

/** A request that fails the same way in every case: a profile that does not exist (404). */
const missingProfile = (headers: Record<string, string> = {}, cookie?: string) =>
  t.request({
    method: 'GET',
    url: '/api/users/7d0f2f63-6c6f-4bb5-9d43-1c2a4ae0a8e1',
    headers,
    ...(cookie ? { cookie } : {}),
  });

const badRegistration = {
  fullName: '',
  username: 'ada_bad',
  email: 'ada@gmail.com',
  campus: 'stanford.edu',
  password: '1',
};

describe('PUT /api/account/language', () => {
  it('saves the language on the account and answers the session user with it', async () => {
    const { user, cookie } = await createSignedInUser(db());
    expect(await localeOf(user.id)).toBe('en');

    const response = await t.put('/api/account/language', { locale: 'es' }, cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({ id: user.id, locale: 'es' });
    expect(await localeOf(user.id)).toBe('es');

    // The session call shows it too (and the next device's).
    const me = await t.get('/api/auth/me', cookie);
    expect(me.json().user).toMatchObject({ id: user.id, locale: 'es' });

    const back = await t.put('/api/account/language', { locale: 'en' }, cookie);
    expect(back.json().user.locale).toBe('en');
    expect(await localeOf(user.id)).toBe('en');
  });

  it('refuses a language CampusLoop does not speak, and changes nothing', async () => {
    const { user, cookie } = await createSignedInUser(db(), { locale: 'es' });
    for (const body of [{ locale: 'fr' }, { locale: '' }, {}, { locale: 'ES' }, { locale: ['es'] }]) {
      const response = await t.put('/api/account/language', body, cookie);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
    }
    expect(await localeOf(user.id)).toBe('es');
  });

  it('is for a signed-in person only', async () => {
    const response = await t.put('/api/account/language', { locale: 'es' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHORIZED', message: 'Please sign in to continue.' });
  });
});

describe('GET /api/auth/me', () => {
  it("shows the account's language, English by default", async () => {
    const english = await createSignedInUser(db());
    expect((await t.get('/api/auth/me', english.cookie)).json().user.locale).toBe('en');
    const spanish = await createSignedInUser(db(), { locale: 'es' });
    expect((await t.get('/api/auth/me', spanish.cookie)).json().user.locale).toBe('es');
  });
});

describe('answers in the caller’s language', () => {
  it('writes a validation error in Spanish for Accept-Language: es, the message and every issue', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: badRegistration,
      headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION');
    const messages = body.issues.map((issue: { message: string }) => issue.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'El nombre completo es obligatorio',
        'Debe ser un correo universitario válido',
        'La contraseña debe tener al menos 6 caracteres',
      ]),
    );
    expect(body.message).toBe(body.issues[0].message);
    expect(body.issues.find((i: { path: string }) => i.path === 'fullName').message).toBe(
      'El nombre completo es obligatorio',
    );
    expect(JSON.stringify(body)).not.toContain('is required');
  });

  it('writes the same error in English without Accept-Language (and for a language it does not speak)', async () => {
    for (const headers of [{}, { 'accept-language': 'fr-FR,de;q=0.8' }]) {
      const response = await t.request({
        method: 'POST',
        url: '/api/auth/register',
        payload: badRegistration,
        headers,
      });
      expect(response.statusCode).toBe(400);
      const body = response.json();
      expect(body.issues.map((issue: { message: string }) => issue.message)).toEqual(
        expect.arrayContaining([
          'Full name is required',
          'Must be a valid university email address',
          'Password must be at least 6 characters',
        ]),
      );
      expect(body.message).toBe(body.issues[0].message);
    }
  });

  it('writes the errors of the services in the caller’s language too', async () => {
    expect((await missingProfile()).json()).toMatchObject({ code: 'NOT_FOUND', message: 'User not found.' });
    expect((await missingProfile({ 'accept-language': 'es' })).json()).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Usuario no encontrado.',
    });
  });

  it('follows the language cookie over Accept-Language and over the account’s language', async () => {
    const { cookie } = await createSignedInUser(db(), { locale: 'en' });
    const response = await missingProfile(
      { 'accept-language': 'en-US,en;q=0.9' },
      `${cookie}; campusloop_lang=es`,
    );
    expect(response.json().message).toBe('Usuario no encontrado.');
    // Signed out, the cookie wins over the browser's languages as well.
    const visitor = await t.request({
      method: 'GET',
      url: '/api/users/7d0f2f63-6c6f-4bb5-9d43-1c2a4ae0a8e1',
      headers: { 'accept-language': 'en', cookie: 'campusloop_lang=es' },
    });
    expect(visitor.json().message).toBe('Usuario no encontrado.');
    // And the other way round: an English choice on a Spanish account and browser.
    const spanish = await createSignedInUser(db(), { locale: 'es' });
    const english = await missingProfile(
      { 'accept-language': 'es' },
      `${spanish.cookie}; campusloop_lang=en`,
    );
    expect(english.json().message).toBe('User not found.');
  });

  it('follows the account’s language over Accept-Language', async () => {
    const spanish = await createSignedInUser(db(), { locale: 'es' });
    expect((await missingProfile({ 'accept-language': 'en-US' }, spanish.cookie)).json().message).toBe(
      'Usuario no encontrado.',
    );
    const english = await createSignedInUser(db(), { locale: 'en' });
    expect((await missingProfile({ 'accept-language': 'es' }, english.cookie)).json().message).toBe(
      'User not found.',
    );
  });
});

describe('words the server answers in data', () => {
  it('names the campus achievements and the e-mail kinds in the caller’s language', async () => {
    const es = await t.request({
      method: 'GET',
      url: '/api/impact/stanford.edu/dashboard',
      headers: { 'accept-language': 'es' },
    });
    expect(es.statusCode).toBe(200);
    expect(es.json().achievements.map((a: { title: string }) => a.title)).toEqual([
      'Primeros 100',
      'Campus verde',
      'Constructor de comunidad',
      'Campeón de la sostenibilidad',
    ]);
    const en = await t.get('/api/impact/stanford.edu/dashboard');
    expect(en.json().achievements[0]).toMatchObject({
      title: 'First 100',
      description: '100 items shared on campus',
    });

    const { cookie } = await createSignedInUser(db(), { locale: 'es' });
    const account = await t.get('/api/account', cookie);
    expect(account.json().preferences[0]).toMatchObject({
      kind: 'account_security',
      label: 'Cuenta y seguridad',
    });
  });
});

describe('registration', () => {
  it('gives the new account the language of the request, and writes its e-mail and welcome in it', async () => {
    const id = tag();
    const email = `ana.${id}@stanford.edu`;
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      payload: {
        fullName: 'Ana García',
        username: `ana_${id}`,
        email,
        campus: 'stanford.edu',
        password: 'analytical',
      },
      headers: { 'accept-language': 'es-US,es;q=0.9' },
    });
    expect(response.statusCode).toBe(202);
    expect(response.json().message).toBe(
      `Revisa tu bandeja de entrada: enviamos un correo a ${email}. Abre el enlace que contiene para terminar de crear tu cuenta.`,
    );
    const [row] = await db().select().from(users).where(eq(users.email, email));
    expect(row!.locale).toBe('es');

    const [mail] = await mailsTo(t.outboxDir, email);
    expect(mail!.subject).toBe('Verifica tu correo de CampusLoop');
    expect(mail!.text).toContain('Hola, Ana:');
    expect(mail!.text).toContain(
      `¡Bienvenido a CampusLoop! Confirma que ${email} es tu correo universitario.`,
    );
    expect(mail!.text).toContain('El enlace funciona una sola vez y vence en 24 horas.');
    expect(mail!.html).toContain('<html lang="es"');
    expect(mail!.html).toContain('Verificar mi correo');
    expect(mail!.text).not.toContain('Verify');

    // The welcome notification was written in Spanish too.
    const notices = await notificationService.list(db(), row!.id);
    expect(notices.map((n) => n.title)).toContain('¡Bienvenido a CampusLoop!');
  });

  it('stores English for a request without Accept-Language, and mails in English', async () => {
    const id = tag();
    const email = `ada.${id}@stanford.edu`;
    const response = await t.post('/api/auth/register', {
      fullName: 'Ada Lovelace',
      username: `ada_${id}`,
      email,
      campus: 'stanford.edu',
      password: 'analytical',
    });
    expect(response.statusCode).toBe(202);
    const [row] = await db().select().from(users).where(eq(users.email, email));
    expect(row!.locale).toBe('en');
    const [mail] = await mailsTo(t.outboxDir, email);
    expect(mail!.subject).toBe('Verify your CampusLoop e-mail address');
    expect(mail!.text).toContain('Hi Ada,');
  });
});

describe('e-mails in the recipient’s language', () => {
  it('writes a password reset e-mail to a Spanish account in Spanish, whatever the request’s language', async () => {
    const user = await createUser(db(), { locale: 'es', fullName: 'Lucía Pérez' });
    // The answer follows the request (no Accept-Language: English); the e-mail follows the account.
    const response = await t.post('/api/auth/password-reset', { email: user.email });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(
      `If an account uses ${user.email}, we've sent a link to reset its password.`,
    );
    const [mail] = await mailsTo(t.outboxDir, user.email);
    expect(mail!.subject).toBe('Restablece tu contraseña de CampusLoop');
    expect(mail!.text).toContain('Hola, Lucía:');
    expect(mail!.text).toContain('El enlace funciona una sola vez y vence en 1 hora;');
    expect(mail!.html).toContain('Elige una contraseña nueva');
    expect(mail!.html).toContain('<html lang="es"');
    expect(passwordResetLinkIn(mail!)).toContain('/reset-password?token=');
  });

  it('answers the reset request in Spanish for a Spanish request', async () => {
    const user = await createUser(db());
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: user.email },
      headers: { 'accept-language': 'es' },
    });
    expect(response.json().message).toBe(
      `Si hay una cuenta con ${user.email}, le enviamos un enlace para restablecer su contraseña.`,
    );
    // The account is English: so is its e-mail.
    const [mail] = await mailsTo(t.outboxDir, user.email);
    expect(mail!.subject).toBe('Reset your CampusLoop password');
  });

  it('writes a notification and the chrome of its e-mail in the recipient’s language', async () => {
    const spanish = await createUser(db(), { locale: 'es', fullName: 'Lucía Pérez' });
    const english = await createUser(db(), { locale: 'en', fullName: 'Ada Lovelace' });
    for (const person of [spanish, english]) {
      await db().transaction((tx) =>
        notificationService.notify(tx, {
          userId: person.id,
          type: 'reservation_request',
          text: () => ({ title: msg`Leave a review`, message: msg`Welcome to CampusLoop!` }),
        }),
      );
    }
    const clock = fixedClock(new Date(Date.now() + 10 * 60_000));
    const quiet = { info() {}, warn() {}, error() {} };
    await deliveryService.runRound({
      db: db(),
      mailer: t.app.mailer,
      push: null,
      appUrl: t.config.appUrl,
      clock,
      log: quiet,
    });
    const mailTo = async (email: string) =>
      (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(email.toLowerCase())).at(-1);

    const es = await mailTo(spanish.email);
    expect(es!.subject).toBe('Dejar una reseña');
    expect(es!.text).toContain('Hola, Lucía:');
    expect(es!.text).toContain('¡Bienvenido a CampusLoop!');
    expect(es!.text).toContain('El equipo de CampusLoop');
    expect(es!.text).toContain(
      'Recibes esto porque los correos de "Solicitudes de préstamo" están activados en tu configuración. Darte de baja:',
    );
    expect(es!.html).toContain('Abrir CampusLoop');
    expect(es!.html).toContain('O pega este enlace en tu navegador:');
    expect(es!.html).toContain('Darme de baja de estos correos');
    expect(es!.html).toMatch(/<html [^>]*lang="es"/);
    expect(es!.text).not.toMatch(/Hi |The CampusLoop team|Unsubscribe/);

    const en = await mailTo(english.email);
    expect(en!.subject).toBe('Leave a review');
    expect(en!.text).toContain('Hi Ada,');
    expect(en!.text).toContain(
      'You get this because "Borrow requests" e-mails are on in your settings. Unsubscribe:',
    );
    expect(en!.html).toContain('Open CampusLoop');

    // The stored notification is in its recipient's language too.
    const [stored] = await notificationService.list(db(), spanish.id);
    expect(stored).toMatchObject({ title: 'Dejar una reseña', message: '¡Bienvenido a CampusLoop!' });
  });

  it('shows the unsubscribe page in the language of the person the link belongs to', async () => {
    const spanish = await createUser(db(), { locale: 'es', fullName: 'Lucía Pérez' });
    await db().transaction((tx) =>
      notificationService.notify(tx, {
        userId: spanish.id,
        type: 'reservation_request',
        text: () => ({ title: msg`Leave a review`, message: msg`Welcome to CampusLoop!` }),
      }),
    );
    await deliveryService.runRound({
      db: db(),
      mailer: t.app.mailer,
      push: null,
      appUrl: t.config.appUrl,
      clock: fixedClock(new Date(Date.now() + 10 * 60_000)),
      log: { info() {}, warn() {}, error() {} },
    });
    const mail = (await readOutbox(t.outboxDir)).filter((m) => recipients(m).includes(spanish.email)).at(-1);
    const link = mail!.text?.match(/https?:\/\/\S+\/api\/unsubscribe\?token=\S+/)?.[0];
    expect(link).toBeDefined();
    const page = await t.request({ method: 'GET', url: new URL(link!).pathname + new URL(link!).search });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="es"');
    expect(page.body).toContain('¿Dejar de recibir los correos de &#34;Solicitudes de préstamo&#34;?');
    expect(page.body).toContain('Darme de baja</button>');
  });
});
