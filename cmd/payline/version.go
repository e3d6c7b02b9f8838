package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// versionLine says which build this is, from the information the Go
// toolchain records: the module version (a tag when installed with go
// install, "(devel)" when built from a checkout), the commit and its time,
// whether the tree had uncommitted changes, and the Go version.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "payline (no build information)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	parts := []string{"payline " + info.Main.Version}
	if rev := settings["vcs.revision"]; rev != "" {
		commit := "commit " + rev
		if t := settings["vcs.time"]; t != "" {
			commit += " (" + t + ")"
		}
		if settings["vcs.modified"] == "true" {
			commit += " with uncommitted changes"
		}
		parts = append(parts, commit)
	} else {
		parts = append(parts, "commit unknown (built without version control information)")
	}
	parts = append(parts, fmt.Sprintf("%s %s/%s", info.GoVersion, settings["GOOS"], settings["GOARCH"]))
	return strings.Join(parts, ", ")
}
