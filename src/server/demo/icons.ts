// The lucide icons the demo listings' generated photos show (catalog.ts names one per listing).
// Imported one by one, not by a name built at run time, so the bundle carries these shapes as data
// and a production install, which has no lucide-react (the web app's icon set, a dev dependency),
// can still load the demo campus on a staging box (ALLOW_DEMO_SEED).
import * as armchair from 'lucide-react/icons/armchair';
import * as backpack from 'lucide-react/icons/backpack';
import * as bike from 'lucide-react/icons/bike';
import * as bookBookmark from 'lucide-react/icons/book-bookmark';
import * as bookOpen from 'lucide-react/icons/book-open';
import * as briefcase from 'lucide-react/icons/briefcase';
import * as briefcaseBusiness from 'lucide-react/icons/briefcase-business';
import * as calculator from 'lucide-react/icons/calculator';
import * as camera from 'lucide-react/icons/camera';
import * as chefHat from 'lucide-react/icons/chef-hat';
import * as coffee from 'lucide-react/icons/coffee';
import * as cookingPot from 'lucide-react/icons/cooking-pot';
import * as drill from 'lucide-react/icons/drill';
import * as dumbbell from 'lucide-react/icons/dumbbell';
import * as gamepad2 from 'lucide-react/icons/gamepad-2';
import * as graduationCap from 'lucide-react/icons/graduation-cap';
import * as guitar from 'lucide-react/icons/guitar';
import * as hammer from 'lucide-react/icons/hammer';
import * as headphones from 'lucide-react/icons/headphones';
import * as lampDesk from 'lucide-react/icons/lamp-desk';
import * as library from 'lucide-react/icons/library';
import * as microscope from 'lucide-react/icons/microscope';
import * as monitor from 'lucide-react/icons/monitor';
import * as notebookPen from 'lucide-react/icons/notebook-pen';
import * as packageIcon from 'lucide-react/icons/package';
import * as partyPopper from 'lucide-react/icons/party-popper';
import * as projector from 'lucide-react/icons/projector';
import * as refrigerator from 'lucide-react/icons/refrigerator';
import * as scissors from 'lucide-react/icons/scissors';
import * as shirt from 'lucide-react/icons/shirt';
import * as snowflake from 'lucide-react/icons/snowflake';
import * as soup from 'lucide-react/icons/soup';
import * as sparkles from 'lucide-react/icons/sparkles';
import * as speaker from 'lucide-react/icons/speaker';
import * as table from 'lucide-react/icons/table';
import * as tent from 'lucide-react/icons/tent';
import * as utensils from 'lucide-react/icons/utensils';
import * as wind from 'lucide-react/icons/wind';
import * as wrench from 'lucide-react/icons/wrench';

export type IconNode = [string, Record<string, string | number>][];

const modules = {
  armchair,
  backpack,
  bike,
  'book-bookmark': bookBookmark,
  'book-open': bookOpen,
  briefcase,
  'briefcase-business': briefcaseBusiness,
  calculator,
  camera,
  'chef-hat': chefHat,
  coffee,
  'cooking-pot': cookingPot,
  drill,
  dumbbell,
  'gamepad-2': gamepad2,
  'graduation-cap': graduationCap,
  guitar,
  hammer,
  headphones,
  'lamp-desk': lampDesk,
  library,
  microscope,
  monitor,
  'notebook-pen': notebookPen,
  package: packageIcon,
  'party-popper': partyPopper,
  projector,
  refrigerator,
  scissors,
  shirt,
  snowflake,
  soup,
  sparkles,
  speaker,
  table,
  tent,
  utensils,
  wind,
  wrench,
};

export type DemoIcon = keyof typeof modules;

/** The icon's drawing: SVG elements and their attributes. */
export function iconNode(name: DemoIcon): IconNode {
  // Each icon module exports its data beside the React component; the types only declare the component.
  const data = (modules[name] as { __iconData?: { node: IconNode } }).__iconData;
  if (!data) throw new Error(`lucide icon ${name} has no icon data`);
  return data.node;
}
