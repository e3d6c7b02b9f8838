package domain

// W2Boxes are the boxes read from an uploaded W-2, each as printed: an
// amount in cents, nil when it was not read (a box not read is never 0).
// A platform's W-2 has none: its flat fields are the platform's figures.
type W2Boxes struct {
	EmployeeSSN     string `json:"employee_ssn,omitempty"` // as printed, masked or not
	EmployeeAddress string `json:"employee_address,omitempty"`
	EmployerAddress string `json:"employer_address,omitempty"`
	ControlNumber   string `json:"control_number,omitempty"`
	// Box1 wages, tips, other compensation; Box2 federal income tax
	// withheld; Box3 social security wages; Box4 social security tax
	// withheld; Box5 Medicare wages and tips; Box6 Medicare tax withheld;
	// Box7 social security tips; Box8 allocated tips; Box10 dependent care
	// benefits; Box11 nonqualified plans.
	Box1  *int64 `json:"box1"`
	Box2  *int64 `json:"box2"`
	Box3  *int64 `json:"box3"`
	Box4  *int64 `json:"box4"`
	Box5  *int64 `json:"box5"`
	Box6  *int64 `json:"box6"`
	Box7  *int64 `json:"box7"`
	Box8  *int64 `json:"box8"`
	Box10 *int64 `json:"box10"`
	Box11 *int64 `json:"box11"`
	// Box12 are the coded amounts (D: 401(k) deferrals, DD: employer
	// health coverage, W: HSA, ...), in the order printed.
	Box12 []W2Code `json:"box12"`
	// States are the rows of boxes 15 to 20, one per state.
	States []W2State `json:"states"`
	// Copies is how many copies of the form the page holds (1, 2 or 4);
	// they are read as one W-2.
	Copies int `json:"copies,omitempty"`
}

// W2Code is one of box 12's entries.
type W2Code struct {
	Code   string `json:"code"`
	Amount int64  `json:"amount"`
}

// W2State is one row of boxes 15 to 20.
type W2State struct {
	State           string `json:"state"`                       // box 15, two letters
	EmployerStateID string `json:"employer_state_id,omitempty"` // box 15
	Wages           *int64 `json:"wages"`                       // box 16
	Tax             *int64 `json:"tax"`                         // box 17
	LocalWages      *int64 `json:"local_wages"`                 // box 18
	LocalTax        *int64 `json:"local_tax"`                   // box 19
	Locality        string `json:"locality,omitempty"`          // box 20
}

// stateSum is boxes 16 (or 17) of every state row, nil when none was
// read.
func stateSum(rows []W2State, tax bool) *int64 {
	var sum int64
	any := false
	for _, r := range rows {
		v := r.Wages
		if tax {
			v = r.Tax
		}
		if v != nil {
			sum += *v
			any = true
		}
	}
	if !any {
		return nil
	}
	return &sum
}

// FromBoxes sets an uploaded W-2's spec fields from its boxes: each a
// box's figure, state wages and taxes the sums of the state rows, 0 for
// a box not read (the JSON writes those null: Boxes says which).
func (w *W2) FromBoxes(b W2Boxes) {
	w.Boxes = &b
	v := func(p *int64) Money { return USD(deref(p)) }
	w.TotalWages, w.FederalTaxes = v(b.Box1), v(b.Box2)
	w.SocialSecurityWages, w.SocialSecurityTaxes = v(b.Box3), v(b.Box4)
	w.MedicareWages, w.MedicareTaxes = v(b.Box5), v(b.Box6)
	w.StateWages, w.StateTaxes = v(stateSum(b.States, false)), v(stateSum(b.States, true))
}
