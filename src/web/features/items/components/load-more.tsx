import { Trans } from '@lingui/react/macro';
import { Link, type To } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { keepScroll } from '../../../lib/scroll-restoration.tsx';

/**
 * The control under an item grid that fetches the next page (Home's 'Load More Items', Browse's 'Load
 * more'). Where the pages shown are in the address (Browse), it is a link to the next one: a tap on the
 * pre-rendered page before its script has run still loads it (the server renders that many), and
 * once the app runs the address change fetches the page in place, over the same history entry, with
 * the list kept where it was on screen.
 */
export function LoadMore(
  props: { show: boolean; loading: boolean; label: string } & ({ onLoad: () => void } | { to: To }),
) {
  const { show, loading, label } = props;
  if (!show) return null;
  const text = loading ? <Trans>Loading...</Trans> : label;
  return (
    <div className="mt-8 flex justify-center">
      {'to' in props ? (
        <Button variant="outline" size="lg" asChild>
          <Link
            to={props.to}
            replace
            state={keepScroll.state}
            aria-disabled={loading || undefined}
            onClick={(event) => {
              if (loading) event.preventDefault();
            }}
          >
            {text}
          </Link>
        </Button>
      ) : (
        <Button variant="outline" size="lg" onClick={props.onLoad} disabled={loading}>
          {text}
        </Button>
      )}
    </div>
  );
}
