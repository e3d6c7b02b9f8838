package rest

import (
	"encoding/json"
	"slices"
	"strings"
)

// Versions are the Service-Version values of the spec, newest first.
var Versions = []string{"2025-07-08", "2023-11-22", "2023-07-18", "2023-04-18", "2022-09-09", "2022-06-22", "2022-03-02"}

// LatestVersion is the version handlers write natively.
const LatestVersion = "2025-07-08"

// versionChange is one breaking change: requests pinned to a version older
// than Version get Resource objects rewritten by Down, from the shape of
// Version to the shape before it. Handlers never branch on versions; they
// write the latest shape and the table walks it back.
type versionChange struct {
	Version  string // first version with the new shape
	Resource string // resource kind the handler tags its response with
	Summary  string // what changed, for docs/versions.md
	Down     func(obj map[string]any)
}

// versionChanges is Payline's table, in no particular order.
var versionChanges = []versionChange{
	{Version: "2023-11-22", Resource: resJob, Down: jobParamsAmountDown,
		Summary: "jobs before 2023-11-22 carry params.amount: the switched amount in cents, or null"},
}

// transformer applies a table of changes to responses.
type transformer struct {
	changes []versionChange
}

// applies returns the changes a response of resource needs for version,
// newest first, so each Down sees the shape its Version produced.
func (t transformer) applies(resource, version string) []versionChange {
	var out []versionChange
	for _, c := range t.changes {
		if c.Resource == resource && strings.Compare(version, c.Version) < 0 {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b versionChange) int { return strings.Compare(b.Version, a.Version) })
	return out
}

// transform rewrites data (one object or a list of objects) when the
// version needs it; otherwise data is returned untouched, so the latest
// version pays nothing.
func (t transformer) transform(resource, version string, data any) (any, error) {
	changes := t.applies(resource, version)
	if len(changes) == 0 {
		return data, nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
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
