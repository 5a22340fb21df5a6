/** Response headers of the dashboard's pages, shared by every dashboard route file. */
export const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; img-src 'self' data: https:; style-src 'self'; script-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
};
// The hosted-page previews (branding, Build) are framed by the dashboard only, run no script and submit nothing.
export const PREVIEW_HEADERS = {
  ...PAGE_HEADERS,
  'x-frame-options': 'SAMEORIGIN',
  'content-security-policy': "default-src 'none'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; frame-ancestors 'self'; base-uri 'none'; form-action 'none'",
};
