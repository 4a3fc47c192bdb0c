import { day } from './reservation-fixtures.ts';

// What a student types to ask their campus for something: a drill for tomorrow and the day after,
// up to $10 (the tests' usual ask), with any field replaced.

export const drillAsk = (overrides: Record<string, unknown> = {}) => ({
  title: 'Cordless drill',
  category: 'tools',
  note: 'For shelves in my dorm room.',
  startDate: day(1),
  endDate: day(2),
  maxPrice: '10',
  ...overrides,
});
