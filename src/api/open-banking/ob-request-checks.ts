// The checks of a name-verification request that need no body: its route (404, 405) and its
// headers (406, 415, and in strict mode 400), in Open Banking terms.
import { mediaType } from '../body/body.ts';
import { negotiate } from '../wire/negotiate.ts';
import { ObError, type ObRequestInfo } from './ob-errors.ts';
import { NAME_VERIFICATION_PATH } from './participant-paths.ts';

/**
 * The open_banking_id of the name-verification route; 404 off the route, 405 for a method but POST.
 * `path` arrives decoded as Hono decodes it (the Node adapter takes only paths with nothing to decode).
 */
export function routeOf(req: ObRequestInfo): string {
  const openBankingId = NAME_VERIFICATION_PATH.idIn(req.path);
  if (openBankingId === undefined) {
    throw new ObError(404, `route ${req.method} ${req.path} not found`, [
      { ErrorCode: 'UK.OBIE.Resource.NotFound', Message: `no route ${req.path}` },
    ]);
  }
  if (req.method !== 'POST') {
    throw new ObError(
      405,
      `method ${req.method} is not allowed; allowed: POST`,
      [{ ErrorCode: 'UK.OBIE.Field.Invalid', Message: 'only POST is allowed' }],
      { Allow: 'POST' },
    );
  }
  return openBankingId;
}

/**
 * Accept absent, or allowing application/json by the shared negotiation rules (the most specific
 * range decides, so `application/json;q=0` with a wildcard refuses JSON). Common values skip parsing.
 */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept === 'application/json' || accept === '*/*') return true;
  return negotiate(accept, ['application/json']) !== null;
}

export function headerChecks(req: ObRequestInfo, strict: boolean, openBankingId: string): void {
  const accept = req.header('accept');
  if (!acceptsJson(accept)) {
    throw new ObError(406, 'Accept must allow application/json', [
      {
        ErrorCode: 'UK.OBIE.Header.Invalid',
        Message: `Accept ${accept} does not allow application/json`,
        Path: 'Accept',
      },
    ]);
  }
  const contentType = req.header('content-type');
  const type = contentType === 'application/json' ? contentType : mediaType(contentType);
  if (type !== 'application/json') {
    throw new ObError(415, `Content-Type must be application/json, got ${type || 'none'}`, [
      { ErrorCode: 'UK.OBIE.Header.Invalid', Message: 'Content-Type must be application/json', Path: 'Content-Type' },
    ]);
  }
  if (!strict) return;
  const missing = ['x-fapi-financial-id', 'x-jws-signature'].filter((h) => !req.header(h)?.trim());
  if (missing.length > 0) {
    throw new ObError(
      400,
      `required header${missing.length > 1 ? 's' : ''} ${missing.join(', ')} missing`,
      missing.map((h) => ({
        ErrorCode:
          h === 'x-jws-signature' ? ('UK.OBIE.Signature.Missing' as const) : ('UK.OBIE.Header.Missing' as const),
        Message: `${h} is required`,
        Path: h,
      })),
    );
  }
  const financialId = req.header('x-fapi-financial-id')!.trim();
  if (financialId !== openBankingId) {
    throw new ObError(400, `x-fapi-financial-id must be the participant's id ${openBankingId}`, [
      {
        ErrorCode: 'UK.OBIE.Header.Invalid',
        Message: `x-fapi-financial-id ${financialId} is not ${openBankingId}`,
        Path: 'x-fapi-financial-id',
      },
    ]);
  }
}
