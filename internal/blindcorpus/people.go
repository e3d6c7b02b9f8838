package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

var firstNames = []string{"Maria", "James", "Aisha", "Daniel", "Priya", "Tomasz", "Keisha", "Luis", "Hannah", "Marcus",
	"Nguyen", "Olivia", "Rafael", "Deborah", "Kwame", "Sofia", "Brandon", "Elena", "Terrence", "Megan", "Arjun",
	"Yolanda", "Patrick", "Mei", "Andre", "Rosa", "Caleb", "Fatima", "Derek", "Ingrid", "Jamal", "Lucia", "Victor",
	"Shannon", "Omar", "Grace", "Wesley", "Camila", "Trevor", "Naomi", "Hector", "Brianna", "Samuel", "Leticia",
	"Curtis", "Anjali", "Gregory", "Monique", "Ethan", "Veronica", "Dmitri", "Tamika", "Colin", "Esperanza"}

var lastNames = []string{"Gonzalez", "Whitaker", "Okafor", "Lindqvist", "Ramanathan", "Kowalski", "Brooks", "Herrera",
	"Schultz", "Delgado", "Tran", "McAllister", "Castillo", "Abernathy", "Mensah", "Ricci", "Fairbanks", "Petrova",
	"Holloway", "Duarte", "Sandoval", "Kaur", "O'Donnell", "Zhang", "Baptiste", "Villanueva", "Pruitt", "Haddad",
	"Sorensen", "Washington", "Moreno", "Caldwell", "Nakamura", "Jefferson", "Acosta", "Lindgren", "Bautista",
	"Ferraro", "Hutchins", "Ibarra", "Kimball", "Lozano", "Mayfield", "Novak", "Pacheco", "Quintero", "Rasmussen",
	"Stroud", "Tillman", "Underwood", "Vasquez", "Yoder", "Ziegler", "Esposito"}

var streets = []string{"Elm Ct", "Maple Ave", "Quay St", "Birchwood Dr", "Harrison Blvd", "Old Mill Rd", "Juniper Ln",
	"Lakeview Ter", "Commerce Pkwy", "Cedar St", "Willow Bend", "Pioneer Way", "Grant Ave", "Sycamore Pl",
	"Industrial Dr", "Riverside Dr", "Fulton St", "Magnolia Cir", "Chestnut Hill Rd", "Franklin St", "Prospect Ave",
	"Hawthorne Rd", "Bayshore Blvd", "Canyon View Dr", "Kingsley Ave", "Mercer St", "N 5th St", "W Lincoln Hwy",
	"Orchard Ln", "Summit Ridge Dr", "E Main St", "Meadowbrook Ct", "Dogwood Trl", "Tremont St", "Arbor Way"}

type city struct{ City, State, Zip string }

var cities = map[string][]city{
	"MD": {{"Baltimore", "MD", "21230"}, {"Towson", "MD", "21204"}, {"Columbia", "MD", "21044"}, {"Frederick", "MD", "21701"}},
	"CA": {{"Sacramento", "CA", "95814"}, {"Fresno", "CA", "93721"}, {"San Jose", "CA", "95112"}, {"Oakland", "CA", "94607"}, {"Pasadena", "CA", "91101"}, {"Riverside", "CA", "92501"}},
	"NY": {{"Albany", "NY", "12207"}, {"Buffalo", "NY", "14202"}, {"Rochester", "NY", "14604"}, {"Brooklyn", "NY", "11201"}, {"Yonkers", "NY", "10701"}},
	"NJ": {{"Newark", "NJ", "07102"}, {"Trenton", "NJ", "08608"}, {"Edison", "NJ", "08817"}, {"Paterson", "NJ", "07505"}},
	"PA": {{"Philadelphia", "PA", "19103"}, {"Pittsburgh", "PA", "15222"}, {"Allentown", "PA", "18101"}, {"Harrisburg", "PA", "17101"}, {"Scranton", "PA", "18503"}},
	"IL": {{"Chicago", "IL", "60607"}, {"Naperville", "IL", "60540"}, {"Peoria", "IL", "61602"}, {"Springfield", "IL", "62701"}},
	"GA": {{"Atlanta", "GA", "30303"}, {"Savannah", "GA", "31401"}, {"Macon", "GA", "31201"}},
	"NC": {{"Raleigh", "NC", "27601"}, {"Charlotte", "NC", "28202"}, {"Durham", "NC", "27701"}, {"Greensboro", "NC", "27401"}},
	"VA": {{"Richmond", "VA", "23219"}, {"Norfolk", "VA", "23510"}, {"Arlington", "VA", "22201"}},
	"OH": {{"Columbus", "OH", "43215"}, {"Cleveland", "OH", "44113"}, {"Dayton", "OH", "45402"}, {"Toledo", "OH", "43604"}},
	"MA": {{"Boston", "MA", "02110"}, {"Worcester", "MA", "01608"}, {"Lowell", "MA", "01852"}},
	"CO": {{"Denver", "CO", "80202"}, {"Aurora", "CO", "80012"}, {"Boulder", "CO", "80302"}},
	"AZ": {{"Phoenix", "AZ", "85004"}, {"Tucson", "AZ", "85701"}, {"Mesa", "AZ", "85201"}},
	"OR": {{"Portland", "OR", "97204"}, {"Salem", "OR", "97301"}, {"Eugene", "OR", "97401"}},
	"TX": {{"Houston", "TX", "77002"}, {"Dallas", "TX", "75201"}, {"Austin", "TX", "78701"}, {"San Antonio", "TX", "78205"}, {"El Paso", "TX", "79901"}},
	"FL": {{"Tampa", "FL", "33602"}, {"Orlando", "FL", "32801"}, {"Jacksonville", "FL", "32202"}, {"Miami", "FL", "33130"}},
	"WA": {{"Seattle", "WA", "98104"}, {"Tacoma", "WA", "98402"}, {"Spokane", "WA", "99201"}},
	"TN": {{"Nashville", "TN", "37203"}, {"Memphis", "TN", "38103"}, {"Knoxville", "TN", "37902"}},
	"MI": {{"Detroit", "MI", "48226"}, {"Grand Rapids", "MI", "49503"}, {"Lansing", "MI", "48933"}},
	"WI": {{"Milwaukee", "WI", "53202"}, {"Madison", "WI", "53703"}},
	"MN": {{"Minneapolis", "MN", "55401"}, {"St. Paul", "MN", "55102"}},
	"IN": {{"Indianapolis", "IN", "46204"}, {"Fort Wayne", "IN", "46802"}},
	"KY": {{"Louisville", "KY", "40202"}, {"Lexington", "KY", "40507"}},
	"MO": {{"Kansas City", "MO", "64106"}, {"St. Louis", "MO", "63101"}},
	"SC": {{"Columbia", "SC", "29201"}, {"Charleston", "SC", "29401"}},
	"NV": {{"Las Vegas", "NV", "89101"}, {"Reno", "NV", "89501"}},
	"UT": {{"Salt Lake City", "UT", "84111"}},
	"NH": {{"Manchester", "NH", "03101"}, {"Nashua", "NH", "03060"}, {"Concord", "NH", "03301"}},
	"CT": {{"Hartford", "CT", "06103"}, {"Stamford", "CT", "06901"}, {"New Haven", "CT", "06510"}},
}

var einPrefixes = []int{10, 11, 12, 13, 14, 16, 20, 22, 23, 26, 27, 30, 33, 34, 35, 36, 38, 41, 42, 45, 46, 47, 52, 54, 56, 58, 61, 62, 65, 74, 75, 76, 81, 82, 83, 84, 86, 87, 88, 91, 92, 93, 94, 95}

type pool struct {
	r        *rand.Rand
	usedName map[string]bool
	usedSSN  map[string]bool
	middles  string
}

func newPool() *pool {
	return &pool{r: seeded("people-pool"), usedName: map[string]bool{}, usedSSN: map[string]bool{}, middles: "ABCDEFGHJKLMNPRSTW"}
}

func (p *pool) person(state string) *Person {
	r := p.r
	var f, l string
	for {
		f, l = pick(r, firstNames...), pick(r, lastNames...)
		if !p.usedName[f+l] {
			p.usedName[f+l] = true
			break
		}
	}
	per := &Person{First: f, Last: l, Married: r.IntN(3) == 0}
	if r.IntN(4) != 0 {
		per.Middle = string(p.middles[r.IntN(len(p.middles))])
	}
	for {
		s := fmt.Sprintf("%04d", between(r, 1001, 9989))
		if !p.usedSSN[s] {
			p.usedSSN[s] = true
			per.SSN4 = s
			break
		}
	}
	c := pick(r, cities[state]...)
	per.Addr1 = fmt.Sprintf("%d %s", between(r, 12, 9870), pick(r, streets...))
	if r.IntN(5) == 0 {
		per.Addr1 += pick(r, " Apt 4B", " Unit 12", " Apt 207", " #3")
	}
	per.City, per.State, per.Zip = c.City, c.State, c.Zip
	return per
}

func (p *pool) ein() string {
	return fmt.Sprintf("%02d-%07d", pick(p.r, einPrefixes...), between(p.r, 1000000, 9999999))
}

func (p *pool) company(name, state string) *Company {
	r := p.r
	c := pick(r, cities[state]...)
	co := &Company{Name: name, City: c.City, State: c.State, Zip: c.Zip, EIN: p.ein(), StateID: map[string]string{}}
	co.Addr1 = fmt.Sprintf("%d %s", between(r, 100, 4800), pick(r, streets...))
	if r.IntN(3) == 0 {
		co.Addr1 += pick(r, " Suite 200", " Ste 1400", " Floor 3", " Bldg C")
	}
	co.Phone = fmt.Sprintf("(%d) 555-%04d", between(r, 201, 989), between(r, 100, 9999))
	co.Code = fmt.Sprintf("%s%s/%s %08d", string(rune('A'+r.IntN(26))), string(rune('A'+r.IntN(26))), strings.ToUpper(name[:3]), between(r, 10000000, 99999999))
	co.Bank = pick(r, "First Harbor Bank", "Citizens Union Bank", "Keystone National Bank", "Pacific Crest Bank", "Meridian Trust", "Lakeshore Community Bank")
	return co
}

func (p *pool) stateID(co *Company, st string) {
	r := p.r
	var id string
	switch st {
	case "CA":
		id = fmt.Sprintf("%03d-%04d-%d", between(r, 100, 999), between(r, 1000, 9999), between(r, 0, 9))
	case "NY", "NJ":
		id = fmt.Sprintf("%09d", between(r, 100000000, 999999999))
	case "PA":
		id = fmt.Sprintf("%08d", between(r, 10000000, 99999999))
	case "TX", "FL", "WA", "TN", "NV":
		id = ""
	default:
		id = fmt.Sprintf("%07d", between(r, 1000000, 9999999))
	}
	co.StateID[st] = id
}

func acct(r *rand.Rand) string { return fmt.Sprintf("xxxxxx%04d", between(r, 1000, 9999)) }
