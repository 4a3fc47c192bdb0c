import { Trans } from '@lingui/react/macro';
import { Button } from '../../../components/ui/button.tsx';

/** The button under an item grid that fetches the next page (Home's 'Load More Items', Browse's 'Load more'). */
export function LoadMore({
  show,
  loading,
  onLoad,
  label,
}: {
  show: boolean;
  loading: boolean;
  onLoad: () => void;
  label: string;
}) {
  if (!show) return null;
  return (
    <div className="mt-8 flex justify-center">
      <Button variant="outline" size="lg" onClick={onLoad} disabled={loading}>
        {loading ? <Trans>Loading...</Trans> : label}
      </Button>
    </div>
  );
}
