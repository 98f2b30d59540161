package main

import (
	"fmt"
	"math/rand"
	"os"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/form3tech-oss/go-form3/v7/pkg/generated/models"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

// accountFlow creates, fetches, lists, amends and deletes an account. With --auth on the simulator
// generates the account number and IBAN (Form3's rules) and echoes every attribute; with --auth off
// it follows the fake account API: the number is the client's, `type` must be sent, and customer_id
// (not in the fake API's model) is stored but not answered.
func accountFlow(mode string, f3 *form3.F3) {
	id := strfmt.UUID(uuid.New().String())
	org := strfmt.UUID(os.Getenv("FORM3_ORGANISATION_ID"))
	attributes := &models.AccountAttributes{
		Country:      strp("GB"),
		BankID:       os.Getenv("SORT_CODE"),
		BankIDCode:   "GBDSC",
		Bic:          os.Getenv("BIC"),
		BaseCurrency: "GBP",
		Name:         []string{"Ada Lovelace"},
	}
	data := &models.Account{ID: &id, OrganisationID: &org, Attributes: attributes}
	if authOff {
		attributes.AccountNumber = fmt.Sprintf("%08d", rand.Intn(100000000))
		// The fake account API's model requires type; the SDK leaves it empty unless set.
		data.Type = "accounts"
	}
	created, err := f3.Accounts.CreateAccount().WithAccountCreationRequest(models.AccountCreation{Data: data}).Do()
	must(mode+": create", err)
	valid(mode+": create", created)
	number := created.Data.Attributes.AccountNumber
	if number == "" || (!authOff && created.Data.Attributes.Iban == "") {
		fail(mode+": create", "no account number or generated IBAN")
	}

	got, err := f3.Accounts.GetAccount().WithID(id).Do()
	must(mode+": fetch", err)
	valid(mode+": fetch", got)
	if got.Data.Attributes.Name[0] != "Ada Lovelace" {
		fail(mode+": fetch", "name differs")
	}

	list, err := f3.Accounts.ListAccounts().WithFilterAccountNumber([]string{number}).Do()
	must(mode+": list", err)
	valid(mode+": list", list)
	if len(list.Data) != 1 {
		fail(mode+": list", fmt.Sprintf("%d accounts with number %s", len(list.Data), number))
	}

	version := int64(0)
	amended, err := f3.Accounts.ModifyAccount().WithID(id).WithAccountAmendRequest(models.AccountAmendment{
		Data: &models.AccountUpdate{
			ID:             &id,
			OrganisationID: &org,
			Version:        &version,
			Attributes:     &models.AccountUpdateAttributes{CustomerID: "go-form3", SecondaryIdentification: "go-form3"},
		},
	}).Do()
	must(mode+": amend", err)
	valid(mode+": amend", amended)
	a := amended.Data.Attributes
	if a.SecondaryIdentification != "go-form3" || *amended.Data.Version != 1 {
		fail(mode+": amend", "secondary_identification or version not changed")
	}
	if echoed := a.CustomerID == "go-form3"; echoed == authOff {
		fail(mode+": amend", fmt.Sprintf("customer_id answered: %v; the fake account API's model has none", echoed))
	}

	_, err = f3.Accounts.DeleteAccount().WithID(id).WithVersion(1).Do()
	must(mode+": delete", err)
	if _, err := f3.Accounts.GetAccount().WithID(id).Do(); err == nil {
		fail(mode+": fetch after delete", "still there")
	}
	fmt.Printf("go-form3 %s: account create, fetch, list, amend, delete passed (account number %s)\n", mode, number)
}
