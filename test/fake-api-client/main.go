// Command fake-api-client is a client of Form3's fake account API
// (form3tech-oss/interview-accountapi) as its candidates write one: the standard library's net/http,
// the repository's own models.go (AccountData, AccountAttributes; run.sh puts it beside this file),
// no Content-Type unless a call sets one. It runs the exchanges such clients test against
// `scheme-sim start --auth off`, and checks each answer as those clients' tests assert the fake
// API's container answers: the bodies byte for byte where they compare bodies, every attribute
// decoded into the model with unknown ones refused, `ContentLength == 0` on empty answers.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"reflect"
	"strings"
)

const accounts = "/v1/organisation/accounts"

var host = strings.TrimSuffix(os.Getenv("API_HOST"), "/")
var passed int

func main() {
	if host == "" {
		fail("API_HOST is not set")
	}
	org := newUUID()

	// Clients wait for the fake API's health check before their tests.
	expectBody("health", send("GET", "/v1/health", nil, nil), 200, `{"status":"up"}`)
	// It starts empty: a client's first page holds only what it created.
	if before := expectList("list before any create", send("GET", accounts, nil, nil)); len(before) != 0 {
		fail("list before any create: %d accounts, want none", len(before))
	}
	ok("list before any create")

	// Create, with every attribute of the model, and no Content-Type (Go's default).
	full := &AccountData{ID: newUUID(), OrganisationID: org, Type: "accounts", Attributes: fullAttributes()}
	created := expectAccount("create (no Content-Type)", send("POST", accounts, nil, body(full)), 201)
	sameAttributes("create", full.Attributes, created.Attributes)
	if created.Version == nil || *created.Version != 0 {
		fail("create: version %v, want 0", created.Version)
	}

	fetched := expectAccount("fetch", send("GET", accounts+"/"+full.ID, nil, nil), 200)
	sameAttributes("fetch", full.Attributes, fetched.Attributes)

	// As a client setting JSON:API's media type.
	typed := &AccountData{ID: newUUID(), OrganisationID: org, Type: "accounts", Attributes: minimal("GB", "Ada Lovelace")}
	expectAccount("create (application/vnd.api+json)", send("POST", accounts, jsonAPI, body(typed)), 201)

	// As clients written for the current image send it: a vendor media type, in any case.
	form3Typed := &AccountData{ID: newUUID(), OrganisationID: org, Type: "accounts", Attributes: minimal("GB", "Alan Turing")}
	expectAccount("create (application/vnd.Form3+json)", send("POST", accounts, map[string]string{"Content-Type": "application/vnd.Form3+json"}, body(form3Typed)), 201)

	// Attributes the model lacks, as clients copying Form3's docs send them (customer_id,
	// private_identification): accepted, and not answered.
	extra := []byte(`{"data":{"id":"` + newUUID() + `","organisation_id":"` + org + `","type":"accounts","attributes":{` +
		`"country":"GB","name":["Grace Hopper"],"bank_id":"400300","account_number":"41426820","customer_id":"234",` +
		`"private_identification":{"identification":"12345"},"validation_type":"card"}}}`)
	withExtras := expectAccount("create with attributes outside the model", send("POST", accounts, map[string]string{"Content-Type": "application/json"}, extra), 201)
	if withExtras.Attributes.AccountNumber != "41426820" {
		fail("create with attributes outside the model: account_number %q", withExtras.Attributes.AccountNumber)
	}

	// The list: every item decodes into the model, unknown attributes refused.
	listed := expectList("list", send("GET", accounts+"?filter%5Borganisation_id%5D="+org+"&page%5Bsize%5D=100", nil, nil))
	if len(listed) != 4 {
		fail("list: %d accounts of the organisation, want 4", len(listed))
	}
	ok("list")

	// A client whose own model has no omitempty sends an unset string as "": the fake API's Go model
	// holds these as strings, and go-swagger skips a zero value, so "" is not given.
	blanks := `"bank_id":"","bank_id_code":"","bic":"","iban":"","account_number":"","base_currency":"","secondary_identification":""`
	expectAccount("create with empty optional strings", send("POST", accounts, nil, rawAccount(newUUID(), newUUID(), "accounts", blanks)), 201)
	// Its id is a required string: "" is missing, in go-openapi's words.
	expectMessage("an id sent as \"\"", send("POST", accounts, nil, rawAccount("", newUUID(), "accounts", "")),
		400, "validation failure list:\nvalidation failure list:\nid in body is required")

	// The fake API is Go: encoding/json matches a key to a field in any case.
	cased := `{"Data":{"ID":"` + newUUID() + `","Organisation_ID":"` + newUUID() + `","Type":"accounts","Attributes":{"Country":"GB","Name":["Ada Lovelace"],"Bank_ID":"400300"}}}`
	if a := expectAccount("create with keys in another case", send("POST", accounts, nil, []byte(cased)), 201); a.Attributes.BankID != "400300" {
		fail("create with keys in another case: bank_id %q, want 400300", a.Attributes.BankID)
	}

	// Its model's version is an int64 with no rule: a create with any version starts at 0.
	version := int64(1000000000)
	versioned := &AccountData{ID: newUUID(), OrganisationID: newUUID(), Type: "accounts", Version: &version, Attributes: minimal("GB", "Ada Lovelace")}
	if v := expectAccount("create with version 1000000000", send("POST", accounts, nil, body(versioned)), 201).Version; v == nil || *v != 0 {
		fail("create with version 1000000000: version %v, want 0", v)
	}

	// Only the id is unique: the same sort code and account number again is a second account.
	twin := &AccountData{ID: newUUID(), OrganisationID: org, Type: "accounts", Attributes: fullAttributes()}
	expectAccount("same sort code and number, another id", send("POST", accounts, nil, body(twin)), 201)

	expectBody("the same id again", send("POST", accounts, nil, body(full)), 409,
		`{"error_message":"Account cannot be created as it violates a duplicate constraint"}`)
	expectMessage("no type", send("POST", accounts, nil, body(&AccountData{ID: newUUID(), OrganisationID: org, Attributes: minimal("GB", "Sam Holder")})),
		400, "validation failure list:\nvalidation failure list:\ntype in body is required")
	expectMessage("an invalid type", send("POST", accounts, nil, body(&AccountData{ID: newUUID(), OrganisationID: org, Type: "account", Attributes: minimal("GB", "Sam Holder")})),
		400, "validation failure list:\nvalidation failure list:\ntype in body should be one of [accounts]")
	expectMessage("an empty account", send("POST", accounts, nil, body(&AccountData{})),
		400, "validation failure list:\nvalidation failure list:\nattributes in body is required\nid in body is required\norganisation_id in body is required\ntype in body is required")
	expectMessage("bad ids and country", send("POST", accounts, nil, body(&AccountData{ID: "123abc", OrganisationID: "123abc", Type: "x", Attributes: minimal("SVK", "Sam Holder")})),
		400, "validation failure list:\nvalidation failure list:\nvalidation failure list:\ncountry in body should match '^[A-Z]{2}$'\nid in body must be of type uuid: \"123abc\"\norganisation_id in body must be of type uuid: \"123abc\"\ntype in body should be one of [accounts]")

	// Zero-valued attributes, as a client sets its model's pointers to "": the fake API's enums.
	empty := ""
	expectMessage("zero-valued attributes", send("POST", accounts, nil, body(&AccountData{ID: newUUID(), OrganisationID: org,
		Attributes: &AccountAttributes{AccountClassification: &empty, Country: &empty, Status: &empty}})),
		400, "validation failure list:\nvalidation failure list:\nvalidation failure list:\naccount_classification in body should be one of [Personal Business]\ncountry in body should match '^[A-Z]{2}$'\nname in body is required\nstatus in body should be one of [pending confirmed failed]\ntype in body is required")

	unknown := newUUID()
	expectBody("fetch an unknown id", send("GET", accounts+"/"+unknown, nil, nil), 404,
		`{"error_message":"record `+unknown+` does not exist"}`)
	expectBody("fetch a bad id", send("GET", accounts+"/4567", nil, nil), 400, `{"error_message":"id is not a valid uuid"}`)
	expectBody("delete without a version", send("DELETE", accounts+"/"+full.ID+"?version=", nil, nil), 400,
		`{"error_message":"invalid version number"}`)
	expectBody("delete another version", send("DELETE", accounts+"/"+full.ID+"?version=3", nil, nil), 409,
		`{"error_message":"invalid version"}`)
	expectEmpty("delete", send("DELETE", accounts+"/"+full.ID+"?version=0", nil, nil), 204)
	expectEmpty("delete it again", send("DELETE", accounts+"/"+full.ID+"?version=0", nil, nil), 404)
	expectBody("a path it does not serve", send("GET", "/", nil, nil), 404, `{"code":"PAGE_NOT_FOUND","message":"Page not found"}`)
	expectBody("an empty id", send("DELETE", accounts+"/?version=", nil, nil), 404, `{"code":"PAGE_NOT_FOUND","message":"Page not found"}`)

	fmt.Printf("fake account API client: all %d exchanges as the fake API answers them\n", passed)
}

var jsonAPI = map[string]string{"Content-Type": "application/vnd.api+json", "Accept": "application/vnd.api+json"}

type answer struct {
	status        int
	contentLength int64
	body          []byte
}

func send(method, path string, headers map[string]string, payload []byte) answer {
	var reader io.Reader
	if payload != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequest(method, host+path, reader)
	if err != nil {
		fail("%s %s: %v", method, path, err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fail("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		fail("%s %s: reading the answer: %v", method, path, err)
	}
	return answer{res.StatusCode, res.ContentLength, b}
}

// rawAccount is a create body as written by hand: these data fields, country and name, and more
// attributes (JSON members, or "").
func rawAccount(id, org, typ, attributes string) []byte {
	if attributes != "" {
		attributes = "," + attributes
	}
	return []byte(`{"data":{"id":"` + id + `","organisation_id":"` + org + `","type":"` + typ +
		`","attributes":{"country":"GB","name":["Grace Hopper"]` + attributes + `}}}`)
}

func body(data *AccountData) []byte {
	b, err := json.Marshal(map[string]*AccountData{"data": data})
	if err != nil {
		fail("marshal: %v", err)
	}
	return b
}

// strictData is the answer's data: the envelope fields the fake API adds (created_on, modified_on)
// are read loosely; the attributes must decode into the model with nothing left over.
type strictData struct {
	ID             string          `json:"id"`
	OrganisationID string          `json:"organisation_id"`
	Type           string          `json:"type"`
	Version        *int64          `json:"version"`
	Attributes     json.RawMessage `json:"attributes"`
}

func decodeAccount(step string, raw json.RawMessage) *AccountData {
	var d strictData
	if err := json.Unmarshal(raw, &d); err != nil {
		fail("%s: %v", step, err)
	}
	dec := json.NewDecoder(bytes.NewReader(d.Attributes))
	dec.DisallowUnknownFields()
	var attributes AccountAttributes
	if err := dec.Decode(&attributes); err != nil {
		fail("%s: attributes outside the fake API's model: %v (%s)", step, err, d.Attributes)
	}
	return &AccountData{ID: d.ID, OrganisationID: d.OrganisationID, Type: d.Type, Version: d.Version, Attributes: &attributes}
}

func expectAccount(step string, a answer, status int) *AccountData {
	if a.status != status {
		fail("%s: status %d, want %d: %s", step, a.status, status, a.body)
	}
	var envelope struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(a.body, &envelope); err != nil {
		fail("%s: %v", step, err)
	}
	ok(step)
	return decodeAccount(step, envelope.Data)
}

func expectList(step string, a answer) []*AccountData {
	if a.status != 200 {
		fail("%s: status %d: %s", step, a.status, a.body)
	}
	var envelope struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(a.body, &envelope); err != nil {
		fail("%s: %v", step, err)
	}
	out := make([]*AccountData, 0, len(envelope.Data))
	for _, raw := range envelope.Data {
		out = append(out, decodeAccount(step, raw))
	}
	return out
}

func expectBody(step string, a answer, status int, want string) {
	if a.status != status || string(a.body) != want {
		fail("%s: %d %s, want %d %s", step, a.status, a.body, status, want)
	}
	ok(step)
}

func expectMessage(step string, a answer, status int, want string) {
	var e struct {
		ErrorMessage string `json:"error_message"`
	}
	if a.status != status {
		fail("%s: status %d, want %d: %s", step, a.status, status, a.body)
	}
	if err := json.Unmarshal(a.body, &e); err != nil || e.ErrorMessage != want {
		fail("%s: %s, want error_message %q", step, a.body, want)
	}
	ok(step)
}

// expectEmpty: the clients that test `res.ContentLength == 0` before reading JSON.
func expectEmpty(step string, a answer, status int) {
	if a.status != status || a.contentLength != 0 || len(a.body) != 0 {
		fail("%s: %d, Content-Length %d, body %q; want %d with Content-Length 0", step, a.status, a.contentLength, a.body, status)
	}
	ok(step)
}

func sameAttributes(step string, sent, got *AccountAttributes) {
	if !reflect.DeepEqual(sent, got) {
		s, _ := json.Marshal(sent)
		g, _ := json.Marshal(got)
		fail("%s: attributes %s, sent %s", step, g, s)
	}
}

func fullAttributes() *AccountAttributes {
	classification, country, status := "Personal", "GB", "confirmed"
	no, yes := false, true
	return &AccountAttributes{
		AccountClassification:   &classification,
		AccountMatchingOptOut:   &no,
		AccountNumber:           "41426819",
		AlternativeNames:        []string{"Sam Holder"},
		BankID:                  "400300",
		BankIDCode:              "GBDSC",
		BaseCurrency:            "GBP",
		Bic:                     "NWBKGB22",
		Country:                 &country,
		Iban:                    "GB11NWBK40030041426819",
		JointAccount:            &yes,
		Name:                    []string{"Samantha Holder", "Sam Holder"},
		SecondaryIdentification: "A1B2C3D4",
		Status:                  &status,
		Switched:                &no,
	}
}

func minimal(country, name string) *AccountAttributes {
	return &AccountAttributes{Country: &country, Name: []string{name}}
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		fail("uuid: %v", err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func ok(step string) {
	passed++
	fmt.Printf("  ok  %s\n", step)
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "FAIL "+format+"\n", args...)
	os.Exit(1)
}
