import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewInput, WrittenReview } from '#shared/schemas/reviews.ts';
import { api } from '../../lib/api.ts';
import { notificationKeys, userKeys } from '../../lib/query-keys.ts';
import { itemKeys } from '../items/api.ts';

// Reviews (contract in src/shared/schemas/reviews.ts).

export const reviewKeys = {
  mine: ['/api/reviews/mine'] as const,
};

/** GET /api/reviews/mine: what the signed-in person has reviewed, so cards know what is left to write. */
export function useMyReviews(enabled = true) {
  return useQuery({
    queryKey: reviewKeys.mine,
    queryFn: async () => (await api.get<{ reviews: WrittenReview[] }>('/api/reviews/mine')).reviews,
    // The other party's review reveals ours: asked again whenever My Reservations opens.
    staleTime: 0,
    enabled,
  });
}

/**
 * POST /api/reviews. A review can reveal the other one and earn badges, so profiles and item pages
 * are refetched along with the notifications it may have caused.
 */
export function useCreateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewInput) =>
      api.post<{ success: true; review: WrittenReview }>('/api/reviews', input),
    onSettled: () => {
      // Also after a 409 (already reviewed elsewhere): the card then shows the stored review.
      void queryClient.invalidateQueries({ queryKey: reviewKeys.mine });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      void queryClient.invalidateQueries({ queryKey: itemKeys.all });
    },
  });
}
