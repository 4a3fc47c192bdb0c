import {
  BookOpen,
  Briefcase,
  CookingPot,
  Laptop,
  type LucideIcon,
  Package,
  Shirt,
  Sofa,
  Wrench,
} from 'lucide-react';
import type { Category } from '#shared/constants.ts';

export const CATEGORY_ICONS: Record<Category, LucideIcon> = {
  clothing: Shirt,
  tools: Wrench,
  books: BookOpen,
  kitchen: CookingPot,
  professional: Briefcase,
  electronics: Laptop,
  furniture: Sofa,
  other: Package,
};
