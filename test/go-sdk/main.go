// Form3's own Go SDK (form3tech-oss/go-form3) against a running scheme-sim: creates, fetches,
// lists, amends and deletes an account, creates and amends a subscription, creates, submits and
// lists a claim, once in request-signing mode (form3.NewFromEnv, as the
// SDK's README sets it up) and once in token mode (client id and secret). test/go-sdk/run.sh
// builds it inside a copy of the SDK's source, with its vendored dependencies.
package main

import (
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/form3tech-oss/go-form3/v7/pkg/generated/models"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

func main() {
	signed, err := form3.NewFromEnv()
	must("signing client from FORM3_* env", err)
	flow("request signing", signed)

	host, err := url.Parse(os.Getenv("FORM3_HOST"))
	must("FORM3_HOST", err)
	clientID, err := uuid.Parse(os.Getenv("FORM3_CLIENT_ID"))
	must("FORM3_CLIENT_ID (a UUID, as the SDK parses it)", err)
	org, err := uuid.Parse(os.Getenv("FORM3_ORGANISATION_ID"))
	must("FORM3_ORGANISATION_ID", err)
	tokens, err := form3.New(
		form3.WithBaseURL(*host),
		form3.WithOrganisationID(org),
		form3.WithTokenTransport(form3.WithClientID(clientID), form3.WithClientSecret(os.Getenv("FORM3_CLIENT_SECRET"))),
	)
	must("token client", err)
	flow("token", tokens)
	fmt.Println("go-form3: all passed")
}

func flow(mode string, f3 *form3.F3) {
	id := strfmt.UUID(uuid.New().String())
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	created, err := f3.Accounts.CreateAccount().WithAccountCreationRequest(models.AccountCreation{
		Data: &models.Account{
			ID:             &id,
			OrganisationID: &org,
			Attributes: &models.AccountAttributes{
				Country:      strp("GB"),
				BankID:       os.Getenv("SORT_CODE"),
				BankIDCode:   "GBDSC",
				Bic:          os.Getenv("BIC"),
				BaseCurrency: "GBP",
				Name:         []string{"Ada Lovelace"},
			},
		},
	}).Do()
	must(mode+": create", err)
	number := created.Data.Attributes.AccountNumber
	if number == "" || created.Data.Attributes.Iban == "" {
		fail(mode+": create", "no generated account number or IBAN")
	}

	got, err := f3.Accounts.GetAccount().WithID(id).Do()
	must(mode+": fetch", err)
	if got.Data.Attributes.Name[0] != "Ada Lovelace" {
		fail(mode+": fetch", "name differs")
	}

	list, err := f3.Accounts.ListAccounts().WithFilterAccountNumber([]string{number}).Do()
	must(mode+": list", err)
	if len(list.Data) != 1 {
		fail(mode+": list", fmt.Sprintf("%d accounts with number %s", len(list.Data), number))
	}

	version := int64(0)
	amended, err := f3.Accounts.ModifyAccount().WithID(id).WithAccountAmendRequest(models.AccountAmendment{
		Data: &models.AccountUpdate{
			ID:             &id,
			OrganisationID: &org,
			Version:        &version,
			Attributes:     &models.AccountUpdateAttributes{CustomerID: "go-form3"},
		},
	}).Do()
	must(mode+": amend", err)
	if amended.Data.Attributes.CustomerID != "go-form3" || *amended.Data.Version != 1 {
		fail(mode+": amend", "customer_id or version not changed")
	}

	_, err = f3.Accounts.DeleteAccount().WithID(id).WithVersion(1).Do()
	must(mode+": delete", err)
	if _, err := f3.Accounts.GetAccount().WithID(id).Do(); err == nil {
		fail(mode+": fetch after delete", "still there")
	}
	fmt.Printf("go-form3 %s: create, fetch, list, amend, delete passed (account number %s)\n", mode, number)
	subscriptionFlow(mode, f3)
	claimFlow(mode, f3)
}

// A subscription as the SDK serialises it: callback_uris filled (and null in the update), no type,
// a filter string; then amended and deleted.
func subscriptionFlow(mode string, f3 *form3.F3) {
	id := strfmt.UUID(uuid.New().String())
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	transport := models.CallbackTransportHTTP
	uri := "http://127.0.0.1:9/hooks"
	created, err := f3.Subscriptions.CreateSubscription().WithSubscriptionCreationRequest(models.SubscriptionCreation{
		Data: &models.SubscriptionCreate{
			ID:             &id,
			OrganisationID: &org,
			Attributes: &models.SubscriptionAttributes{
				EventType:    strp("created"),
				RecordType:   strp("accounts"),
				CallbackUris: []*models.CallbackURI{{CallbackTransport: &transport, CallbackURI: &uri}},
				Filter:       "attributes.country=GB",
			},
		},
	}).Do()
	must(mode+": create subscription", err)
	if len(created.Data.Attributes.CallbackUris) != 1 || created.Data.Attributes.UserID == "" {
		fail(mode+": create subscription", "callback_uris or user_id not answered")
	}
	version := int64(0)
	amended, err := f3.Subscriptions.ModifySubscription().WithID(id).WithSubscriptionUpdateRequest(models.SubscriptionAmendment{
		Data: &models.SubscriptionUpdate{
			ID:             &id,
			OrganisationID: &org,
			Version:        &version,
			Attributes:     &models.SubscriptionUpdateAttributes{EventType: "updated"},
		},
	}).Do()
	must(mode+": amend subscription", err)
	if amended.Data.Attributes.EventType == nil || *amended.Data.Attributes.EventType != "updated" {
		fail(mode+": amend subscription", "event_type not changed")
	}
	_, err = f3.Subscriptions.DeleteSubscription().WithID(id).WithVersion(1).Do()
	must(mode+": delete subscription", err)
	fmt.Printf("go-form3 %s: subscription create, amend, delete passed\n", mode)
}

// claimFlow creates a claim as the SDK builds one (BACS, as its enum spells it; the zero date for
// unset optional dates), submits it, reads the submission back in Form3's status enum, and finds
// the claim with the SDK's own list filters (organisation ids joined with commas, date-time bounds).
func claimFlow(mode string, f3 *form3.F3) {
	id := strfmt.UUID(uuid.New().String())
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
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
	must(mode+": create claim", err)
	if *created.Data.Attributes.PaymentScheme != "BACS" {
		fail(mode+": create claim", "payment_scheme not echoed as sent")
	}

	sid := strfmt.UUID(uuid.New().String())
	_, err = f3.Claims.CreateClaimSubmission().WithID(id).WithClaimSubmissionCreationRequest(models.ClaimSubmissionCreation{
		Data: &models.ClaimSubmission{ID: &sid, OrganisationID: &org},
	}).Do()
	must(mode+": submit claim", err)
	sub, err := f3.Claims.GetClaimSubmission().WithID(id).WithSubmissionID(sid).Do()
	must(mode+": fetch claim submission", err)
	if err := sub.Data.Attributes.Status.Validate(strfmt.Default); err != nil {
		fail(mode+": fetch claim submission", "status outside ClaimSubmissionStatus: "+err.Error())
	}

	from := strfmt.DateTime(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	list, err := f3.Claims.ListClaims().
		WithFilterOrganisationID([]strfmt.UUID{strfmt.UUID(uuid.New().String()), org}).
		WithFilterReference("DDICGOFORM3").
		WithFilterSubmissionSubmissionDateFrom(from).
		Do()
	must(mode+": list claims", err)
	found := false
	for _, c := range list.Data {
		found = found || *c.ID == id
	}
	if !found {
		fail(mode+": list claims", "the submitted claim is not listed by the SDK's filters")
	}
	fmt.Printf("go-form3 %s: claim created, submitted (%s), listed\n", mode, sub.Data.Attributes.Status)
}

func strp(s string) *string { return &s }

func must(step string, err error) {
	if err != nil {
		fail(step, err.Error())
	}
}

func fail(step, why string) {
	fmt.Fprintf(os.Stderr, "go-form3 FAILED at %s: %s\n", step, why)
	os.Exit(1)
}
