/** Screens whose content later issues build; their routes, guards and layout are real now. */
export interface PlaceholderRoute {
  path: string;
  title: string;
  summary: string;
}

export const MEMBER_PLACEHOLDERS: PlaceholderRoute[] = [];
