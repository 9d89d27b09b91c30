import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { partnerOpenApiDocument } from '@mrn/contracts';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

// The partner API's types as a partner would make them: a third-party generator (openapi-typescript)
// fed the published OpenAPI document. The result is committed (server/src/generated/partner-api.d.ts)
// and used with openapi-fetch in the tests; a test fails when it is stale. Regenerate with
// `npm run generate:partner-client`.

export const PARTNER_CLIENT_TYPES = fileURLToPath(new URL('./generated/partner-api.d.ts', import.meta.url));

/** The generated `paths`/`components` types of the partner API document, as the file's text. */
export async function partnerClientTypes(): Promise<string> {
  // The addresses and product name do not reach the types: fixed, so the output is reproducible.
  const doc = partnerOpenApiDocument({
    baseUrl: 'https://mrn.example',
    productName: 'Merchant Risk Network',
  });
  const ast = await openapiTS(doc as unknown as OpenAPI3, { silent: true });
  return `${COMMENT_HEADER}${astToString(ast)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(PARTNER_CLIENT_TYPES, await partnerClientTypes());
  console.log(`wrote ${PARTNER_CLIENT_TYPES}`);
}
