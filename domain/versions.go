package domain

import (
	"bytes"
	"encoding/json"
	"slices"
)

// Versions are the Service-Version values of the spec, newest first.
var Versions = []string{"2025-07-08", "2023-11-22", "2023-07-18", "2023-04-18", "2022-09-09", "2022-06-22", "2022-03-02"}

// LatestVersion is the version every shape is written in before the
// version table walks it back.
const LatestVersion = "2025-07-08"

// PlatformMatchingVersion is the first API and webhook version that may
// use platform matching, in which a switch may have no params.action.
const PlatformMatchingVersion = "2023-11-22"

// firstWebhookVersion is the oldest version a webhook may be created with.
const firstWebhookVersion = "2023-04-18"

// WebhookVersions are the versions a webhook may be created with: the API
// versions from 2023-04-18 on, newest first.
func WebhookVersions() []string {
	return Versions[:slices.Index(Versions, firstWebhookVersion)+1]
}

// RequestRule is a request field tied to a version: a request pinned to
// an older version may not send it (400 INVALID_FIELDS saying which
// version it needs), so an integrator pinned to an old version never
// gets behaviour it did not ask for.
type RequestRule struct {
	Since    string // first version that accepts the field
	Endpoint string
	Field    string
	Instead  string // what an older version uses, for the message
}

// RequestRules is the one table of version-tied request fields.
// docs/versions.md lists it (a test checks).
var RequestRules = []RequestRule{
	{Since: LatestVersion, Endpoint: "POST /v1/link_tokens", Field: "solution", Instead: "required_jobs"},
	{Since: LatestVersion, Endpoint: "POST /v1/link_tokens", Field: "features", Instead: "required_jobs"},
	{Since: PlatformMatchingVersion, Endpoint: "POST /v1/link_tokens", Field: "end_user.platform_matching", Instead: "a token without platform matching"},
}

// checkVersionFields records a problem for each field of the endpoint
// that the request sends and its version does not accept.
func checkVersionFields(p *Problems, endpoint, version string, sent func(field string) bool) {
	for _, r := range RequestRules {
		if r.Endpoint == endpoint && sent(r.Field) && VersionBefore(version, r.Since) {
			p.Invalid(r.Field, "needs Service-Version %s or later, got %s; use %s", r.Since, version, r.Instead)
		}
	}
}

// KnownVersion reports whether v is one of Versions.
func KnownVersion(v string) bool { return slices.Contains(Versions, v) }

// VersionBefore reports whether version a is older than version b. Both
// must be known versions; versions are ordered by the list, not as text.
func VersionBefore(a, b string) bool {
	return slices.Index(Versions, a) > slices.Index(Versions, b)
}

// Resource kinds the version table applies to. A REST response is tagged
// with one; a webhook event carries the resource its payload shows.
const (
	ResourceJob = "job"
)

// VersionChange is one breaking change of a resource's shape: callers
// pinned to a version older than Version get objects rewritten by Down,
// from the shape of Version to the one before it.
type VersionChange struct {
	Version  string // first version with the new shape
	Resource string
	Summary  string // what changed, for docs/versions.md
	Down     func(obj map[string]any)
}

// VersionChanges is the one table of shape changes. REST responses and
// webhook deliveries both go through ShapeForVersion, so a webhook of
// version V receives what GET at version V shows.
var VersionChanges = []VersionChange{
	{Version: PlatformMatchingVersion, Resource: ResourceJob, Down: jobParamsAmountDown,
		Summary: "jobs and job events before 2023-11-22 carry params.amount: the switched amount in cents, or null"},
}

// versionChangesFor returns the changes a resource needs at version,
// newest first, so each Down sees the shape its Version produced.
func versionChangesFor(resource, version string) []VersionChange {
	var out []VersionChange
	for _, c := range VersionChanges {
		if c.Resource == resource && VersionBefore(version, c.Version) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b VersionChange) int {
		if VersionBefore(a.Version, b.Version) {
			return 1
		}
		return -1
	})
	return out
}

// ShapeForVersion rewrites data (one object or a list of objects, as it
// would be marshalled) into the shape of version. When the version needs
// nothing, data comes back untouched and the latest version pays nothing.
// Numbers are kept as their literals (json.Number), so dollar amounts
// never pass through float64 on the way.
func ShapeForVersion(resource, version string, data any) (any, error) {
	changes := versionChangesFor(resource, version)
	if len(changes) == 0 {
		return data, nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	apply := func(obj map[string]any) {
		for _, c := range changes {
			c.Down(obj)
		}
	}
	switch v := generic.(type) {
	case map[string]any:
		apply(v)
	case []any:
		for _, item := range v {
			if obj, ok := item.(map[string]any); ok {
				apply(obj)
			}
		}
	}
	return generic, nil
}

// jobParamsAmountDown is the 2023-11-22 change of the job shape: older
// versions carry params.amount, the switched amount in cents or null.
func jobParamsAmountDown(obj map[string]any) {
	params, _ := obj["params"].(map[string]any)
	if params == nil {
		params = map[string]any{}
		obj["params"] = params
	}
	var amount any
	if alloc, ok := params["allocation"].(map[string]any); ok && alloc["type"] == AllocationAmount {
		if v, ok := alloc["value"].(json.Number); ok {
			if m, err := ParseDollars(Number(v), UpToTwoPlaces); err == nil {
				amount = m.Amount
			}
		}
	}
	params["amount"] = amount
}
