// The planted fault of the generated checks' test: a target that no longer enforces one constraint
// of one operation (an account's country must match ^[A-Z]{2}$). A request that breaks it reaches the
// double mended, so the double accepts what its document says it refuses. Test-only: never in src.
import type { Target } from '../../features/support/targets.ts';

const ACCOUNTS = '/v1/organisation/accounts';
const COUNTRY = /^[A-Z]{2}$/;

/** The target, but a create of an account with a country that breaks its pattern is sent with country GB. */
export function withoutCountryPattern(target: Target): Target {
  return {
    ...target,
    fetch: async (request) => {
      if (request.method !== 'POST' || new URL(request.url).pathname !== ACCOUNTS) return target.fetch(request);
      const text = await request.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        return target.fetch(new Request(request, { body: text }));
      }
      const attributes = body?.data?.attributes;
      const broken =
        attributes !== null &&
        typeof attributes === 'object' &&
        'country' in attributes &&
        !(typeof attributes.country === 'string' && COUNTRY.test(attributes.country));
      return target.fetch(
        new Request(request, {
          body: broken
            ? JSON.stringify({ ...body, data: { ...body.data, attributes: { ...attributes, country: 'GB' } } })
            : text,
        }),
      );
    },
  };
}
