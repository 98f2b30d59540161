// The scenarios the simulator can play: unhappy paths of the real flows, on the scheme clock.
// Reached three ways (docs/scenarios.md): a magic value in a request, POST /v1/simulator/scenarios
// (or `scheme-sim trigger`) aimed at a resource, and this catalogue at GET /v1/simulator/scenarios.

export const SCENARIO_NAMES = [
  'claim_submission.validation_failed',
  'claim_submission.delivery_failed',
  'claim.contra_delayed',
  'claim.contra_withheld',
  'report_admission.failed',
  'notification.duplicate',
  'report.emitted',
  'name_verification.responder_slow',
  'name_verification.responder_failed',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface ScenarioDefinition {
  name: ScenarioName;
  /** The resource type the scenario is aimed at (`target_id`), `any` for any record; absent: no target. */
  target_type?: string;
  /** When it takes effect. */
  when: string;
  /** What happens, and which events the flow emits. */
  effect: string;
  /** Its parameters: name → meaning (and default). */
  parameters: Record<string, string>;
  /** The total claim amount that plays it without the API, like a sandbox's test card number. */
  magic_amount?: string;
}

/** Magic claim totals: a claim disputing exactly this much plays the scenario (docs/scenarios.md). */
export const MAGIC_CLAIM_AMOUNTS: Readonly<Record<string, ScenarioName>> = {
  '900.01': 'claim_submission.validation_failed',
  '900.02': 'claim_submission.delivery_failed',
  '900.03': 'claim.contra_delayed',
  '900.04': 'claim.contra_withheld',
};

const magicFor = (name: ScenarioName) => Object.entries(MAGIC_CLAIM_AMOUNTS).find(([, n]) => n === name)?.[0];

const DEFINITIONS: Array<Omit<ScenarioDefinition, 'magic_amount'>> = [
  {
    name: 'claim_submission.validation_failed',
    target_type: 'claim_submissions',
    when: 'at the validation step of a submission still validation_pending',
    effect:
      'the submission becomes validation_failed with status_reason (an updated event); it is never released, processed or settled',
    parameters: { reason: 'the status_reason (default: the scheme refused the claim at validation)' },
  },
  {
    name: 'claim_submission.delivery_failed',
    target_type: 'claim_submissions',
    when: 'at the delivery step (D0+2) of a submission not yet delivered',
    effect:
      'the submission becomes delivery_failed with status_reason instead of delivery_confirmed (an updated event); it is never settled',
    parameters: { reason: 'the status_reason (default: the originator did not receive the claim)' },
  },
  {
    name: 'claim.contra_delayed',
    target_type: 'claim_submissions',
    when: 'at settlement (D0+14) of a delivered claim that was not reversed',
    effect:
      "the claim leaves its day's contra; the submission's settlement_date moves the given working days later (an updated event) and the claim is settled then by a contra of its own",
    parameters: { working_days: 'how many Bacs working days late, 1 to 20 (default 1)' },
  },
  {
    name: 'claim.contra_withheld',
    target_type: 'claim_submissions',
    when: 'at settlement (D0+14) of a delivered claim that was not reversed',
    effect: 'no contra ever settles the claim; the submission records the scenario (an updated event)',
    parameters: {},
  },
  {
    name: 'report_admission.failed',
    target_type: 'reports',
    when: 'now',
    effect:
      "the report's admission becomes failed with scheme_status_code and scheme_status_code_description (an updated event for report_admissions)",
    parameters: {
      scheme_status_code: 'the scheme status code (default F001)',
      reason: 'scheme_status_code_description (default: the report could not be admitted)',
    },
  },
  {
    name: 'notification.duplicate',
    target_type: 'any',
    when: 'now',
    effect:
      'the newest notification about the target record is queued again for every callback it went to, with the same notification id: a receiver must be idempotent',
    parameters: {},
  },
  {
    name: 'report.emitted',
    when: 'now',
    effect:
      'a report of the catalogue arrives now with its admission (created events), as POST /v1/simulator/reports, optionally with a failed admission',
    parameters: {
      report_type: 'a report_type of the report catalogue (required)',
      processing_date: 'the processing date (default: the catalogue entry`s)',
      admission_status: 'delivery_confirmed (default) or failed',
    },
  },
  {
    name: 'name_verification.responder_slow',
    when: "when the organisation's next name verification is routed to the participant",
    effect:
      "the participant's answer arrives the given seconds of scheme time later: the name verification has no submission until then, and the submission, the participant's admission and their events come at that time",
    parameters: {
      open_banking_id: 'the participant whose answers are slow (required)',
      seconds: 'how late the answer arrives, 1 to 3600 seconds of scheme time (default 10)',
    },
  },
  {
    name: 'name_verification.responder_failed',
    when: "when the organisation's next name verification is routed to the participant",
    effect:
      "the participant does not answer: the submission is delivery_failed and the participant's admission failed, each with status_reason (created events)",
    parameters: {
      open_banking_id: 'the participant that does not answer (required)',
      reason: 'why, in status_reason (default: its endpoint did not respond)',
    },
  },
];

/** Every scenario with its magic amount, in catalogue order. */
export const SCENARIO_CATALOGUE: readonly ScenarioDefinition[] = DEFINITIONS.map((d) => {
  const magic = magicFor(d.name);
  return magic ? { ...d, magic_amount: magic } : d;
});
