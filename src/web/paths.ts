// The one table of the app's routes; links are built from it, never typed as strings.

export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  about: '/about',
  safety: '/safety',
  privacy: '/privacy',
  terms: '/terms',
  contact: '/contact',
  help: '/help',
  stories: '/stories',
  partners: '/partners',
  notifications: '/notifications',
} as const;

export const SUPPORT_EMAIL = 'support@campusloop.app';
export const SUPPORT_PHONE = '+1 (650) 555-0142';
export const SUPPORT_PHONE_HREF = 'tel:+16505550142';
