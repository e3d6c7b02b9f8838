package sdk_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLibraryWalkthroughs runs the TypeScript and Python libraries'
// walkthroughs (each the README's, in that language) against the same
// sandbox server as the Go one. A missing Node.js or Python fails the
// test: CI installs both.
func TestLibraryWalkthroughs(t *testing.T) {
	srv := sandboxServer(t)
	for _, lib := range []struct {
		name, dir string
		cmd       []string
	}{
		{"typescript", "typescript", []string{"node", "--test", "--test-reporter=tap", "walkthrough.test.js"}},
		{"python", "python", []string{"python3", "-m", "unittest", "-v", "test_walkthrough"}},
	} {
		t.Run(lib.name, func(t *testing.T) {
			if _, err := exec.LookPath(lib.cmd[0]); err != nil {
				t.Fatalf("the %s walkthrough needs %s: %v", lib.name, lib.cmd[0], err)
			}
			if lib.name == "typescript" {
				npmInstalled(t, lib.dir, filepath.Join("openapi-fetch", "package.json"))
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, lib.cmd[0], lib.cmd[1:]...)
			cmd.Dir, cmd.Env = lib.dir, srv.env()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s: %v\n%s", strings.Join(lib.cmd, " "), err, out)
			}
			if strings.Contains(string(out), "skipped=") || strings.Contains(string(out), "# SKIP") {
				t.Fatalf("the %s walkthrough skipped:\n%s", lib.name, out)
			}
			t.Logf("%s", out)
		})
	}
}
