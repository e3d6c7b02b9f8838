package domain_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// codeConstants reads every Code* constant of domain/codes.go.
func codeConstants(t *testing.T) []string {
	t.Helper()
	file, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(file, func(n ast.Node) bool {
		if spec, ok := n.(*ast.ValueSpec); ok {
			for i, name := range spec.Names {
				if strings.HasPrefix(name.Name, "Code") {
					v, _ := strconv.Unquote(spec.Values[i].(*ast.BasicLit).Value)
					codes = append(codes, v)
				}
			}
		}
		return true
	})
	slices.Sort(codes)
	if len(codes) < 30 {
		t.Fatalf("read only %d codes from codes.go; the parser missed them", len(codes))
	}
	return slices.Compact(codes)
}

// TestErrorCodesAreDocumented: docs/errors.md lists exactly the codes of
// domain/codes.go, no more and no fewer.
func TestErrorCodesAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]{2,})`").FindAllStringSubmatch(string(doc), -1) {
		documented = append(documented, m[1])
	}
	for _, typ := range []string{"RECORD_NOT_FOUND", "INVALID_REQUEST_PARAMETERS", "UNAUTHORIZED_REQUEST"} {
		documented = slices.DeleteFunc(documented, func(s string) bool { return s == typ }) // types, not codes
	}
	slices.Sort(documented)
	documented = slices.Compact(documented)
	if codes := codeConstants(t); !slices.Equal(codes, documented) {
		t.Errorf("domain/codes.go and docs/errors.md disagree:\nonly in code: %v\nonly in docs: %v",
			missing(codes, documented), missing(documented, codes))
	}
}

func missing(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestCodesLiveInOnePlace: no other Go file defines a Code constant or
// passes a literal code to Errorf or domain.Error.
func TestCodesLiveInOnePlace(t *testing.T) {
	literalCode := regexp.MustCompile(`Errorf\([^,]+, "[A-Z_]+"|Code: +"[A-Z_]+"|\bCode[A-Z]\w* += "`)
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		// Corpus generators write payroll codes (REG, OT) into paystubs;
		// they are no error codes.
		if err == nil && d.IsDir() && (d.Name() == "blindcorpus" || d.Name() == "corpusgen" || d.Name() == "wildgen") {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.Contains(path, "generated") || filepath.Base(path) == "codes.go" {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if literalCode.MatchString(line) {
				t.Errorf("%s:%d: an error code outside domain/codes.go: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
