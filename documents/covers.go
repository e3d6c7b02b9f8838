package documents

import (
	"bytes"
	"regexp"
	"strconv"
)

// rect is a box in PDF user space (points, y up from the page's foot).
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) empty() bool { return r.x1-r.x0 < 1 || r.y1-r.y0 < 1 }

// matrix is a PDF transformation [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// then is m followed by n (PDF's cm: the new matrix is n × m).
func (m matrix) then(n matrix) matrix {
	return matrix{
		n[0]*m[0] + n[1]*m[2], n[0]*m[1] + n[1]*m[3],
		n[2]*m[0] + n[3]*m[2], n[2]*m[1] + n[3]*m[3],
		n[4]*m[0] + n[5]*m[2] + m[4], n[4]*m[1] + n[5]*m[3] + m[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return m[0]*x + m[2]*y + m[4], m[1]*x + m[3]*y + m[5]
}

// box maps a rectangle through m and bounds it.
func (m matrix) box(x, y, w, h float64) rect {
	xs, ys := [4]float64{}, [4]float64{}
	for i, p := range [4][2]float64{{x, y}, {x + w, y}, {x, y + h}, {x + w, y + h}} {
		xs[i], ys[i] = m.apply(p[0], p[1])
	}
	r := rect{xs[0], ys[0], xs[0], ys[0]}
	for i := 1; i < 4; i++ {
		r.x0, r.x1 = min(r.x0, xs[i]), max(r.x1, xs[i])
		r.y0, r.y1 = min(r.y0, ys[i]), max(r.y1, ys[i])
	}
	return r
}

// contentTokens splits a content stream into its tokens, at most max:
// strings (kept whole, so their bytes are not read as operators, "(" and
// "<" first), arrays' brackets, names ("/F1"), numbers and operators. A
// hand-written scanner: a regular expression over every stream of a page
// cost more than reading the page.
func contentTokens(b []byte, max int) [][]byte {
	var out [][]byte
	i := 0
	for i < len(b) && len(out) < max {
		c := b[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0:
			i++
		case c == '%': // a comment, to the line's end
			for i < len(b) && b[i] != '\n' && b[i] != '\r' {
				i++
			}
		case c == '(':
			start, depth := i, 0
			for ; i < len(b); i++ {
				if b[i] == '\\' {
					i++
					continue
				}
				if b[i] == '(' {
					depth++
				} else if b[i] == ')' {
					if depth--; depth == 0 {
						i++
						break
					}
				}
			}
			out = append(out, b[start:min(i, len(b))])
		case c == '<':
			start := i
			if i+1 < len(b) && b[i+1] == '<' { // a dictionary's start
				i += 2
				out = append(out, b[start:i])
				continue
			}
			for i < len(b) && b[i] != '>' {
				i++
			}
			i++
			out = append(out, b[start:min(i, len(b))])
		case c == '>' || c == '[' || c == ']' || c == '{' || c == '}':
			out = append(out, b[i:i+1])
			i++
		default:
			start := i
			i++
			for i < len(b) && !delimiter(b[i]) {
				i++
			}
			out = append(out, b[start:i])
		}
	}
	return out
}

// delimiter says whether a byte ends a PDF token.
func delimiter(c byte) bool {
	switch c {
	case ' ', '\n', '\r', '\t', '\f', 0, '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// maxCoverTokens bounds the tokens of one stream read for covers.
const maxCoverTokens = 400_000

// coversAfterText reads one content stream for what it paints after it
// has drawn text: rectangles filled white (or nearly) and pictures or
// forms drawn (Do), each bounded through the current transformation. An
// honest generator draws its boxes and backgrounds before the text on
// them; an editor that hides a figure paints over it afterwards. A
// stream an incremental update added (updated) paints after the text
// the file held before.
func coversAfterText(content []byte, updated bool) []rect {
	var out []rect
	ctm := identity
	var stack []matrix
	white := false
	textSeen := updated
	var path []rect
	var nums []float64
	tokens := contentTokens(content, maxCoverTokens)
	for _, t := range tokens {
		if c := t[0]; c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' {
			if v, err := strconv.ParseFloat(string(t), 64); err == nil {
				nums = append(nums, v)
				continue
			}
		}
		if t[0] == '(' || t[0] == '<' || t[0] == '[' || t[0] == ']' || t[0] == '/' {
			if t[0] != '/' {
				nums = nums[:0]
			}
			continue
		}
		op := string(t)
		last := func(n int) []float64 {
			if len(nums) < n {
				return nil
			}
			return nums[len(nums)-n:]
		}
		switch op {
		case "q":
			stack = append(stack, ctm)
		case "Q":
			if n := len(stack); n > 0 {
				ctm, stack = stack[n-1], stack[:n-1]
			}
		case "cm":
			if v := last(6); v != nil {
				ctm = ctm.then(matrix{v[0], v[1], v[2], v[3], v[4], v[5]})
			}
		case "g":
			if v := last(1); v != nil {
				white = v[0] >= 0.95
			}
		case "rg":
			if v := last(3); v != nil {
				white = v[0] >= 0.95 && v[1] >= 0.95 && v[2] >= 0.95
			}
		case "k":
			if v := last(4); v != nil {
				white = v[0] <= 0.05 && v[1] <= 0.05 && v[2] <= 0.05 && v[3] <= 0.05
			}
		case "sc", "scn":
			switch len(nums) {
			case 1:
				white = nums[0] >= 0.95
			case 3:
				white = nums[0] >= 0.95 && nums[1] >= 0.95 && nums[2] >= 0.95
			}
		case "BT", "Tj", "TJ", "'", "\"":
			textSeen = true
		case "re":
			if v := last(4); v != nil {
				path = append(path, ctm.box(v[0], v[1], v[2], v[3]))
			}
		case "f", "F", "f*", "B", "B*", "b", "b*":
			if textSeen && white {
				for _, r := range path {
					if !r.empty() {
						out = append(out, r)
					}
				}
			}
			path = path[:0]
		case "n", "S", "s":
			path = path[:0]
		case "Do":
			if textSeen {
				if r := ctm.box(0, 0, 1, 1); !r.empty() {
					out = append(out, r)
				}
			}
		}
		nums = nums[:0]
	}
	return out
}

var (
	// annotation is an annotation's dictionary: one that draws on the
	// page (a box, a stamp, text typed on it).
	annotation = regexp.MustCompile(`(?s)/Subtype\s*/(?:FreeText|Square|Stamp|Ink|Polygon|Redact)\b.{0,1000}?/Rect\s*\[([^\]]*)\]|/Rect\s*\[([^\]]*)\].{0,1000}?/Subtype\s*/(?:FreeText|Square|Stamp|Ink|Polygon|Redact)\b`)
	numberRun  = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)`)
)

// annotationRects are the boxes of annotations that draw on a page (a
// text box typed over a figure, a stamp).
func annotationRects(data []byte) []rect {
	if !bytes.Contains(data, []byte("/Annot")) && !bytes.Contains(data, []byte("/Rect")) {
		return nil
	}
	var out []rect
	for _, m := range annotation.FindAllSubmatch(data, 64) {
		raw := m[1]
		if raw == nil {
			raw = m[2]
		}
		ns := numberRun.FindAll(raw, 4)
		if len(ns) != 4 {
			continue
		}
		var v [4]float64
		for i, n := range ns {
			v[i], _ = strconv.ParseFloat(string(n), 64)
		}
		r := rect{min(v[0], v[2]), min(v[1], v[3]), max(v[0], v[2]), max(v[1], v[3])}
		if !r.empty() {
			out = append(out, r)
		}
	}
	return out
}
