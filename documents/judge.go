package documents

import (
	"math"
	"slices"
)

// slot is the readings of one money field, each distinct value once with
// its surest weight (readings that agree raise it).
type slot struct {
	values []candidate
}

func (s *slot) add(c candidate) {
	for i, v := range s.values {
		if v.cents == c.cents {
			if c.weight > v.weight {
				c.weight = min(1, c.weight+0.1)
				s.values[i] = c
			} else {
				s.values[i].weight = min(1, v.weight+0.1)
			}
			return
		}
	}
	s.values = append(s.values, c)
}

// top keeps the n surest readings.
func (s *slot) top(n int) []candidate {
	out := slices.Clone(s.values)
	slices.SortStableFunc(out, func(a, b candidate) int {
		switch {
		case a.weight > b.weight:
			return -1
		case a.weight < b.weight:
			return 1
		}
		return 0
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// sums are the figures the lines read from the tables add up to.
type sums struct {
	earnings, memo, reimbursed, taxes, deductions int64
	hasEarnings, hasTaxes, hasDeductions          bool
}

// choice is the figures the judge keeps.
type choice struct {
	gross, net, taxes, deductions, reimbursed *candidate
	grossYTD, netYTD                          *candidate
	// closes: gross − taxes − deductions + reimbursements = net.
	closes bool
	// linesMatch: the earnings lines add up to the gross kept (with the
	// memo lines when memoInGross).
	linesMatch, memoInGross, reimbInGross bool
	// rivals are fields another reading that closes as well would read
	// otherwise.
	rivals []string
	score  float64
}

const (
	// absentWeight is the weight of a figure not printed: a paystub may
	// print no total of its taxes or deductions.
	absentWeight = 0.3
	// Bonuses of the arithmetic, in log-weights: a reading whose figures
	// close is much likelier than one whose labels are a little surer.
	bonusCloses   = 4.0
	bonusLines    = 2.0
	bonusSubtotal = 1.5
	// rivalMargin is how near in score a reading that closes as well must
	// come to leave the fields it reads otherwise in doubt: two labels of
	// one weight, not a label and a total printed without one.
	rivalMargin = 0.2
)

func logw(w float64) float64 { return math.Log(max(w, 0.01)) }

func closeEnough(a, b int64) bool { return a-b <= 1 && b-a <= 1 }

// judge keeps, among the readings of each money field, the combination
// whose figures close: gross − taxes − deductions + reimbursements = net;
// the earnings lines add up to gross; the tax and deduction lines to
// their totals; the period within the year to date. The labels' weights
// decide between combinations the arithmetic does not.
func judge(slots map[field]*slot, ytd map[field]*slot, s sums) choice {
	options := func(f field, n int, absent bool) []*candidate {
		var out []*candidate
		if sl := slots[f]; sl != nil {
			for _, c := range sl.top(n) {
				out = append(out, &c)
			}
		}
		if absent || len(out) == 0 {
			out = append(out, nil)
		}
		return out
	}
	grosses := options(fieldGross, 5, false)
	nets := options(fieldNet, 5, false)
	taxes := options(fieldTaxes, 4, true)
	deductions := options(fieldDeductions, 4, true)
	reimbs := options(fieldReimbursements, 3, true)

	var best choice
	best.score = math.Inf(-1)
	var all []choice
	for _, g := range grosses {
		for _, n := range nets {
			for _, t := range taxes {
				for _, d := range deductions {
					for _, r := range reimbs {
						c := score(choice{gross: g, net: n, taxes: t, deductions: d, reimbursed: r}, s)
						all = append(all, c)
						if c.score > best.score {
							best = c
						}
					}
				}
			}
		}
	}
	// Another reading that closes too, as surely, leaves its differing
	// fields in doubt.
	for _, c := range all {
		if !c.closes || !best.closes || best.score-c.score > rivalMargin {
			continue
		}
		if !same(c.gross, best.gross) {
			best.rivals = appendOnce(best.rivals, "gross_pay_amount")
		}
		if !same(c.net, best.net) {
			best.rivals = appendOnce(best.rivals, "net_pay_amount")
		}
	}
	best.grossYTD = pickYTD(ytd[fieldGross], best.gross)
	best.netYTD = pickYTD(ytd[fieldNet], best.net)
	return best
}

func same(a, b *candidate) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.cents == b.cents
}

func appendOnce(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}

func value(c *candidate) int64 {
	if c == nil {
		return 0
	}
	return c.cents
}

// score weighs one combination: the labels' weights, and the arithmetic.
func score(c choice, s sums) choice {
	w := func(x *candidate, absent float64) float64 {
		if x == nil {
			return logw(absent)
		}
		return logw(x.weight)
	}
	c.score = w(c.gross, 0.02) + w(c.net, 0.02) + w(c.taxes, absentWeight) + w(c.deductions, absentWeight) + w(c.reimbursed, 0.9)
	if c.gross != nil && c.net != nil && (c.taxes != nil || c.deductions != nil) {
		if closeEnough(c.gross.cents-value(c.taxes)-value(c.deductions)+value(c.reimbursed), c.net.cents) {
			c.closes = true
			c.score += bonusCloses
		}
	}
	if c.gross != nil && s.hasEarnings {
		switch {
		case closeEnough(s.earnings, c.gross.cents):
			c.linesMatch = true
		case closeEnough(s.earnings+s.memo, c.gross.cents):
			c.linesMatch, c.memoInGross = true, true
		case closeEnough(s.earnings+s.reimbursed, c.gross.cents):
			c.linesMatch, c.reimbInGross = true, true
		case closeEnough(s.earnings+s.memo+s.reimbursed, c.gross.cents):
			c.linesMatch, c.memoInGross, c.reimbInGross = true, true, true
		}
		if c.linesMatch {
			c.score += bonusLines
		}
	}
	if c.taxes != nil && s.hasTaxes && closeEnough(s.taxes, c.taxes.cents) {
		c.score += bonusSubtotal
	}
	if c.deductions != nil && s.hasDeductions && closeEnough(s.deductions, c.deductions.cents) {
		c.score += bonusSubtotal
	}
	if c.gross != nil && c.net != nil && c.net.cents > c.gross.cents+value(c.reimbursed) {
		c.score -= bonusCloses // net above gross: a misplaced figure
	}
	return c
}

// pickYTD keeps the surest year-to-date reading, one at least the
// period's figure before one below it unless the lower is surer by far
// (a year includes its period; a stub whose year to date is below its
// period is read as printed, for the checks to question).
func pickYTD(sl *slot, period *candidate) *candidate {
	if sl == nil {
		return nil
	}
	var best *candidate
	bestScore := -1.0
	for _, c := range sl.top(6) {
		score := c.weight
		if period != nil && c.cents+1 < period.cents {
			score -= 0.5
		}
		// The year's figure printed beside the period's kept is likelier
		// its own than one read elsewhere.
		if period != nil && !period.derived && c.at.line == period.at.line && c.at.page == period.at.page {
			score += 0.3
		}
		if score > bestScore {
			best, bestScore = &c, score
		}
	}
	return best
}
