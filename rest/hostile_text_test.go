package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// Hostile text: what an end user, an integrator or a workspace can put
// where Payline shows it to someone else. Each would set window.__xss,
// request "x" or open a template expression if a page took it as HTML or
// as code; shown as text, each reads exactly as it was written.
const (
	// hostileEmployer is the employer line of hostilePaystubPDF.
	hostileEmployer = `Acme <img src=x onerror="window.__xss=1"> Payroll`
	// hostileEndUser is an end_user_id: '<' and quotes are text an id
	// may hold (domain.CheckIDText refuses only control and bidi).
	hostileEndUser = `"><svg onload="window.__xss=2">`
	// hostileURLEndUser is an end_user_id a page would run if it made
	// the id itself a link.
	hostileURLEndUser = `javascript:window.__xss=3`
	// hostileTax and hostileEarning are line names of hostilePaystubPDF.
	hostileTax     = `Federal income tax javascript:window.__xss=3`
	hostileEarning = `Salary {{constructor.constructor('window.__xss=4')()}} pay`
	// hostileOrg is a link token's org_name (3 to 30 characters), which
	// Link says to the end user.
	hostileOrg = `<svg onload=window.__xss=6>`
	// hostileFileName is an upload's name as the device gave it, with a
	// right-to-left override; hostileFileShown is it cleaned
	// (domain.CleanText), as every page shows it.
	hostileFileName  = "pay <img src=x onerror=window.__xss=7>\u202efdp.pdf"
	hostileFileShown = "pay <img src=x onerror=window.__xss=7>fdp.pdf"
	// hostileWorkspace is a customer's name, which the dashboard's header
	// and a review's basis say; hostileMember is a member's e-mail
	// address, as net/mail allows it.
	hostileWorkspace = `Acme <script>window.__xss=8</script> Lending`
	hostileMember    = `ada'{{7*7}}@acme.test`
	// hostileNote is what a reviewer writes beside a decision.
	hostileNote = `Checked <img src=x onerror="window.__xss=9"> by phone`
	// hostilePDFWorkspace is a customer's name aimed at the PDF's own
	// syntax, which the report prints in a review's basis: a string that
	// closes early, and an action dictionary after it.
	hostilePDFWorkspace = `Acme\) Tj ET (<< /OpenAction << /S /JavaScript /JS (app.alert\(1\)) >> >>`
)

// hostilePaystubPDF is a one-page paystub drawn with fpdf whose employer
// and two line names are hostile text, and whose net pay is $250 more
// than its gross less its taxes, so the checks leave it to a person
// (ARITHMETIC_MISMATCH): the review queue shows it, and once accepted
// the VOIE counts it.
func hostilePaystubPDF(t testing.TB) []byte {
	t.Helper()
	p := fpdf.New("P", "pt", "Letter", "")
	p.SetCreator("Payline tests", false)
	p.AddPage()
	p.SetFont("Helvetica", "B", 16)
	p.Text(40, 50, "Earnings Statement")
	p.SetFont("Helvetica", "", 10)
	y := 80.0
	for _, r := range [][2]string{{"Employer", hostileEmployer}, {"Pay date", "11/13/2026"}, {"Pay period", "10/26/2026 - 11/08/2026"}} {
		p.Text(40, y, r[0])
		p.Text(140, y, r[1])
		y += 16
	}
	y += 20
	p.SetFont("Helvetica", "B", 10)
	for x, s := range map[float64]string{40: "Earnings", 380: "Current", 480: "YTD"} {
		p.Text(x, y, s)
	}
	p.SetFont("Helvetica", "", 10)
	for _, l := range [][3]string{
		{hostileEarning, "2,945.92", "67,756.16"},
		{"Gross pay", "2,945.92", "67,756.16"},
		{},
		{"Taxes"},
		{hostileTax, "297.40", "6,840.20"},
		{"Social Security", "182.65", "4,200.95"},
		{"Medicare", "42.72", "982.56"},
		{"Total taxes", "522.77", "12,023.71"},
		{},
		{"Net pay", "2,673.15", "55,732.45"},
	} {
		y += 16
		p.Text(40, y, l[0])
		p.Text(380, y, l[1])
		p.Text(480, y, l[2])
	}
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hostileUpload uploads hostilePaystubPDF, named hostileFileName, through
// Link's API as endUser's, with the headers' key, and returns the stored
// document after checking the reader kept the hostile text as it was.
func (f *fixture) hostileUpload(endUser, org string, headers ...string) map[string]any {
	f.t.Helper()
	body, _ := json.Marshal(map[string]any{"org_name": org, "end_user_id": endUser, "required_jobs": []string{"paystubs"}})
	_, token := f.createToken(string(body), headers...)
	if status, out := f.upload(token, "paystub", uploadFile{hostileFileName, hostilePaystubPDF(f.t)}); status != 200 {
		f.t.Fatalf("upload: %d %v", status, out)
	}
	docs := f.get("/v1/end_users/"+url.PathEscape(endUser)+"/documents", headers...).list(f.t)
	if len(docs) != 1 {
		f.t.Fatalf("%d documents", len(docs))
	}
	d := docs[0]
	pd, _ := d["parsed_data"].(map[string]any)
	read, _ := json.Marshal(pd)
	if d["file_name"] != hostileFileShown || pd["employer_name"] != hostileEmployer ||
		!strings.Contains(string(read), jsonText(hostileEarning)) || !strings.Contains(string(read), jsonText(hostileTax)) {
		f.t.Fatalf("the hostile stub as stored: file_name %q, parsed_data %v", d["file_name"], pd)
	}
	if r, _ := d["review"].(map[string]any); r["status"] != "required" {
		f.t.Fatalf("the hostile stub's review %v, want required", d["review"])
	}
	return d
}

// jsonText is s as encoding/json writes it, without its quotes.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// pdfActions finds, outside the PDF's streams (which hold drawing, never
// actions), the names that make a reader run something on opening or on
// an event.
var pdfActions = regexp.MustCompile(`/(JavaScript|JS|OpenAction|AA|Launch|SubmitForm|ImportData|RichMedia|EmbeddedFile)\b`)

// checkReportPDF checks a report PDF prints each of want as it is and
// holds no action: its text through pdftotext, its objects outside the
// streams for an action's name.
func checkReportPDF(t *testing.T, pdf []byte, want ...string) {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %.40q", pdf)
	}
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	// A long value may wrap in its cell; words are compared with the
	// layout's spacing collapsed.
	text := strings.Join(strings.Fields(string(out)), " ")
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the report does not print %q literally; it reads:\n%s", w, out)
		}
	}
	objects := regexp.MustCompile(`(?s)stream\r?\n.*?endstream`).ReplaceAll(pdf, nil)
	if m := pdfActions.FindAll(objects, -1); len(m) > 0 {
		t.Errorf("the report holds actions %q", m)
	}
}

// TestHostileTextInReportPDF, on both databases: a VOIE built from a
// paystub whose employer is hostile, accepted by a reviewer of a
// workspace whose name is hostile (HTML, then the PDF's own syntax),
// prints each literally and holds no JavaScript, OpenAction or other
// action.
func TestHostileTextInReportPDF(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext is not installed (poppler-utils): the report cannot be read back")
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for i, workspace := range []string{hostileWorkspace, hostilePDFWorkspace} {
			ws, err := f.keys.CreateKey(context.Background(), workspace, domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			key := []string{"x-api-secret", ws.Secret}
			member := fmt.Sprintf("%d.%s", i, hostileMember)
			f.addMember(workspace, member, domain.RoleReviewer)
			doc := f.hostileUpload(hostileEndUser, hostileOrg, key...)
			path := "/v1/end_users/" + url.PathEscape(hostileEndUser)
			res := f.post(path+"/documents/"+doc["id"].(string)+"/review", `{"outcome": "accepted", "note": "`+jsonText(hostileNote)+`"}`,
				"x-api-secret", "", "Authorization", "Bearer "+f.adminToken(member))
			if res.status != 200 {
				t.Fatalf("review: %d %s", res.status, res.raw)
			}
			voie := f.get(path+"/verification_reports/voie", key...).data(t)
			if emps, _ := voie["employments"].([]any); len(emps) != 1 {
				t.Fatalf("the VOIE's employments after the review: %v", voie["employments"])
			}
			resp, pdf := fetch(t, "GET", voie["document"].(map[string]any)["download_url"].(string))
			if resp.StatusCode != 200 {
				t.Fatalf("the VOIE's PDF: %d", resp.StatusCode)
			}
			checkReportPDF(t, pdf, hostileEmployer, "reviewed by a member of "+workspace)
		}
	})
}
