import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RatingSummary, Stars, toHalfStars } from './rating.tsx';

afterEach(cleanup);

const stars = (root: HTMLElement) =>
  [...root.querySelectorAll('[data-star]')].map((star) => star.getAttribute('data-star'));

describe('ratings', () => {
  it('draws 4.5 as four and a half stars, announced with the count', () => {
    render(<RatingSummary rating={{ average: 4.5, count: 12 }} />);
    const rating = screen.getByRole('img', { name: 'Rated 4.5 out of 5, 12 reviews' });
    expect(stars(rating)).toEqual(['full', 'full', 'full', 'full', 'half']);
    expect(rating.textContent).toContain('4.5 (12)');
  });

  it('rounds to the nearest half star: a 4.9 shows five, a 4.2 four', () => {
    expect([4.9, 4.74, 4.75, 4.2, 4.25, 1, 0.2].map(toHalfStars)).toEqual([5, 4.5, 5, 4, 4.5, 1, 0]);
    render(<RatingSummary rating={{ average: 4.9, count: 3 }} />);
    const rating = screen.getByRole('img', { name: 'Rated 4.9 out of 5, 3 reviews' });
    expect(stars(rating)).toEqual(['full', 'full', 'full', 'full', 'full']);
  });

  it('shows nothing at all without reviews', () => {
    const { container } = render(
      <>
        <RatingSummary rating={null} />
        <RatingSummary rating={{ average: 0, count: 0 }} />
      </>,
    );
    expect(container.innerHTML).toBe('');
  });

  it('announces a lone review’s stars by themselves', () => {
    render(<Stars rating={3.5} />);
    expect(stars(screen.getByRole('img', { name: 'Rated 3.5 out of 5' }))).toEqual([
      'full',
      'full',
      'full',
      'half',
      'empty',
    ]);
  });
});
