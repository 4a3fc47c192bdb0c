import type { PublicUser } from '../../src/shared/schemas/auth.ts';
import type { CampusImpact, ImpactDashboard, LeaderboardEntry } from '../../src/shared/schemas/impact.ts';

// Sample answers of the impact API for component tests.

export const sam: PublicUser = {
  id: '6c9f2a1e-5b3d-4c7e-8f1a-2b3c4d5e6f70',
  email: 'sam.rivera@berkeley.edu',
  username: 'sam',
  fullName: 'Sam Rivera',
  campus: 'berkeley.edu',
  campusName: 'University of California-Berkeley',
  profileImage: null,
  isVerified: true,
  createdAt: '2026-01-01T00:00:00.000Z',
};

export function campusImpact(overrides: Partial<CampusImpact> = {}): CampusImpact {
  return {
    campus: 'stanford.edu',
    campusName: 'Stanford University',
    itemsShared: 1234,
    moneySaved: '12345.50',
    co2Saved: 2345.6,
    wasteReduced: 100,
    updatedAt: '2026-03-18T19:00:00.000Z',
    ...overrides,
  };
}

export const leaders: LeaderboardEntry[] = [
  {
    rank: 1,
    userId: '0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b',
    name: 'Maya Chen',
    username: 'maya',
    profileImage: null,
    itemsShared: 3,
    co2Saved: 26.5,
    badges: 2,
  },
  {
    rank: 2,
    userId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    name: 'Jordan Lee',
    username: 'jordan',
    profileImage: null,
    itemsShared: 1,
    co2Saved: 0.6,
    badges: 1,
  },
];

export function dashboard(overrides: Partial<ImpactDashboard> = {}): ImpactDashboard {
  return {
    campus: 'berkeley.edu',
    campusName: 'University of California-Berkeley',
    impact: { itemsShared: 1200, moneySaved: '45210.00', co2Saved: 980.4, wasteReduced: 640 },
    month: { start: '2026-03-01T08:00:00.000Z', itemsShared: 612, goal: 500, progressPercent: 100 },
    activeSharers: { thisMonth: 5, lastMonth: 4, changePercent: 25 },
    communityMembers: 140,
    asks: { answered: 18, borrowed: 11 },
    categories: [
      { category: 'books', itemsShared: 400, co2Saved: 240 },
      { category: 'tools', itemsShared: 300, co2Saved: 201 },
      { category: 'clothing', itemsShared: 0, co2Saved: 0 },
    ],
    achievements: [
      {
        id: 'first-100',
        title: 'First 100',
        description: '100 items shared on campus',
        threshold: 100,
        current: 1200,
        unlocked: true,
      },
      {
        id: 'green-campus',
        title: 'Green Campus',
        description: '1 ton of CO₂ saved',
        threshold: 1000,
        current: 980.4,
        unlocked: false,
      },
      {
        id: 'community-builder',
        title: 'Community Builder',
        description: '100 community members',
        threshold: 100,
        current: 140,
        unlocked: true,
      },
      {
        id: 'sustainability-champion',
        title: 'Sustainability Champion',
        description: '1,000 items shared on campus',
        threshold: 1000,
        current: 1200,
        unlocked: true,
      },
    ],
    topContributors: leaders,
    ...overrides,
  };
}
