// The demo campus's people: printed at start and listed in the README, so a newcomer can sign in at once.

export const DEMO_PASSWORD = 'campusloop';

export const DEMO_ACCOUNTS = [
  { fullName: 'Maya Chen', username: 'maya', email: 'maya.chen@stanford.edu', campus: 'stanford.edu' },
  { fullName: 'Jordan Lee', username: 'jordan', email: 'jordan.lee@stanford.edu', campus: 'stanford.edu' },
  { fullName: 'Priya Patel', username: 'priya', email: 'priya.patel@stanford.edu', campus: 'stanford.edu' },
  {
    fullName: 'Diego Ramirez',
    username: 'diego',
    email: 'diego.ramirez@stanford.edu',
    campus: 'stanford.edu',
  },
  { fullName: 'Sam Rivera', username: 'sam', email: 'sam.rivera@berkeley.edu', campus: 'berkeley.edu' },
  { fullName: 'Alex Kim', username: 'alexk', email: 'alex.kim@berkeley.edu', campus: 'berkeley.edu' },
] as const;

/**
 * The demo campus's moderator: an ordinary verified account that the configuration makes an admin
 * (ADMIN_EMAILS, or by default wherever the demo campus is loaded; decision 009).
 */
export const DEMO_MODERATOR = {
  fullName: 'Morgan Reyes',
  username: 'moderator',
  email: 'moderator@stanford.edu',
  campus: 'stanford.edu',
} as const;
