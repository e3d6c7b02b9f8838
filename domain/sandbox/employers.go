package sandbox

import (
	"strings"
	"sync"

	"payline/domain"
)

// directory is the default sandbox directory, built once, on first use,
// from the same fixed seed as the directory itself: served maps each
// platform to the employers it serves, in directory order (a platform
// that serves none, such as a time and attendance, tax or merchant one,
// to every employer), and all holds every employer.
type directory struct {
	served map[string][]domain.Employer
	all    []domain.Employer
}

var sandboxDirectory = sync.OnceValue(func() directory {
	platforms, employers := Directory(DefaultEmployerCount)
	d := directory{served: map[string][]domain.Employer{}, all: employers}
	for _, e := range employers {
		d.served[e.PlatformID] = append(d.served[e.PlatformID], e)
	}
	for _, p := range platforms {
		if len(d.served[p.ID]) == 0 {
			d.served[p.ID] = employers
		}
	}
	return d
})

// employerOf is the employer whose job an account holds, as a key that is
// the same for every account of the end user at that employer, and its
// name.
//
// A current job is at the employer the user picked in Link; through a
// platform of the directory, at an employer the platform serves (never
// the platform's own name), drawn from the end user and the platform
// (through one that serves no employer, at any employer of the
// directory).
//
// A terminated job (user_terminated) connected either way is at the
// employer after that one in the list of employers the platform serves
// (the picked employer's platform, or the one connected through) or,
// where that list holds no other, in the whole directory: never where a
// current job connected the same way is, so a job that ended within the
// last year never overlaps a current one at its employer.
//
// An account naming neither (through a platform the sandbox directory
// does not hold, such as a test's) holds its job, current or terminated,
// at the employer it names.
func employerOf(a domain.Account, terminated bool) (key, name string) {
	scope := a.CustomerID + "/" + a.EndUserID + "/"
	dir := sandboxDirectory()
	list := dir.served[a.PlatformID]
	current := -1 // the current job's place in list
	switch {
	case a.EmployerID != "":
		if !terminated {
			return scope + a.EmployerID, a.EmployerName
		}
		current = indexOf(list, a.EmployerID)
	case len(list) > 0:
		current = seeded(scope + a.PlatformID).IntN(len(list))
		if !terminated {
			return scope + list[current].ID, list[current].Name
		}
	default:
		return scope + strings.ToLower(strings.TrimSpace(a.EmployerName)), a.EmployerName
	}
	if len(list) == 0 || (current >= 0 && len(list) < 2) {
		here := a.EmployerID
		if current >= 0 {
			here = list[current].ID
		}
		list = dir.all
		current = indexOf(list, here)
	}
	// current is -1 for a picked employer the list does not hold: then
	// the list's first.
	former := list[(current+1)%len(list)]
	return scope + former.ID, former.Name
}

func indexOf(list []domain.Employer, id string) int {
	for i, e := range list {
		if e.ID == id {
			return i
		}
	}
	return -1
}
