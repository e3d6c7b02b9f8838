package graph

import "payline/domain"

// disputesServed refuses the dispute fields on a server built without
// the service (a test's, a tool's).
func (r *Resolver) disputesServed() error {
	if r.DisputeService == nil {
		return domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound, "this server keeps no disputes")
	}
	return nil
}

// optionalOutcome is null for no outcome.
func optionalOutcome(o domain.DisputeOutcome) *domain.DisputeOutcome {
	if o == "" {
		return nil
	}
	return &o
}
