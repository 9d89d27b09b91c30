/** "Chrome 126 on Windows" from a browser's user agent, for the remembered-device line; null when unknown. */
export function describeUserAgent(ua: string | null | undefined): string | null {
  if (!ua) return null;
  const browsers: [RegExp, string][] = [
    [/Edg\/(\d+)/, 'Edge'],
    [/OPR\/(\d+)/, 'Opera'],
    [/Firefox\/(\d+)/, 'Firefox'],
    [/HeadlessChrome\/(\d+)/, 'Headless Chrome'],
    [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
    [/Version\/(\d+)(?:\.\d+)* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  ];
  const systems: [RegExp, string][] = [
    [/iPhone|iPad|iPod/, 'iOS'],
    [/Android/, 'Android'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ];
  const browser = browsers.map(([re, name]) => [re.exec(ua), name] as const).find(([m]) => m);
  const system = systems.find(([re]) => re.test(ua))?.[1];
  if (!browser && !system) return null;
  const browserText = browser ? `${browser[1]} ${browser[0]?.[1] ?? ''}`.trim() : 'A browser';
  return system ? `${browserText} on ${system}` : browserText;
}
