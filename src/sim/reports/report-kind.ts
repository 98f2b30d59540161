// A kind of report content (the catalogue's `content`): the fields a client may give for its items,
// how its data is drawn, and the two things drawn from that one data: the XML in the scheme's
// structure and the view the PDF and the XHTML show.
import type { ReportContext } from './report-context.ts';
import type { FieldSpec } from './report-items.ts';
import type { ReportView } from './report-view.ts';

export interface ReportKind<D = unknown> {
  /** Fields of an item a client may give when it injects a report of this kind. */
  fields: readonly FieldSpec[];
  /** Rows a client must give at least, when it gives rows (a submission report lists a file). */
  minRows?: number;
  build(ctx: ReportContext): D;
  xml(data: D): string;
  view(data: D): ReportView;
}

/** Declares a kind with its data type checked across build, xml and view. */
export const kind = <D>(k: ReportKind<D>): ReportKind<unknown> => k as ReportKind<unknown>;
