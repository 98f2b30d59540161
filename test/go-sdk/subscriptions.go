package main

import (
	"fmt"
	"os"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/form3tech-oss/go-form3/v7/pkg/generated/models"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

// subscriptionFlow: a subscription as the SDK serialises it (callback_uris filled, and null in the
// update; no type; a filter string), fetched, listed, amended and deleted.
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
	valid(mode+": create subscription", created)
	if len(created.Data.Attributes.CallbackUris) != 1 || created.Data.Attributes.UserID == "" {
		fail(mode+": create subscription", "callback_uris or user_id not answered")
	}
	got, err := f3.Subscriptions.GetSubscription().WithID(id).Do()
	must(mode+": fetch subscription", err)
	valid(mode+": fetch subscription", got)
	list, err := f3.Subscriptions.ListSubscriptions().WithFilterRecordType([]string{"accounts"}).Do()
	must(mode+": list subscriptions", err)
	valid(mode+": list subscriptions", list)
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
	valid(mode+": amend subscription", amended)
	if amended.Data.Attributes.EventType == nil || *amended.Data.Attributes.EventType != "updated" {
		fail(mode+": amend subscription", "event_type not changed")
	}
	_, err = f3.Subscriptions.DeleteSubscription().WithID(id).WithVersion(1).Do()
	must(mode+": delete subscription", err)
	fmt.Printf("go-form3 %s: subscription create, fetch, list, amend, delete passed\n", mode)
}
