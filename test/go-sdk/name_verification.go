// Form3's name verification request API with go-form3's own client (name_verification_api): the
// payer's bank (FORM3_*) asks whether a name matches an account the payee's bank (FORM3_PAYEE_*,
// token mode) opened, reads the answer on its request, lists it with the SDK's filters, and the
// payee's bank reads its admission of the request. Every answer is checked with the models'
// Validate. With --auth off every request acts as the default organisation (Northwind), so it asks
// about an account of its own sort code and reads the admission of that request itself.
package main

import (
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"time"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/form3tech-oss/go-form3/v7/pkg/generated/models"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

// payeeBank is the payee's bank's client (token mode), opened once.
var payeeBank *form3.F3

func payee() *form3.F3 {
	if payeeBank != nil || authOff {
		return payeeBank
	}
	host, err := url.Parse(os.Getenv("FORM3_HOST"))
	must("FORM3_HOST", err)
	clientID, err := uuid.Parse(os.Getenv("FORM3_PAYEE_CLIENT_ID"))
	must("FORM3_PAYEE_CLIENT_ID", err)
	org, err := uuid.Parse(os.Getenv("FORM3_PAYEE_ORGANISATION_ID"))
	must("FORM3_PAYEE_ORGANISATION_ID", err)
	payeeBank, err = form3.New(
		form3.WithBaseURL(*host),
		form3.WithOrganisationID(org),
		form3.WithTokenTransport(form3.WithClientID(clientID), form3.WithClientSecret(os.Getenv("FORM3_PAYEE_CLIENT_SECRET"))),
	)
	must("payee bank's client", err)
	return payeeBank
}

func nameVerificationFlow(mode string, f3 *form3.F3) {
	step := func(s string) string { return mode + ": name verification: " + s }

	// The payee's bank opens the account the payer will name (the number given: the fake account
	// API generates none).
	bank, payeeOrg := payee(), strfmt.UUID(os.Getenv("FORM3_PAYEE_ORGANISATION_ID"))
	sortCode, bic := os.Getenv("PAYEE_SORT_CODE"), os.Getenv("PAYEE_BIC")
	bankName := "Northwind Bank plc"
	if authOff {
		bank, payeeOrg = f3, strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
		sortCode, bic = os.Getenv("SORT_CODE"), os.Getenv("BIC")
	}
	accountID := strfmt.UUID(uuid.New().String())
	number := fmt.Sprintf("%08d", rand.Intn(100000000))
	account := &models.Account{
		ID:             &accountID,
		OrganisationID: &payeeOrg,
		Attributes: &models.AccountAttributes{
			Country:       strp("GB"),
			BankID:        sortCode,
			BankIDCode:    "GBDSC",
			Bic:           bic,
			BaseCurrency:  "GBP",
			AccountNumber: number,
			Name:          []string{"Grace Hopper"},
		},
	}
	if authOff {
		account.Type = "accounts" // the fake account API's model requires it
	}
	_, err := bank.Accounts.CreateAccount().WithAccountCreationRequest(models.AccountCreation{Data: account}).Do()
	must(step("payee's account"), err)

	// The payer's bank asks, naming her with a typo: a close match.
	id := strfmt.UUID(uuid.New().String())
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	code := models.AccountNumberCodeBBAN
	bankIDCode := models.BankIDCodeGBDSC
	created, err := f3.NameVerificationAPI.CreateNameVerification().WithNameVerificationCreationRequest(models.NameVerificationCreation{
		Data: &models.NameVerification{
			ID:             &id,
			OrganisationID: &org,
			Attributes: &models.NameVerificationAttributes{
				AccountClassification: models.AccountClassificationPersonal,
				AccountNumber:         &number,
				AccountNumberCode:     &code,
				BankID:                &sortCode,
				BankIDCode:            &bankIDCode,
				Name:                  []string{"Grace", "Hoper"},
			},
		},
	}).Do()
	must(step("create"), err)
	valid(step("create"), created)
	if *created.Data.ID != id {
		fail(step("create"), "another id answered")
	}

	got, err := f3.NameVerificationAPI.GetNameVerification().WithID(id).Do()
	must(step("fetch"), err)
	valid(step("fetch"), got)
	rel := got.Data.Relationships
	if rel == nil || rel.NameVerificationSubmission == nil || len(rel.NameVerificationSubmission.Data) != 1 {
		fail(step("fetch"), "no submission with the answer")
	}
	answer := rel.NameVerificationSubmission.Data[0].Attributes
	if *answer.Status != models.NameVerificationSubmissionStatusDeliveryConfirmed ||
		answer.Answer != models.NameVerificationSubmissionAnswerRejected ||
		answer.ReasonCode != models.NameVerificationSubmissionReasonCodeMBAM || answer.ActualName != "Grace Hopper" {
		fail(step("fetch"), fmt.Sprintf("answer %s %s %s %q", *answer.Status, answer.Answer, answer.ReasonCode, answer.ActualName))
	}

	from := strfmt.DateTime(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	list, err := f3.NameVerificationAPI.ListNameVerifications().
		WithFilterAccountNumber(number).
		WithFilterSubmissionAnswer("rejected").
		WithFilterSubmissionReasonCode("MBAM").
		WithFilterCreatedDateFrom(from).
		WithPageSize(10).
		Do()
	must(step("list"), err)
	valid(step("list"), list)
	if len(list.Data) != 1 || *list.Data[0].ID != id {
		fail(step("list"), fmt.Sprintf("%d name verifications listed for account %s", len(list.Data), number))
	}

	// The payee's bank finds the request it answered, and reads its admission.
	inbound, err := bank.NameVerificationAPI.ListNameVerifications().
		WithFilterAccountNumber(number).
		WithFilterAdmissionStatus("confirmed").
		Do()
	must(step("payee's list"), err)
	valid(step("payee's list"), inbound)
	if len(inbound.Data) != 1 {
		fail(step("payee's list"), fmt.Sprintf("%d inbound name verifications", len(inbound.Data)))
	}
	own := inbound.Data[0]
	admissionID := own.Relationships.NameVerificationAdmission.Data[0].ID
	admission, err := bank.NameVerificationAPI.GetNameVerificationAdmission().
		WithNameVerificationID(*own.ID).
		WithID(*admissionID).
		Do()
	must(step("payee's admission"), err)
	valid(step("payee's admission"), admission)
	a := admission.Data.Attributes
	if *a.Status != models.NameVerificationAdmissionStatusConfirmed || a.Answer != models.NameVerificationAdmissionAnswerRejected ||
		a.ReasonCode != models.NameVerificationAdmissionReasonCodeMBAM || a.ActualName != "Grace Hopper" ||
		a.DebtorParty == nil || a.DebtorParty.AccountWith == nil || a.DebtorParty.AccountWith.BankName != bankName {
		fail(step("payee's admission"), "the admission does not carry the answer and the bank that asked")
	}
	fmt.Printf("go-form3 %s: name verification created, fetched (%s %s %q), listed; admission read by the payee's bank (asked by %s)\n",
		mode, answer.Answer, answer.ReasonCode, answer.ActualName, a.DebtorParty.AccountWith.BankName)
}
