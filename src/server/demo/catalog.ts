// biome-ignore-all format: one listing per line reads as a table
import type { Category, Condition, PickupMethod, RentalPeriod } from '#shared/constants.ts';
import type { DemoIcon } from './icons.ts';

// The demo campus's listings: believable things students lend, across every category and condition,
// free and paid, with and without deposits. `owner` indexes DEMO_ACCOUNTS; `icon` names the lucide
// icon the generated photo shows; `photos` is how many photos it gets.

export interface DemoItem {
  owner: number;
  title: string;
  description: string;
  category: Category;
  condition: Condition;
  price?: number;
  period?: RentalPeriod;
  deposit?: number;
  pickupMethod?: PickupMethod;
  location: string;
  icon: DemoIcon;
  hue: number;
  photos?: number;
  days?: number[];
  available?: boolean;
  /** Days from today until it becomes available (negative: already available). */
  startsIn?: number;
}

const WEEKDAYS = [1, 2, 3, 4, 5];
const WEEKENDS = [0, 6];

export const DEMO_ITEMS: DemoItem[] = [
  // Stanford: Maya (0)
  { owner: 0, title: 'Cordless drill with bit set', description: 'DeWalt 20V drill/driver with two batteries, charger and a 30-piece bit set. Great for putting up shelves or assembling furniture.', category: 'tools', condition: 'good', price: 5, period: 'day', deposit: 25, location: 'Lagunita Court lobby', icon: 'drill', hue: 45, photos: 2 },
  { owner: 0, title: 'TI-84 Plus CE graphing calculator', description: 'Rechargeable TI-84 Plus CE with charging cable. Approved for most math and stats exams.', category: 'electronics', condition: 'like-new', price: 3, period: 'day', deposit: 40, location: 'Green Library entrance', icon: 'calculator', hue: 210, photos: 2 },
  { owner: 0, title: 'Cast iron skillet (12 inch)', description: 'Well-seasoned Lodge skillet. Perfect for steaks, cornbread and late-night grilled cheese.', category: 'kitchen', condition: 'good', location: 'Lagunita Court lobby', icon: 'cooking-pot', hue: 20 },
  { owner: 0, title: 'Navy interview blazer (women’s M)', description: 'Tailored navy blazer, dry-cleaned after every use. Ideal for career fairs and interviews.', category: 'professional', condition: 'like-new', price: 8, period: 'week', deposit: 30, location: 'Tresidder Union', icon: 'briefcase-business', hue: 230 },
  { owner: 0, title: 'Organic Chemistry, 3rd edition (Klein)', description: 'Hardcover textbook with the solutions manual. Some highlighting in chapters 1-6.', category: 'books', condition: 'fair', price: 10, period: 'month', location: 'Green Library entrance', icon: 'book-open', hue: 140 },
  { owner: 0, title: 'Yoga mat and blocks', description: 'Thick 6 mm mat with two foam blocks and a strap. Cleaned after each borrow.', category: 'other', condition: 'good', location: 'Arrillaga gym', icon: 'dumbbell', hue: 290, days: WEEKENDS },
  { owner: 0, title: 'Desk lamp with USB port', description: 'LED desk lamp with three brightness levels and a USB charging port.', category: 'furniture', condition: 'new', price: 1, period: 'week', location: 'Lagunita Court lobby', icon: 'lamp-desk', hue: 50 },
  { owner: 0, title: 'Rain jacket (unisex L)', description: 'Waterproof shell with a hood, packs into its own pocket. For the rainy quarter.', category: 'clothing', condition: 'worn', location: 'Tresidder Union', icon: 'shirt', hue: 190 },

  // Stanford: Jordan (1)
  { owner: 1, title: 'Camping tent for four', description: 'Coleman dome tent, sets up in 10 minutes, rain fly included. Great for Big Sur weekends.', category: 'other', condition: 'good', price: 12, period: 'day', deposit: 50, location: 'Roble Field parking', icon: 'tent', hue: 100, photos: 2, days: [4, 5, 6, 0] },
  { owner: 1, title: 'Acoustic guitar', description: 'Yamaha FG800 with a soft case, tuner and spare strings. Beginner friendly.', category: 'other', condition: 'good', price: 6, period: 'day', deposit: 60, location: 'Braun Music Center', icon: 'guitar', hue: 25 },
  { owner: 1, title: 'Portable projector', description: 'Mini HD projector with HDMI and a tripod. Movie nights in the dorm made easy.', category: 'electronics', condition: 'like-new', price: 8, period: 'day', deposit: 60, location: 'Wilbur Hall front desk', icon: 'projector', hue: 260, photos: 2 },
  { owner: 1, title: 'Folding step ladder', description: 'Three-step aluminum ladder, folds flat. Holds up to 225 lb.', category: 'tools', condition: 'fair', location: 'Wilbur Hall front desk', icon: 'hammer', hue: 35 },
  { owner: 1, title: 'Stand mixer', description: 'KitchenAid tilt-head mixer with whisk, paddle and dough hook. For holiday baking.', category: 'kitchen', condition: 'like-new', price: 7, period: 'day', deposit: 80, location: 'Wilbur Hall front desk', icon: 'chef-hat', hue: 0, days: WEEKENDS },
  { owner: 1, title: 'Intro to Algorithms (CLRS)', description: 'The classic algorithms textbook, 4th edition. Light pencil notes only.', category: 'books', condition: 'good', price: 2, period: 'week', location: 'Gates Computer Science', icon: 'book-bookmark', hue: 350 },
  { owner: 1, title: 'Men’s suit, charcoal (40R)', description: 'Two-piece charcoal suit for interviews and formals. Tie included on request.', category: 'professional', condition: 'good', price: 15, period: 'week', deposit: 75, location: 'Tresidder Union', icon: 'shirt', hue: 215 },
  { owner: 1, title: 'Bean bag chair', description: 'Big, comfy bean bag. You carry it, you keep it for the weekend.', category: 'furniture', condition: 'worn', location: 'Wilbur Hall front desk', icon: 'armchair', hue: 10, available: false },

  // Stanford: Priya (2)
  { owner: 2, title: 'DSLR camera (Canon EOS Rebel)', description: 'Canon Rebel T7 with 18-55 mm lens, two batteries and a 64 GB card. For photo assignments.', category: 'electronics', condition: 'good', price: 15, period: 'day', deposit: 150, location: 'McMurtry Building', icon: 'camera', hue: 200, photos: 2 },
  { owner: 2, title: 'Sewing machine', description: 'Brother beginner sewing machine with a box of thread and needles.', category: 'tools', condition: 'like-new', price: 4, period: 'day', deposit: 40, location: 'Florence Moore Hall', icon: 'scissors', hue: 320 },
  { owner: 2, title: 'Rice cooker (6 cups)', description: 'Zojirushi rice cooker with steamer tray. Makes perfect rice every time.', category: 'kitchen', condition: 'good', location: 'Florence Moore Hall', icon: 'soup', hue: 40 },
  { owner: 2, title: 'Formal dress, emerald (S)', description: 'Floor-length emerald gown, worn once. Perfect for formals and galas.', category: 'clothing', condition: 'like-new', price: 20, period: 'week', deposit: 60, location: 'Florence Moore Hall', icon: 'sparkles', hue: 150 },
  { owner: 2, title: 'Psychology 1 reader and notes', description: 'Course reader plus my organised notes for PSYCH 1. Free to a good home for the quarter.', category: 'books', condition: 'worn', location: 'Green Library entrance', icon: 'notebook-pen', hue: 275 },
  { owner: 2, title: 'Standing desk converter', description: 'Sits on any desk and lifts your laptop and monitor to standing height.', category: 'furniture', condition: 'good', price: 5, period: 'week', deposit: 30, location: 'Florence Moore Hall', icon: 'monitor', hue: 180 },
  { owner: 2, title: 'Portable speaker', description: 'JBL Flip waterproof Bluetooth speaker, about 10 hours of battery.', category: 'electronics', condition: 'fair', price: 2, period: 'day', location: 'Florence Moore Hall', icon: 'speaker', hue: 230, days: WEEKENDS },
  { owner: 2, title: 'Moving dolly', description: 'Heavy-duty hand truck for move-in and move-out day. Folds for storage.', category: 'tools', condition: 'good', price: 5, period: 'day', deposit: 20, location: 'Roble Field parking', icon: 'package', hue: 30, startsIn: 10 },

  // Stanford: Diego (3)
  { owner: 3, title: 'Road bike helmet (M)', description: 'Giro helmet with MIPS, adjustable fit. Sanitised between borrows.', category: 'other', condition: 'good', location: 'Escondido Village', icon: 'bike', hue: 5 },
  { owner: 3, title: 'Electric kettle', description: 'Fast-boil 1.7 L kettle with auto shut-off. Tea and ramen season.', category: 'kitchen', condition: 'new', price: 1, period: 'week', location: 'Escondido Village', icon: 'coffee', hue: 30 },
  { owner: 3, title: 'Noise-cancelling headphones', description: 'Sony WH-1000XM4 with case. Finals week focus mode.', category: 'electronics', condition: 'like-new', price: 4, period: 'day', deposit: 100, location: 'Huang Engineering Center', icon: 'headphones', hue: 240, photos: 2, days: WEEKDAYS },
  { owner: 3, title: 'Power tool combo: circular saw', description: 'Ryobi 18V circular saw, battery included. Safety glasses come with it.', category: 'tools', condition: 'fair', price: 6, period: 'day', deposit: 50, location: 'Product Realization Lab', icon: 'hammer', hue: 15 },
  { owner: 3, title: 'Graduation gown and cap', description: 'Black bachelor’s gown (5\'9"-5\'11") and cap. Pressed and ready.', category: 'professional', condition: 'good', price: 10, location: 'Tresidder Union', icon: 'graduation-cap', hue: 260 },
  { owner: 3, title: 'Winter coat (men’s L)', description: 'Insulated parka for ski trips to Tahoe. Warm to -10 °C.', category: 'clothing', condition: 'good', price: 5, period: 'week', deposit: 40, location: 'Escondido Village', icon: 'snowflake', hue: 205 },
  { owner: 3, title: 'Folding table', description: '6 ft folding table for club fairs, bake sales and parties.', category: 'furniture', condition: 'worn', location: 'Escondido Village', icon: 'table', hue: 95 },

  // Berkeley: Sam (4)
  { owner: 4, title: 'Microscope for bio lab', description: 'Compound student microscope, 40x-1000x, with slides. For lab prep at home.', category: 'electronics', condition: 'good', price: 6, period: 'day', deposit: 80, location: 'Valley Life Sciences Building', icon: 'microscope', hue: 170, photos: 2 },
  { owner: 4, title: 'Instant Pot (6 qt)', description: 'Pressure cooker and slow cooker in one. Recipes booklet included.', category: 'kitchen', condition: 'like-new', price: 3, period: 'day', deposit: 30, location: 'Unit 3 dining hall', icon: 'cooking-pot', hue: 355 },
  { owner: 4, title: 'Calculus: Early Transcendentals', description: 'Stewart, 8th edition, for Math 1A/1B. Clean pages.', category: 'books', condition: 'good', price: 5, period: 'month', location: 'Doe Library steps', icon: 'book-open', hue: 120 },
  { owner: 4, title: 'Hiking backpack (50 L)', description: 'Osprey pack with rain cover, fits most torso lengths.', category: 'other', condition: 'fair', price: 4, period: 'day', deposit: 30, location: 'Sather Gate', icon: 'backpack', hue: 80 },
  { owner: 4, title: 'Cordless vacuum', description: 'Lightweight stick vacuum, 30 minutes per charge. Move-out cleaning made easy.', category: 'tools', condition: 'good', location: 'Unit 3 dining hall', icon: 'wind', hue: 190 },
  { owner: 4, title: 'Tie collection (5 ties)', description: 'Five silk ties in classic colours for interviews and formals.', category: 'professional', condition: 'like-new', location: 'Sather Gate', icon: 'briefcase', hue: 0 },
  { owner: 4, title: 'Mini fridge', description: '3.1 cu ft mini fridge with a freezer box. You pick it up, I help carry.', category: 'furniture', condition: 'good', price: 15, period: 'month', deposit: 40, location: 'Unit 3 dining hall', icon: 'refrigerator', hue: 200, days: WEEKENDS },

  // Berkeley: Alex (5)
  { owner: 5, title: 'Nintendo Switch with two controllers', description: 'Switch console, dock and two Joy-Con pairs. Mario Kart included.', category: 'electronics', condition: 'good', price: 7, period: 'day', deposit: 100, location: 'Martin Luther King Jr. Student Union', icon: 'gamepad-2', hue: 0, photos: 2 },
  { owner: 5, title: 'Waffle maker', description: 'Belgian waffle maker, non-stick plates. Brunch is on you.', category: 'kitchen', condition: 'fair', location: 'Clark Kerr Campus', icon: 'utensils', hue: 38 },
  { owner: 5, title: 'Costume box: 70s party', description: 'Flared trousers, two shirts, a wig and sunglasses. Size M-L.', category: 'clothing', condition: 'worn', price: 5, location: 'Clark Kerr Campus', icon: 'party-popper', hue: 300 },
  { owner: 5, title: 'Socket wrench set', description: '40-piece metric and SAE socket set in a case. Bike and car fixes.', category: 'tools', condition: 'new', price: 2, period: 'day', location: 'Etcheverry Hall', icon: 'wrench', hue: 220 },
  { owner: 5, title: 'The Norton Anthology of English Literature', description: 'Volumes A-C for English 45 series. Light annotations.', category: 'books', condition: 'fair', price: 4, period: 'month', location: 'Doe Library steps', icon: 'library', hue: 28 },
  { owner: 5, title: 'Office chair', description: 'Ergonomic mesh chair with lumbar support. Needs a car to pick up.', category: 'furniture', condition: 'good', price: 10, period: 'month', deposit: 30, location: 'Clark Kerr Campus', icon: 'armchair', hue: 210, available: false },
];
