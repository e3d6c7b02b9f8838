package documents

import (
	"strings"

	"payline/domain"
)

// What a file is, by the words it prints: a reader that finds an
// employment letter where a paystub was promised says so, instead of
// storing a paystub of which it read an employer only.

// kindWords are phrases that mark each kind of document, squashed; a
// kind's score is how many of them the document prints.
var kindWords = map[string][]string{
	domain.DocumentPaystub: {"netpay", "grosspay", "paydate", "checkdate", "payperiod", "periodending", "periodbeginning",
		"earnings", "deductions", "ytd", "yeartodate", "federalincometax", "socialsecurity", "medicare", "thisperiod",
		"currentytd", "advicedate", "takehome", "netcheck", "hours", "rate", "withholding", "statutory"},
	domain.DocumentW2: {"wageandtaxstatement", "w2", "wagestipsothercompensation", "federalincometaxwithheld",
		"socialsecuritywages", "medicarewagesandtips", "employeridentificationnumber", "employerssocialsecuritynumber",
		"employeessocialsecuritynumber", "controlnumber", "allocatedtips", "dependentcarebenefits", "nonqualifiedplans",
		"statutoryemployee", "retirementplan", "thirdpartysickpay", "localitynam", "departmentofthetreasury"},
	"employment_letter": {"towhomitmayconcern", "thisletter", "verify", "verification", "confirm", "employed", "sincerely",
		"employmentverification", "currentlyemployed", "hasbeenemployed", "annualsalary", "position", "humanresources",
		"pleasecontact", "datehired", "dateofhire", "letterofemployment", "regards"},
	"offer_letter": {"pleasedtooffer", "offerofemployment", "offer", "startdate", "acceptthisoffer", "weareexcited",
		"compensation", "atwill", "contingent", "welcome", "sincerely", "signature", "accept"},
	"bank_statement": {"beginningbalance", "endingbalance", "statementperiod", "deposits", "withdrawals", "accountnumber",
		"availablebalance", "dailybalance", "checkingaccount", "savingsaccount", "accountsummary", "transactionhistory",
		"depositsandadditions", "electronicwithdrawals", "statementdate", "overdraft"},
}

// kindNames say a kind in words, for a person.
var kindNames = map[string]string{
	domain.DocumentPaystub: "a paystub", domain.DocumentW2: "a W-2", "employment_letter": "an employment verification letter",
	"offer_letter": "an offer letter", "bank_statement": "a bank statement",
}

// classify says what a document is, "" when its words do not say
// clearly: the kind whose marks it prints most, when that is at least
// three more than the kind it is the next best at. A paystub's labels
// read as a paystub always win over a letter's words.
func classify(doc page) string {
	var all strings.Builder
	for _, l := range doc.lines {
		for _, p := range l.phrases {
			all.WriteString(squash(p.text))
			all.WriteByte(' ')
		}
	}
	text := all.String()
	scores := map[string]int{}
	for kind, marks := range kindWords {
		for _, m := range marks {
			if strings.Contains(text, m) {
				scores[kind]++
			}
		}
	}
	// Money figures with their labels are a paystub's strongest mark.
	labelled := 0
	for _, l := range doc.lines {
		for _, p := range l.phrases {
			if p.label == fieldGross || p.label == fieldNet || p.label == fieldPayDate {
				labelled++
			}
		}
	}
	scores[domain.DocumentPaystub] += 2 * labelled
	best, second := "", 0
	for kind, s := range scores {
		if best == "" || s > scores[best] || s == scores[best] && kind < best {
			best = kind
		}
	}
	for kind, s := range scores {
		if kind != best && s > second {
			second = s
		}
	}
	if scores[best] < 3 || scores[best]-second < 3 {
		return ""
	}
	return best
}

// notThis says, for a person, that a file is not the document it was
// uploaded as.
func notThis(declared, kind string) string {
	return "This file looks like " + kindNames[kind] + ", not " + kindNames[declared] + ", so nothing was read from it as " + kindNames[declared] + "."
}

// splitStubs splits a document into the paystubs it holds: a PDF of
// several pages, each with its own pay date and net pay, holds one
// paystub a page (a "download all" export); a paystub that runs onto a
// second page is one. A page printing the same stub twice (a voucher
// check's two copies) keeps the first copy.
func splitStubs(doc page) []page {
	doc = dropCopies(doc)
	byPage := map[int][]textLine{}
	var order []int
	for _, l := range doc.lines {
		if _, ok := byPage[l.page]; !ok {
			order = append(order, l.page)
		}
		byPage[l.page] = append(byPage[l.page], l)
	}
	if len(order) < 2 {
		return []page{doc}
	}
	complete := func(ls []textLine) bool {
		var date, net bool
		for _, l := range ls {
			for _, p := range l.phrases {
				date = date || p.label == fieldPayDate || p.label == fieldPeriod || p.label == fieldPeriodEnd
				net = net || p.label == fieldNet
			}
		}
		return date && net
	}
	for _, pg := range order {
		if !complete(byPage[pg]) {
			return []page{doc}
		}
	}
	out := make([]page, len(order))
	for i, pg := range order {
		out[i] = page{lines: byPage[pg], sizes: doc.sizes}
		for k := range out[i].lines {
			for m := range out[i].lines[k].phrases {
				out[i].lines[k].phrases[m].line = k
			}
		}
	}
	return out
}

// copyRun is how many of the lines after a repeated line must repeat too
// for the page to hold a second copy from there.
const copyRun = 6

// dropCopies keeps, on each page, the lines before a second copy of the
// page's stub starts: the first line from which at least copyRun of the
// next ten repeat lines printed above it.
func dropCopies(doc page) page {
	var out []textLine
	start := 0
	for start < len(doc.lines) {
		end := start
		for end < len(doc.lines) && doc.lines[end].page == doc.lines[start].page {
			end++
		}
		ls := doc.lines[start:end]
		seen := map[string]bool{}
		repeat := make([]bool, len(ls))
		for i, l := range ls {
			key := lineKey(l)
			repeat[i] = len(key) >= 6 && seen[key]
			seen[key] = true
		}
		cut := len(ls)
		for i := range ls {
			if !repeat[i] {
				continue
			}
			n := 0
			for k := i; k < len(ls) && k < i+10; k++ {
				if repeat[k] {
					n++
				}
			}
			if n >= copyRun {
				cut = i
				break
			}
		}
		out = append(out, ls[:cut]...)
		start = end
	}
	for i := range out {
		for k := range out[i].phrases {
			out[i].phrases[k].line = i
		}
	}
	return page{lines: out, sizes: doc.sizes}
}

func lineKey(l textLine) string {
	var b strings.Builder
	for _, p := range l.phrases {
		b.WriteString(squash(p.text))
	}
	return b.String()
}
