export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** A whole page: no scripts and no outside assets, so it works offline and under any CSP. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
.banner { background: #fff4e5; border: 1px solid #f5c27a; padding: .5rem .75rem; font-size: .875rem; }
.error { background: #fdecea; border: 1px solid #e57373; padding: .5rem .75rem; }
label { display: block; margin: .75rem 0 .25rem; }
input { font: inherit; padding: .4rem; width: 100%; box-sizing: border-box; }
.row { display: flex; gap: .75rem; } .row > div { flex: 1; }
button { font: inherit; margin-top: 1rem; padding: .5rem 1rem; }
table { width: 100%; border-collapse: collapse; } td, th { padding: .35rem 0; text-align: left; }
td.amount, th.amount { text-align: right; }
</style>
</head>
<body>
<p class="banner">Billing test mode: no real card is charged.</p>
${body}
</body>
</html>
`;
}
