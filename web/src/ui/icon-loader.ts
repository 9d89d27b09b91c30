import { type IconName, type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

type PathsModule = () => Promise<{ default: IconPaths }>;

// Blueprint's default loader fetches every icon's paths in one chunk per size (over 200 KB gzipped
// for both). The icons the app shows load one by one instead; any other icon still loads through
// Blueprint's loader, so adding an icon here is an optimisation, never a fix.
const PATHS_16: Partial<Record<IconName, PathsModule>> = {
  'arrow-right': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-right.js'),
  'bank-account': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/bank-account.js'),
  cog: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/cog.js'),
  dashboard: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/dashboard.js'),
  envelope: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/envelope.js'),
  error: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/error.js'),
  home: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/home.js'),
  lock: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/lock.js'),
  'log-in': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js'),
  'log-out': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/log-out.js'),
  menu: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/menu.js'),
  notifications: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/notifications.js'),
  office: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/office.js'),
  'path-search': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/path-search.js'),
  people: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/people.js'),
  plus: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/plus.js'),
  search: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/search.js'),
  share: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/share.js'),
  shield: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/shield.js'),
  shop: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/shop.js'),
  star: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/star.js'),
  'tick-circle': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle.js'),
  time: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/time.js'),
  'timeline-bar-chart': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/timeline-bar-chart.js'),
  user: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/user.js'),
};

const PATHS_20: Partial<Record<IconName, PathsModule>> = {
  'arrow-right': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/arrow-right.js'),
  'bank-account': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/bank-account.js'),
  cog: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/cog.js'),
  dashboard: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/dashboard.js'),
  envelope: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/envelope.js'),
  error: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/error.js'),
  home: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/home.js'),
  lock: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/lock.js'),
  'log-in': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/log-in.js'),
  'log-out': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/log-out.js'),
  menu: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/menu.js'),
  notifications: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/notifications.js'),
  office: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/office.js'),
  'path-search': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/path-search.js'),
  people: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/people.js'),
  plus: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/plus.js'),
  search: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/search.js'),
  share: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/share.js'),
  shield: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/shield.js'),
  shop: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/shop.js'),
  star: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/star.js'),
  'tick-circle': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/tick-circle.js'),
  time: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/time.js'),
  'timeline-bar-chart': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/timeline-bar-chart.js'),
  user: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/user.js'),
};

export function installIconLoader(): void {
  Icons.setLoaderOptions({
    loader: async (name: IconName, size: IconSize) => {
      const load = (size === IconSize.LARGE ? PATHS_20 : PATHS_16)[name];
      if (load) return (await load()).default;
      await Icons.load(name, size, { loader: 'split-by-size' });
      const paths = Icons.getPaths(name, size);
      if (!paths) throw new Error(`Icon ${name} has no paths`);
      return paths;
    },
  });
}
