import { PATHS } from './paths.ts';

/** Screens whose content later issues build; their routes, guards and layout are real now. */
export interface PlaceholderRoute {
  path: string;
  title: string;
  summary: string;
}

export const MEMBER_PLACEHOLDERS: PlaceholderRoute[] = [
  {
    path: PATHS.analytics,
    title: 'Analytics',
    summary: 'Additions and searches by day, searches by source and hits by category.',
  },
];
