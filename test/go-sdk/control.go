package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// control calls what the SDK has no operation for: the simulator's clock (POST
// /v1/simulator/clock/advance), and fields Form3's models do not carry, read from the raw answer (a
// claim submission's sequence_number, a settled claim's relationships.payment). With --auth on it
// gets a token as any OAuth client does (client credentials, HTTP Basic).
type control struct {
	base  string
	token string
}

func newControl() *control {
	base := os.Getenv("FORM3_HOST")
	// With --auth off the control calls carry no credentials: SIM_CONTROL_BASE names the sandbox by
	// its path prefix then (run.sh, SIM_SANDBOX=new), where the SDK's own calls reach it by theirs.
	if b := os.Getenv("SIM_CONTROL_BASE"); b != "" {
		base = b
	}
	c := &control{base: strings.TrimRight(base, "/")}
	if authOff {
		return c
	}
	form := url.Values{"grant_type": {"client_credentials"}}
	req, err := http.NewRequest("POST", c.base+"/v1/oauth2/token", strings.NewReader(form.Encode()))
	must("control: token request", err)
	req.SetBasicAuth(os.Getenv("FORM3_CLIENT_ID"), os.Getenv("FORM3_CLIENT_SECRET"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	var answer struct {
		AccessToken string `json:"access_token"`
	}
	c.send("control: token", req, &answer)
	c.token = answer.AccessToken
	return c
}

// advance moves the scheme clock on by working days (the claim timeline counts them).
func (c *control) advance(workingDays int) {
	body, _ := json.Marshal(map[string]int{"working_days": workingDays})
	req, err := http.NewRequest("POST", c.base+"/v1/simulator/clock/advance", bytes.NewReader(body))
	must("control: advance", err)
	req.Header.Set("Content-Type", "application/json")
	c.send(fmt.Sprintf("control: advance %d working days", workingDays), req, nil)
}

// get reads a /v1 answer as plain JSON.
func (c *control) get(path string) map[string]interface{} {
	req, err := http.NewRequest("GET", c.base+path, nil)
	must("control: GET "+path, err)
	var answer map[string]interface{}
	c.send("control: GET "+path, req, &answer)
	return answer
}

func (c *control) send(step string, req *http.Request, into interface{}) {
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	res, err := http.DefaultClient.Do(req)
	must(step, err)
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	must(step, err)
	if res.StatusCode >= 300 {
		fail(step, fmt.Sprintf("%d %s", res.StatusCode, text))
	}
	if into != nil {
		must(step, json.Unmarshal(text, into))
	}
}

// field reads a dotted path (data.attributes.sequence_number, with numeric array indexes) of an answer.
func field(answer map[string]interface{}, path string) string {
	var cur interface{} = answer
	for _, part := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]interface{}:
			cur = v[part]
		case []interface{}:
			var i int
			if _, err := fmt.Sscanf(part, "%d", &i); err != nil || i >= len(v) {
				return ""
			}
			cur = v[i]
		default:
			return ""
		}
	}
	s, _ := cur.(string)
	return s
}
