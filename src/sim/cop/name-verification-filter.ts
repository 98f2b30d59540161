// The filters of Form3's name verification list (go-form3's ListNameVerifications), declared as
// fields for the shared list filter.
import type { FilterField } from '../list-filter.ts';
import { valueAt } from '../list-filter.ts';
import type { Resource } from '../resource.ts';
import { NAME_VERIFICATION_FILTERS, type NameVerificationRecord } from './name-verification-records.ts';

type Field = FilterField<NameVerificationRecord>;

const related = (r: NameVerificationRecord, name: string) =>
  r.relationships?.[name]?.data[0] as Resource<object> | undefined;

/**
 * Each filter of ListNameVerifications and what it compares: an attribute; `name` as one string or
 * any of its parts; the record's dates; and for `admission.` and `submission.` the answer's fields
 * and dates of the one the request holds. Date-time bounds are inclusive.
 */
export const NAME_VERIFICATION_FILTER_FIELDS: Readonly<Record<string, Field>> = (() => {
  const fields: Record<string, Field> = {
    organisation_id: { value: (r) => r.organisation_id, compare: 'exact' },
    // filter[name] is a list (csv): any of its values, matching the whole name or one of its parts.
    name: { value: (r) => [r.attributes.name.join(' '), ...r.attributes.name], compare: 'exact' },
    created_date_from: { value: (r) => r.created_on, compare: 'instant_from' },
    created_date_to: { value: (r) => r.created_on, compare: 'instant_to' },
    modified_date_from: { value: (r) => r.modified_on, compare: 'instant_from' },
    modified_date_to: { value: (r) => r.modified_on, compare: 'instant_to' },
  };
  for (const side of ['admission', 'submission'] as const) {
    const of = (r: NameVerificationRecord) => related(r, `name_verification_${side}`);
    for (const key of ['actual_name', 'answer', 'reason', 'reason_code', 'status'])
      fields[`${side}.${key}`] = { value: (r) => valueAt(of(r)?.attributes, key), compare: 'exact' };
    fields[`${side}.created_date_from`] = { value: (r) => of(r)?.created_on, compare: 'instant_from' };
    fields[`${side}.created_date_to`] = { value: (r) => of(r)?.created_on, compare: 'instant_to' };
    fields[`${side}.modified_date_from`] = { value: (r) => of(r)?.modified_on, compare: 'instant_from' };
    fields[`${side}.modified_date_to`] = { value: (r) => of(r)?.modified_on, compare: 'instant_to' };
  }
  for (const name of NAME_VERIFICATION_FILTERS)
    fields[name] ??= { value: (r) => valueAt(r.attributes, name), compare: 'exact' };
  return fields;
})();
