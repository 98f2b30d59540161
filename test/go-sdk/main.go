// Form3's own Go SDK (form3tech-oss/go-form3) against a running scheme-sim, once in request-signing
// mode (form3.NewFromEnv, as the SDK's README sets it up) and once in token mode (client id and
// secret). Every flow the simulator serves is driven through the SDK: accounts, subscriptions, the
// four claim resources, the contra payment and its admission, reports and report admissions, and
// name verifications (name_verification.go); and every answer is validated against go-form3's
// generated models (Validate), relationships included, not only decoded. test/go-sdk/run.sh builds it inside a copy of the SDK's source, with its
// vendored dependencies, and starts the simulator with --auth on or, with SIM_AUTH=off, --auth off
// (where the account answers follow the fake account API's model).
package main

import (
	"fmt"
	"net/url"
	"os"

	"github.com/form3tech-oss/go-form3/v7/pkg/form3"
	"github.com/go-openapi/strfmt"
	"github.com/google/uuid"
)

// authOff: the simulator runs --auth off (SIM_AUTH=off in run.sh).
var authOff = os.Getenv("SIM_AUTH") == "off"

func main() {
	ctl := newControl()
	signed, err := form3.NewFromEnv()
	must("signing client from FORM3_* env", err)
	flow("request signing", signed, ctl)

	if os.Getenv("SIM_SKIP_TOKEN_FLOW") != "" {
		// run.sh, SIM_SANDBOX=new with --auth off: the token transport sends a token only after a
		// 401 or 403 (pkg/form3/auth_token.go), which --auth off never answers, so its calls carry
		// no credentials, and its base URL keeps only the host: nothing names the sandbox.
		fmt.Printf("go-form3: token mode skipped (%s)\n", os.Getenv("SIM_SKIP_TOKEN_FLOW"))
		fmt.Printf("go-form3: all passed; %d answers valid against go-form3's models\n", validated)
		return
	}
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
	flow("token", tokens, ctl)
	fmt.Printf("go-form3: all passed; %d answers valid against go-form3's models\n", validated)
}

func flow(mode string, f3 *form3.F3, ctl *control) {
	accountFlow(mode, f3)
	subscriptionFlow(mode, f3)
	claimFlow(mode, f3, ctl)
	reportFlow(mode, f3)
	nameVerificationFlow(mode, f3)
}

// validated counts the answers checked against go-form3's models.
var validated int

// valid fails the check unless the answer satisfies its go-form3 model: required fields, formats,
// patterns and enums, down through relationships.*.data (which the SDK's decoding alone never checks).
func valid(step string, answer interface{ Validate(strfmt.Registry) error }) {
	if err := answer.Validate(strfmt.Default); err != nil {
		fail(step, "the answer decodes but fails go-form3's model: "+err.Error())
	}
	validated++
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
