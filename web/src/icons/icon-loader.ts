import { type IconName, type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

type PathsTable = Partial<Record<IconName, IconPaths>>;

// Blueprint's default loader fetches every icon's paths in one chunk per size (over 200 KB gzipped
// for both). A module per icon was a request per icon instead: fifteen after sign-in, queued with the
// dashboard's calls on the browser's six connections to the server, and one icon missing from the
// list (the sidebar's briefcase) fetched Blueprint's whole chunk and its seventy modules on every
// sign-in (issue 31). The icons the app shows come in one chunk per size (about 8 KB gzipped each),
// the 16px one fetched as the app starts, long before the dashboard needs it. Any other icon still
// loads through Blueprint's loader, so adding one to paths-*.ts is an optimisation, never a fix
// (paths.test.ts checks the icons the app names are there). They live outside ui/, whose modules
// vite.config.ts puts in the first screen's shared chunk.
const TABLES: Record<'16' | '20', () => Promise<{ ICON_PATHS: PathsTable }>> = {
  '16': () => import('./paths-16.ts'),
  '20': () => import('./paths-20.ts'),
};
const loading = new Map<'16' | '20', Promise<PathsTable>>();

function pathsTable(size: IconSize): Promise<PathsTable> {
  const key = size === IconSize.LARGE ? '20' : '16';
  let table = loading.get(key);
  if (!table) {
    table = TABLES[key]().then(
      (m) => m.ICON_PATHS,
      (error: unknown) => {
        // A failed fetch (a deploy replaced the chunk, the network dropped) may be tried again.
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, table);
  }
  return table;
}

export function installIconLoader(): void {
  Icons.setLoaderOptions({
    loader: async (name: IconName, size: IconSize) => {
      const known = (await pathsTable(size).catch(() => undefined))?.[name];
      if (known) return known;
      await Icons.load(name, size, { loader: 'split-by-size' });
      const paths = Icons.getPaths(name, size);
      if (!paths) throw new Error(`Icon ${name} has no paths`);
      return paths;
    },
  });
  // Every screen shows 16px icons: their paths are fetched with the first screen's modules, and handed
  // to Blueprint at once, so an icon mounted later (the dashboard's twenty after sign-in) draws in its
  // first render instead of rendering again, and laying the page out again, once its load resolves.
  void pathsTable(IconSize.STANDARD)
    .then((table) => Icons.load(Object.keys(table) as IconName[], IconSize.STANDARD))
    .catch(() => undefined);
}
