package sandbox

import (
	"strings"
	"sync"

	"payline/domain"
)

// served maps each payroll platform of the default sandbox directory to
// the employers it serves, in directory order: built once, on first use,
// from the same fixed seed as the directory itself.
// A platform that serves none (time and attendance, tax, merchants) maps
// to every employer.
var served = sync.OnceValue(func() map[string][]domain.Employer {
	platforms, employers := Directory(DefaultEmployerCount)
	out := map[string][]domain.Employer{}
	for _, e := range employers {
		out[e.PlatformID] = append(out[e.PlatformID], e)
	}
	for _, p := range platforms {
		if len(out[p.ID]) == 0 {
			out[p.ID] = employers
		}
	}
	return out
})

// employerOf is the employer whose job an account holds, as a key that is
// the same for every account of the end user at that employer, and its
// name. An account connected through an employer the user picked holds a
// job there; one connected through a payroll platform holds a job at an
// employer the platform serves (never the platform's own name), a current
// job and a terminated one at different employers, so they cannot
// overlap (through a platform that serves no employer, such as a time and
// attendance one, at any employer of the directory). An account naming
// neither, or a platform the sandbox directory does not hold (a test's),
// is a job at the employer it names. shared says whether a current job of the end user may be at
// the same employer: then a terminated job there is the stint before it.
func employerOf(a domain.Account, terminated bool) (key, name string, shared bool) {
	scope := a.CustomerID + "/" + a.EndUserID + "/"
	if a.EmployerID != "" {
		return scope + a.EmployerID, a.EmployerName, true
	}
	if list := served()[a.PlatformID]; len(list) > 0 {
		i := seeded(scope + a.PlatformID).IntN(len(list))
		if terminated {
			i = (i + 1) % len(list)
		}
		return scope + list[i].ID, list[i].Name, len(list) == 1
	}
	return scope + strings.ToLower(strings.TrimSpace(a.EmployerName)), a.EmployerName, false
}
