import { type IconName, type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

type PathsModule = () => Promise<{ default: IconPaths }>;

// Blueprint's default loader fetches every icon's paths in one chunk per size (over 200 KB gzipped
// for both). The icons the app shows load one by one instead; any other icon still loads through
// Blueprint's loader, so adding an icon here is an optimisation, never a fix.
const PATHS_16: Partial<Record<IconName, PathsModule>> = {
  annotation: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/annotation.js'),
  archive: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/archive.js'),
  'arrow-left': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-left.js'),
  'arrow-right': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/arrow-right.js'),
  'bank-account': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/bank-account.js'),
  'caret-down': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/caret-down.js'),
  'chevron-down': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-down.js'),
  'chevron-left': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-left.js'),
  'chevron-right': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-right.js'),
  'chevron-up': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/chevron-up.js'),
  code: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/code.js'),
  cog: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/cog.js'),
  'credit-card': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/credit-card.js'),
  cross: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/cross.js'),
  dashboard: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/dashboard.js'),
  disable: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/disable.js'),
  'double-caret-vertical': () =>
    import('@blueprintjs/icons/lib/esm/generated/16px/paths/double-caret-vertical.js'),
  'double-chevron-left': () =>
    import('@blueprintjs/icons/lib/esm/generated/16px/paths/double-chevron-left.js'),
  'double-chevron-right': () =>
    import('@blueprintjs/icons/lib/esm/generated/16px/paths/double-chevron-right.js'),
  download: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/download.js'),
  duplicate: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/duplicate.js'),
  edit: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/edit.js'),
  envelope: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/envelope.js'),
  error: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/error.js'),
  'eye-open': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/eye-open.js'),
  'floppy-disk': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/floppy-disk.js'),
  history: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/history.js'),
  home: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/home.js'),
  inbox: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/inbox.js'),
  'info-sign': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/info-sign.js'),
  issue: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/issue.js'),
  key: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/key.js'),
  'lab-test': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/lab-test.js'),
  lock: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/lock.js'),
  'log-in': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/log-in.js'),
  'log-out': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/log-out.js'),
  menu: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/menu.js'),
  minus: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/minus.js'),
  'mobile-phone': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/mobile-phone.js'),
  notifications: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/notifications.js'),
  office: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/office.js'),
  'path-search': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/path-search.js'),
  people: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/people.js'),
  percentage: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/percentage.js'),
  play: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/play.js'),
  plus: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/plus.js'),
  refresh: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/refresh.js'),
  reset: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/reset.js'),
  search: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/search.js'),
  'send-message': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/send-message.js'),
  share: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/share.js'),
  shield: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/shield.js'),
  shop: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/shop.js'),
  'small-cross': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/small-cross.js'),
  star: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/star.js'),
  stop: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/stop.js'),
  'take-action': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/take-action.js'),
  tick: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/tick.js'),
  'tick-circle': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/tick-circle.js'),
  time: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/time.js'),
  'timeline-bar-chart': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/timeline-bar-chart.js'),
  'timeline-line-chart': () =>
    import('@blueprintjs/icons/lib/esm/generated/16px/paths/timeline-line-chart.js'),
  trash: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/trash.js'),
  undo: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/undo.js'),
  user: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/user.js'),
  video: () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/video.js'),
  'warning-sign': () => import('@blueprintjs/icons/lib/esm/generated/16px/paths/warning-sign.js'),
};

const PATHS_20: Partial<Record<IconName, PathsModule>> = {
  annotation: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/annotation.js'),
  archive: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/archive.js'),
  'arrow-left': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/arrow-left.js'),
  'arrow-right': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/arrow-right.js'),
  'bank-account': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/bank-account.js'),
  'caret-down': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/caret-down.js'),
  'chevron-down': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/chevron-down.js'),
  'chevron-left': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/chevron-left.js'),
  'chevron-right': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/chevron-right.js'),
  'chevron-up': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/chevron-up.js'),
  cog: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/cog.js'),
  'credit-card': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/credit-card.js'),
  cross: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/cross.js'),
  dashboard: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/dashboard.js'),
  disable: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/disable.js'),
  'double-caret-vertical': () =>
    import('@blueprintjs/icons/lib/esm/generated/20px/paths/double-caret-vertical.js'),
  'double-chevron-left': () =>
    import('@blueprintjs/icons/lib/esm/generated/20px/paths/double-chevron-left.js'),
  'double-chevron-right': () =>
    import('@blueprintjs/icons/lib/esm/generated/20px/paths/double-chevron-right.js'),
  download: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/download.js'),
  duplicate: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/duplicate.js'),
  edit: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/edit.js'),
  envelope: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/envelope.js'),
  error: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/error.js'),
  'floppy-disk': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/floppy-disk.js'),
  history: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/history.js'),
  home: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/home.js'),
  inbox: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/inbox.js'),
  'info-sign': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/info-sign.js'),
  issue: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/issue.js'),
  key: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/key.js'),
  'lab-test': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/lab-test.js'),
  lock: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/lock.js'),
  'log-in': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/log-in.js'),
  'log-out': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/log-out.js'),
  menu: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/menu.js'),
  minus: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/minus.js'),
  'mobile-phone': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/mobile-phone.js'),
  notifications: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/notifications.js'),
  office: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/office.js'),
  'path-search': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/path-search.js'),
  people: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/people.js'),
  play: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/play.js'),
  plus: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/plus.js'),
  refresh: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/refresh.js'),
  reset: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/reset.js'),
  search: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/search.js'),
  'send-message': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/send-message.js'),
  share: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/share.js'),
  shield: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/shield.js'),
  shop: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/shop.js'),
  'small-cross': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/small-cross.js'),
  star: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/star.js'),
  stop: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/stop.js'),
  'take-action': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/take-action.js'),
  tick: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/tick.js'),
  'tick-circle': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/tick-circle.js'),
  time: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/time.js'),
  'timeline-bar-chart': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/timeline-bar-chart.js'),
  'timeline-line-chart': () =>
    import('@blueprintjs/icons/lib/esm/generated/20px/paths/timeline-line-chart.js'),
  trash: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/trash.js'),
  undo: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/undo.js'),
  user: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/user.js'),
  video: () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/video.js'),
  'warning-sign': () => import('@blueprintjs/icons/lib/esm/generated/20px/paths/warning-sign.js'),
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
