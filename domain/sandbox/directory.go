package sandbox

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/google/uuid"

	"payline/domain"
)

// DefaultEmployerCount is the size of the directory `directory seed` and a
// fresh sandbox database get.
const DefaultEmployerCount = 5000

// namespace makes directory ids stable UUIDv5s: re-seeding never changes
// the id of an employer or platform that integrators may have stored.
var namespace = uuid.MustParse("6f1c9a52-3b7e-4d8a-9c1e-5a2b7d4e8f10")

// directoryEpoch is the base of every generated last_updated.
var directoryEpoch = time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)

// Directory generates the sandbox directory: the platforms of every type
// (payroll with ESPs and partnerships, time and attendance, tax, merchants
// in each category) and employerCount employers, each served by one of the
// payroll platforms or being an ESP itself.
func Directory(employerCount int) ([]domain.Platform, []domain.Employer) {
	rng := rand.New(rand.NewPCG(20260105, 42))
	g := &generator{rng: rng}
	return g.employers(employerCount, g.platforms())
}

type generator struct {
	rng *rand.Rand
	seq int
}

func (g *generator) id(kind string, n int) string {
	return uuid.NewSHA1(namespace, fmt.Appendf(nil, "%s/%d", kind, n)).String()
}

func (g *generator) lastUpdated() time.Time {
	g.seq++
	return directoryEpoch.Add(time.Duration(g.seq)*17*time.Minute + time.Duration(g.rng.IntN(1_000_000))*time.Microsecond)
}

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

var (
	payrollStems = []string{
		"Summit", "Keystone", "Harbor", "Meridian", "Pioneer", "Cascade", "Beacon", "Evergreen",
		"Granite", "Liberty", "Northwind", "Bluebird", "Redwood", "Silverline", "Crescent",
		"Horizon", "Lakeshore", "Prairie", "Sterling", "Union", "Copperleaf", "Tidewater",
		"Ironbridge", "Foxglove", "Brightpath", "Clearwater", "Stonegate", "Juniper",
	}
	payrollSuffixes  = []string{"Payroll", "Pay", "HR", "Workforce", "People", "Paycheck Portal", "Payroll Services"}
	timeStems        = []string{"ClockWise", "ShiftLine", "Timecard", "Punchpoint", "Rota", "HourGlass", "Crewtime", "Tallyshift"}
	taxStems         = []string{"Ledgerly", "TaxHarbor", "FileRight", "Returnly", "Form Forge", "Taxwell"}
	merchantSuffixes = []string{"", " Plus", " Online", " Direct", " Now"}
)

// merchantNames names the merchants of each category of the reference;
// every category gets at least one, a third of them two.
func merchantNames() map[string][]string {
	stems := []string{"Nova", "Orbit", "Pulse", "Vista", "Ember", "Quill", "Zephyr", "Atlas", "Lumen", "Cobalt"}
	nouns := map[string]string{
		"automotive": "Auto Care", "buy_now_pay_later": "PayLater", "charity_and_donations": "Giving",
		"education": "Learn", "entertainment_and_recreation": "Fun Pass", "financial_services": "Finance",
		"fitness": "Fitness", "food_and_delivery": "Eats", "gaming": "Games", "health_and_wellness": "Health",
		"home_and_household_services": "Home Services", "insurance": "Insurance", "internet_and_telecom": "Telecom",
		"loan": "Lending", "media": "Media", "music_and_audio_streaming": "Music", "news": "News Daily",
		"other": "Club", "productivity_and_saas_tools": "Cloud Tools", "professional_services": "Advisors",
		"rent": "Rentals", "shopping_and_retail": "Shop", "social_and_dating": "Match", "sports": "Sports",
		"travel_and_transportation": "Travel", "utilities": "Power & Water", "video_streaming": "Stream",
	}
	names := map[string][]string{}
	for i, cat := range domain.MerchantCategories {
		names[cat] = []string{stems[i%len(stems)] + " " + nouns[cat]}
		if i%3 == 0 {
			names[cat] = append(names[cat], stems[(i+5)%len(stems)]+" "+nouns[cat])
		}
	}
	return names
}

func (g *generator) platforms() []domain.Platform {
	var out []domain.Platform
	add := func(p domain.Platform) {
		p.ID = g.id("platform", len(out))
		p.LastUpdated = g.lastUpdated()
		if p.DisplayName == "" {
			p.DisplayName = p.Name
		}
		out = append(out, p)
	}
	for i, stem := range payrollStems {
		name := stem + " " + payrollSuffixes[i%len(payrollSuffixes)]
		p := domain.Platform{Name: name, Type: domain.PlatformPayroll, Partnership: i%7 == 3}
		p.SupportedJobs, p.SwitchLimits = g.payrollCapabilities()
		add(p)
	}
	for _, stem := range timeStems {
		p := domain.Platform{Name: stem, DisplayName: stem + " Time & Attendance", Type: domain.PlatformTimeAndAttendance}
		p.SupportedJobs = []domain.JobType{domain.JobEmployment, domain.JobIdentity, domain.JobShifts}
		if g.chance(0.5) {
			p.SupportedJobs = append(p.SupportedJobs, domain.JobIncome)
		}
		add(p)
	}
	for _, stem := range taxStems {
		add(domain.Platform{Name: stem, Type: domain.PlatformTax,
			SupportedJobs: []domain.JobType{domain.JobIdentity, domain.JobTaxForms}})
	}
	merchants := merchantNames()
	for _, cat := range domain.MerchantCategories {
		for _, name := range merchants[cat] {
			p := domain.Platform{
				Name: name + merchantSuffixes[g.rng.IntN(len(merchantSuffixes))], Type: domain.PlatformMerchant,
				MerchantCategory: cat, MerchantCategories: []string{cat},
				SupportedJobs: []domain.JobType{domain.JobBillSwitch},
			}
			if g.chance(0.3) && cat != "other" {
				p.MerchantCategories = append(p.MerchantCategories, "other")
			}
			if g.chance(0.6) {
				p.SupportedJobs = append(p.SupportedJobs, domain.JobBillCancellation)
			}
			if cat == domain.MerchantCategories[0] && name == merchants[cat][0] {
				// One merchant only cancels, as some do: its bills cannot be
				// moved to another payment method.
				p.SupportedJobs = []domain.JobType{domain.JobBillCancellation}
			}
			add(p)
		}
	}
	return out
}

// payrollCapabilities draws what a payroll platform supports: every one
// reads paystubs, income, employment, identity and allocations; most switch
// deposits, with amount and percentage bounds of their own.
func (g *generator) payrollCapabilities() ([]domain.JobType, domain.SwitchLimits) {
	jobs := []domain.JobType{domain.JobDirectDepositAllocations, domain.JobEmployment, domain.JobIdentity, domain.JobIncome, domain.JobPaystubs}
	var lim domain.SwitchLimits
	if g.chance(0.9) {
		jobs = append(jobs, domain.JobDirectDepositSwitch)
		lim.AmountSupported = g.chance(0.8)
		if lim.AmountSupported {
			lim.FractionalAmountSupported = g.chance(0.5)
			minAmount := int64(100 * (1 + g.rng.IntN(5)))
			maxAmount := int64(100 * []int{2500, 5000, 9999, 25000}[g.rng.IntN(4)])
			lim.MinAmount, lim.MaxAmount = &minAmount, &maxAmount
		}
		lim.PercentageSupported = g.chance(0.7)
		if lim.PercentageSupported {
			lim.MinPercentage = 1 + g.rng.IntN(5)
			lim.MaxPercentage = 90 + g.rng.IntN(11)
		}
	}
	if g.chance(0.7) {
		jobs = append(jobs, domain.JobTaxForms)
	}
	if slices.Contains(jobs, domain.JobDirectDepositSwitch) && g.chance(0.3) {
		jobs = append(jobs, domain.JobDirectDepositPayment)
	}
	slices.Sort(jobs)
	return jobs, lim
}

var (
	employerStems = []string{
		"Alder", "Ashford", "Bayview", "Birchwood", "Blackstone", "Blue Ridge", "Bramble", "Briar",
		"Brookfield", "Canyon", "Cedar", "Chapman", "Clearview", "Cobblestone", "Coral", "Cypress",
		"Dalton", "Driftwood", "Eastgate", "Elm Street", "Fairhaven", "Falcon", "Fieldstone", "Finch",
		"Fletcher", "Foxhollow", "Garnet", "Glenwood", "Golden Gate", "Greenfield", "Hadley", "Halcyon",
		"Hawthorne", "Hearth", "Highland", "Holloway", "Ivy", "Jasper", "Kingsley", "Lakeside",
		"Larkspur", "Lindell", "Magnolia", "Maple", "Marlowe", "Meadowbrook", "Milford", "Mosaic",
		"Northgate", "Oakridge", "Old Mill", "Orchard", "Osprey", "Parkside", "Pinecrest", "Quarry",
		"Quincy", "Ravenwood", "Ridgeline", "Riverbend", "Rosewood", "Saddle Creek", "Sagebrush",
		"Sandpiper", "Seaside", "Shepherd", "Silver Lake", "Southport", "Sparrow", "Spruce", "Starling",
		"Stillwater", "Sunrise", "Sycamore", "Thornbury", "Timberline", "Trillium", "Valley Forge",
		"Waverly", "Westbrook", "Whitfield", "Willow", "Windmill", "Wren", "Yarrow", "Zenith",
		"O'Malley", "St. Claire", "McAllister", "D'Angelo", "Van Buren", "De la Cruz", "Okafor",
		"Nakamura", "Fitzgerald", "Abernathy", "Castellano", "Lindqvist", "Oyelaran", "Petrov",
		"Ramirez", "Schultz", "Takahashi", "Underwood", "Vasquez", "Whitaker", "Young & Park",
		"Acme", "Apex", "Allied", "Anchor", "Arrow", "Atlas", "Cardinal", "Citadel", "Compass",
		"Continental", "Crown", "Delta", "Eagle", "Empire", "Frontier", "Gateway", "Heritage",
	}
	employerIndustries = []string{
		"Logistics", "Medical Center", "Health System", "Dental", "Foods", "Grocers", "Market",
		"Hardware", "Construction", "Builders", "Electric", "Plumbing", "Landscaping", "Hotels",
		"Resorts", "Restaurants", "Bakery", "Coffee Roasters", "Brewing", "Pharmacy", "Clinic",
		"Senior Living", "Home Care", "Staffing", "Security", "Cleaning Services", "Auto Group",
		"Motors", "Trucking", "Freight", "Airlines", "Transit", "Manufacturing", "Steel", "Plastics",
		"Textiles", "Printing", "Packaging", "Labs", "Software", "Analytics", "Networks",
		"Telecom", "Media", "Publishing", "Bank", "Credit Union", "Insurance", "Realty",
		"Property Management", "Apartments", "University", "Academy", "School District",
		"Public Library", "County", "City Services", "Water District", "Energy", "Solar", "Farms",
		"Dairy", "Orchards", "Fisheries", "Outfitters", "Apparel", "Boutique", "Department Stores",
		"Furniture", "Appliances", "Pet Supply", "Veterinary", "Fitness", "Sports Club", "Theaters",
		"Events", "Travel", "Consulting", "Accounting", "Law Group",
	}
	employerSuffixes = []string{" Inc", " LLC", " Co.", " Group", " Corporation", " Holdings", "", " Partners", " & Sons", " Services"}
	employerPlaces   = []string{
		"Ohio", "Texas", "the Rockies", "New England", "the Midwest", "the Bay", "Georgia", "Oregon",
		"Arizona", "the Carolinas", "Florida", "Michigan", "Nevada", "Maine", "Iowa", "Utah",
		"Kentucky", "Montana", "Alaska", "Hawaii",
	}
	// einPrefixes are IRS campus prefixes; EINs start with one of them.
	einPrefixes = []int{10, 12, 20, 26, 27, 30, 32, 35, 36, 37, 38, 41, 42, 43, 45, 46, 47, 51, 52, 54, 56, 57, 58, 59, 61, 62, 71, 72, 74, 75, 80, 81, 82, 83, 84, 85, 86, 87, 88, 91, 92, 93, 94, 95, 98, 99}
)

// employerName maps i to a distinct name. The first len(stems) *
// len(industries) * len(suffixes) names read "Stem Industry Suffix"; beyond
// that a region is appended, so even a 100k directory has no duplicates.
// A multiplicative permutation spreads consecutive i across the alphabet.
func employerName(i int) string {
	s, n, x := len(employerStems), len(employerIndustries), len(employerSuffixes)
	base := s * n * x
	region := i / base
	k := (i%base*7919 + 104729) % base // 7919 is prime and divides no factor of base
	name := employerStems[k%s] + " " + employerIndustries[k/s%n] + employerSuffixes[k/(s*n)]
	if region > 0 {
		name += " of " + employerPlaces[(region-1)%len(employerPlaces)]
		if region > len(employerPlaces) {
			name += fmt.Sprintf(" %d", (region-1)/len(employerPlaces)+1)
		}
	}
	return name
}

// employerEIN maps i to a distinct nine-digit EIN with a real prefix.
func employerEIN(i int) string {
	p := len(einPrefixes)
	serial := (i/p*7919 + 1234567) % 10_000_000 // a bijection for i/p < 10^7
	return fmt.Sprintf("%02d%07d", einPrefixes[i%p], serial)
}

// employers returns the platforms with the ESPs added, and the employers.
func (g *generator) employers(n int, platforms []domain.Platform) ([]domain.Platform, []domain.Employer) {
	var payroll []int
	for i, p := range platforms {
		if p.Type == domain.PlatformPayroll {
			payroll = append(payroll, i)
		}
	}
	out := make([]domain.Employer, 0, n)
	espEvery := 250 // one employer in 250 runs its own portal
	for i := 0; i < n; i++ {
		e := domain.Employer{
			ID:          g.id("employer", i),
			Name:        employerName(i),
			EIN:         employerEIN(i),
			LastUpdated: g.lastUpdated(),
		}
		if i%espEvery == espEvery-1 {
			// An ESP: the employer is its own payroll platform, same id.
			p := domain.Platform{
				ID: e.ID, Name: e.Name, DisplayName: e.Name + " Employee Portal",
				Type: domain.PlatformPayroll, ESP: true, LastUpdated: e.LastUpdated,
			}
			p.SupportedJobs, p.SwitchLimits = g.payrollCapabilities()
			platforms = append(platforms, p)
			e.PlatformID, e.SupportedJobs, e.SwitchLimits = p.ID, p.SupportedJobs, p.SwitchLimits
		} else {
			// Big platforms serve most employers: weight towards the first.
			k := payroll[min(g.rng.IntN(len(payroll)), g.rng.IntN(len(payroll)))]
			p := platforms[k]
			e.PlatformID, e.SupportedJobs, e.SwitchLimits = p.ID, p.SupportedJobs, p.SwitchLimits
		}
		out = append(out, e)
	}
	return platforms, out
}
