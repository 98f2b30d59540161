// The data of a messaging advice report and what tells one kind of advice from another: the kinds
// (kind-bacs-messaging.ts) draw and write it, the view (messaging-view.ts) shows it.
import type { Faker } from '@faker-js/faker';
import type { ReportContext } from './report-context.ts';
import type { FieldSpec, Item } from './report-items.ts';
import type { SchemeCode } from './scheme-codes.ts';
import type { ServiceUser } from './service-users.ts';

export type Advice = Record<string, string | undefined>;

export interface MessagingData {
  adviceType: string;
  reportType: string;
  title: string;
  reportId: string;
  generationTime: string;
  processingDate: string;
  documentNumber: string;
  user: ServiceUser;
  advices: Advice[];
  errors: string[];
}

export interface Flavour {
  adviceType: string;
  reportType: string;
  fields: readonly FieldSpec[];
  /** The attributes of the advice an item makes, in the order files write them. */
  advice(it: Item, ctx: ReportContext): Advice;
  draw(f: Faker, ctx: ReportContext): Item;
  min: number;
  max: number;
  /** Attributes the view shows as columns. */
  columns: string[];
  reasons?: readonly SchemeCode[];
  errors?(items: Item[]): string[];
}
