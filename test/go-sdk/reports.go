package main

import (
	"fmt"
	"os"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/go-openapi/strfmt"
)

// reportFlow lists the reports that arrived while the claim timeline ran (the DDIC claim submission
// report among them), fetches one as JSON and its Report Admission. The seed: a Report's
// relationships.report_admission.data is an array of Report Admission, and the admission's
// relationships.report.data holds the Report with its attributes.
func reportFlow(mode string, f3 *form3.F3) {
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	list, err := f3.Reports.ListReports().WithFilterOrganisationID([]strfmt.UUID{org}).Do()
	must(mode+": list reports", err)
	valid(mode+": list reports", list)
	if len(list.Data) == 0 {
		fail(mode+": list reports", "no report arrived during the claim timeline")
	}
	id := list.Data[0].ID
	report, err := f3.Reports.GetReport().WithID(id).WithAccept("application/vnd.api+json").Do()
	must(mode+": fetch report", err)
	valid(mode+": fetch report", report)
	rel := report.Data.Relationships
	if rel == nil || rel.ReportAdmission == nil || len(rel.ReportAdmission.Data) != 1 || rel.ReportAdmission.Data[0].Attributes == nil {
		fail(mode+": fetch report", "relationships.report_admission.data does not hold the admission")
	}
	admission, err := f3.Reports.GetReportAdmission().WithID(id).WithAdmissionID(rel.ReportAdmission.Data[0].ID).Do()
	must(mode+": fetch report admission", err)
	valid(mode+": fetch report admission", admission)
	back := admission.Data.Relationships
	if back == nil || back.Report == nil || len(back.Report.Data) != 1 || back.Report.Data[0].ID != id ||
		back.Report.Data[0].Attributes == nil || back.Report.Data[0].Attributes.ReportType == "" {
		fail(mode+": fetch report admission", "relationships.report.data does not hold the report with its attributes")
	}
	fmt.Printf("go-form3 %s: %d reports listed; report and admission fetched\n", mode, len(list.Data))
}
