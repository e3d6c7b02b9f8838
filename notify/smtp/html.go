package smtp

import (
	"html"
	"regexp"
	"strings"
)

// webAddress finds the links in a plain-text body, to make them links in
// its HTML twin.
var webAddress = regexp.MustCompile(`https?://[^\s<>"]+`)

// HTMLFromText is the HTML body of a message given only in plain text:
// the customer's name as its heading, the same words in paragraphs, links
// clickable. Styles are inline (mail clients drop style sheets) and
// nothing is loaded from anywhere: no images, no fonts, no pixels.
func HTMLFromText(customer, text string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>`)
	b.WriteString(`<body style="margin:0;padding:24px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5;color:#1a1a1a;background:#ffffff">`)
	if customer != "" {
		b.WriteString(`<p style="margin:0 0 16px;font-size:20px;font-weight:600">` + html.EscapeString(customer) + `</p>`)
	}
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if strings.TrimSpace(para) == "" {
			continue
		}
		lines := strings.Split(strings.Trim(para, "\n"), "\n")
		for i, l := range lines {
			lines[i] = linked(l)
		}
		b.WriteString(`<p style="margin:0 0 16px">` + strings.Join(lines, "<br>") + `</p>`)
	}
	b.WriteString(`</body></html>`)
	return b.String()
}

// linked escapes a line and makes its web addresses links.
func linked(line string) string {
	var b strings.Builder
	last := 0
	for _, loc := range webAddress.FindAllStringIndex(line, -1) {
		b.WriteString(html.EscapeString(line[last:loc[0]]))
		u := strings.TrimRight(line[loc[0]:loc[1]], ".,;:!?)")
		b.WriteString(`<a href="` + html.EscapeString(u) + `" style="color:#0b57d0">` + html.EscapeString(u) + `</a>`)
		last = loc[0] + len(u)
	}
	b.WriteString(html.EscapeString(line[last:]))
	return b.String()
}

// RemoteContent names what in an HTML body would load something when the
// mail is opened (an image, a style sheet, a frame: a tracking pixel's
// ways), or "" when there is none. Such a body is never sent.
func RemoteContent(body string) string {
	lower := strings.ToLower(body)
	for _, tag := range []string{"<img", "<link", "<script", "<iframe", "<object", "<embed", "<video", "<audio", "<source", "<picture"} {
		if strings.Contains(lower, tag) {
			return "a " + strings.TrimPrefix(tag, "<") + " element"
		}
	}
	for _, attr := range []string{"url(", "background=", "@import"} {
		if strings.Contains(lower, attr) {
			return "a " + strings.TrimSuffix(attr, "(") + " reference"
		}
	}
	return ""
}
