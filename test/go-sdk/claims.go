package main

import (
	"fmt"
	"os"
	"time"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/form3tech-oss/go-form3/v7/pkg/generated/models"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

// claimFlow drives the whole DDIC timeline through the SDK: two claims built as the SDK builds them
// (BACS, as its enum spells it), each submitted; one day on, the first is reversed and its reversal
// submitted; fourteen working days on, the second is settled by a contra Payment with its Payment
// Admission. Every answer of the four claim resources and of the payment is checked against
// go-form3's models.
func claimFlow(mode string, f3 *form3.F3, ctl *control) {
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	reversed, reversedSubmission := createAndSubmit(mode+": claim to reverse", f3, org)
	settled, _ := createAndSubmit(mode+": claim to settle", f3, org)

	// The SDK's own list filters: organisation ids joined with commas, a date-time bound.
	from := strfmt.DateTime(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	list, err := f3.Claims.ListClaims().
		WithFilterOrganisationID([]strfmt.UUID{strfmt.UUID(uuid.New().String()), org}).
		WithFilterReference("DDICGOFORM3").
		WithFilterSubmissionSubmissionDateFrom(from).
		Do()
	must(mode+": list claims", err)
	valid(mode+": list claims", list)
	found := 0
	for _, c := range list.Data {
		if *c.ID == reversed || *c.ID == settled {
			found++
		}
	}
	if found != 2 {
		fail(mode+": list claims", "the submitted claims are not listed by the SDK's filters")
	}

	// D0+1: processed, with the sequence number a reversal names (not in Form3's submission model).
	ctl.advance(1)
	sequence := field(ctl.get(fmt.Sprintf("/v1/transaction/claims/%s/submissions/%s", reversed, reversedSubmission)), "data.attributes.sequence_number")
	if sequence == "" {
		fail(mode+": claim processed", "no sequence_number after one working day")
	}
	rid := strfmt.UUID(uuid.New().String())
	reversal, err := f3.Claims.CreateClaimReversal().WithID(reversed).WithClaimReversalCreationRequest(models.ClaimReversalCreation{
		Data: &models.ClaimReversal{ID: &rid, OrganisationID: &org, Attributes: &models.ClaimReversalAttributes{OriginalInstructionID: &sequence}},
	}).Do()
	must(mode+": create claim reversal", err)
	valid(mode+": create claim reversal", reversal)
	gotReversal, err := f3.Claims.GetClaimReversal().WithID(reversed).WithReversalID(rid).Do()
	must(mode+": fetch claim reversal", err)
	valid(mode+": fetch claim reversal", gotReversal)
	rsid := strfmt.UUID(uuid.New().String())
	rsub, err := f3.Claims.CreateClaimReversalSubmission().WithID(reversed).WithReversalID(rid).
		WithClaimReversalSubmissionCreationRequest(models.ClaimReversalSubmissionCreation{
			Data: &models.ClaimReversalSubmission{ID: &rsid, OrganisationID: &org},
		}).Do()
	must(mode+": submit claim reversal", err)
	valid(mode+": submit claim reversal", rsub)
	gotRsub, err := f3.Claims.GetClaimReversalSubmission().WithID(reversed).WithReversalID(rid).WithSubmissionID(rsid).Do()
	must(mode+": fetch claim reversal submission", err)
	valid(mode+": fetch claim reversal submission", gotRsub)
	gotReversed, err := f3.Claims.GetClaim().WithID(reversed).Do()
	must(mode+": fetch reversed claim", err)
	valid(mode+": fetch reversed claim", gotReversed)
	rel := gotReversed.Data.Relationships
	if rel == nil || rel.ClaimReversal == nil || len(rel.ClaimReversal.Data) != 1 || rel.ClaimReversal.Data[0].Attributes == nil {
		fail(mode+": fetch reversed claim", "relationships.claim_reversal.data does not hold the reversal")
	}

	// D0+14: the contra settles the claim not reversed.
	ctl.advance(13)
	paymentID := field(ctl.get("/v1/transaction/claims/"+settled.String()), "data.relationships.payment.data.0.id")
	if paymentID == "" {
		fail(mode+": settlement", "the claim names no contra payment fourteen working days on")
	}
	contraFlow(mode, f3, strfmt.UUID(paymentID))
	fmt.Printf("go-form3 %s: claims created, submitted, listed, reversed, settled (sequence %s)\n", mode, sequence)
}

// createAndSubmit creates a claim (the zero date for unset optional dates, as the SDK sends it),
// fetches it, submits it and reads the submission back in Form3's status enum.
func createAndSubmit(step string, f3 *form3.F3, org strfmt.UUID) (strfmt.UUID, strfmt.UUID) {
	id := strfmt.UUID(uuid.New().String())
	collected := strfmt.Date(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	claims := int64(1)
	created, err := f3.Claims.CreateClaim().WithClaimCreationRequest(models.ClaimCreation{
		Data: &models.Claim{
			ID:             &id,
			OrganisationID: &org,
			Attributes: &models.ClaimAttributes{
				PaymentScheme:        strp("BACS"),
				ClearingID:           strp("123456"),
				Reference:            strp("DDICGOFORM3"),
				ReasonCode:           strp("2"),
				NumberOfClaims:       &claims,
				BeneficiaryParty:     &models.ClaimAttributesBeneficiaryParty{AccountNumber: strp("41426819"), BankID: strp("400300")},
				DebtorParty:          &models.ClaimAttributesDebtorParty{AccountName: strp("Acme"), AccountNumber: strp("87654321"), BankID: strp("203040")},
				OriginalInstruction:  &models.ClaimAttributesOriginalInstruction{ClearingID: strp("654321"), Reference: strp("ACME-1")},
				DisputedTransactions: []*models.DisputedTransaction{{Amount: strp("12.34"), Date: &collected}},
			},
		},
	}).Do()
	must(step+": create", err)
	valid(step+": create", created)
	if *created.Data.Attributes.PaymentScheme != "BACS" {
		fail(step+": create", "payment_scheme not echoed as sent")
	}

	sid := strfmt.UUID(uuid.New().String())
	submitted, err := f3.Claims.CreateClaimSubmission().WithID(id).WithClaimSubmissionCreationRequest(models.ClaimSubmissionCreation{
		Data: &models.ClaimSubmission{ID: &sid, OrganisationID: &org},
	}).Do()
	must(step+": submit", err)
	valid(step+": submit", submitted)
	sub, err := f3.Claims.GetClaimSubmission().WithID(id).WithSubmissionID(sid).Do()
	must(step+": fetch submission", err)
	valid(step+": fetch submission", sub)
	if err := sub.Data.Attributes.Status.Validate(strfmt.Default); err != nil {
		fail(step+": fetch submission", "status outside ClaimSubmissionStatus: "+err.Error())
	}
	rel := sub.Data.Relationships
	if rel == nil || rel.Claim == nil || len(rel.Claim.Data) != 1 || rel.Claim.Data[0].Attributes == nil {
		fail(step+": fetch submission", "relationships.claim.data does not hold the claim")
	}
	got, err := f3.Claims.GetClaim().WithID(id).Do()
	must(step+": fetch", err)
	valid(step+": fetch", got)
	return id, sid
}

// contraFlow fetches the contra Payment, its Payment Admission, and lists it by its reference.
func contraFlow(mode string, f3 *form3.F3, paymentID strfmt.UUID) {
	payment, err := f3.PaymentReads.GetPayment().WithID(paymentID).Do()
	must(mode+": fetch contra payment", err)
	valid(mode+": fetch contra payment", payment)
	rel := payment.Data.Relationships
	if rel == nil || rel.PaymentAdmission == nil || len(rel.PaymentAdmission.Data) != 1 {
		fail(mode+": fetch contra payment", "relationships.payment_admission.data does not hold the admission")
	}
	admissionID := *rel.PaymentAdmission.Data[0].ID
	admission, err := f3.PaymentReads.GetPaymentAdmission().WithID(paymentID).WithAdmissionID(admissionID).Do()
	must(mode+": fetch payment admission", err)
	valid(mode+": fetch payment admission", admission)
	list, err := f3.PaymentReads.ListPayments().WithFilterReference(payment.Data.Attributes.Reference).Do()
	must(mode+": list payments", err)
	valid(mode+": list payments", list)
	if len(list.Data) != 1 || *list.Data[0].ID != paymentID {
		fail(mode+": list payments", "the contra is not listed by its reference")
	}
}
