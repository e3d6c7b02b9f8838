package rest

import (
	"net/http"

	"payline/domain"
)

func (s *Server) listEmployers(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	f := domain.EmployerFilter{UpdatedAfter: q.timestamp("last_updated")}
	p := q.page(domain.ListEmployers)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.directory.ListEmployers(r.Context(), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resEmployer, mapAll(pg.Items, newEmployerJSON), pg.Next), nil
}

func (s *Server) lookupEmployer(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	if err := q.err(); err != nil {
		return response{}, err
	}
	ein, _ := q.str("ein")
	e, err := s.directory.EmployerByEIN(r.Context(), ein)
	if err != nil {
		return response{}, err
	}
	return object(resEmployer, newEmployerJSON(e)), nil
}

func (s *Server) getEmployer(r *http.Request) (response, error) {
	e, err := s.directory.Employer(r.Context(), r.PathValue("employer_id"))
	if err != nil {
		return response{}, err
	}
	return object(resEmployer, newEmployerJSON(e)), nil
}

func (s *Server) listPlatforms(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	f := domain.PlatformFilter{Type: q.platformType("type"), UpdatedAfter: q.timestamp("last_updated")}
	if b := q.boolean("include_esps"); b != nil {
		f.IncludeESPs = *b
	}
	p := q.page(domain.ListPlatforms)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.directory.ListPlatforms(r.Context(), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resPlatform, mapAll(pg.Items, newPlatformJSON), pg.Next), nil
}

func (s *Server) getPlatform(r *http.Request) (response, error) {
	p, err := s.directory.Platform(r.Context(), r.PathValue("platform_id"))
	if err != nil {
		return response{}, err
	}
	return object(resPlatform, newPlatformJSON(p)), nil
}

func (s *Server) search(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	sq := domain.SearchQuery{
		SupportedJobs:   q.jobTypes("supported_jobs"),
		AmountSupported: q.boolean("amount_supported"),
		PlatformType:    q.platformType("platform_type"),
		Limit:           q.limit(),
	}
	text, ok := q.str("q")
	sq.Q = text
	for _, v := range q.list("response_types") {
		switch rt := domain.ResponseType(v); rt {
		case domain.ResponseEmployer, domain.ResponsePlatform:
			sq.ResponseTypes = append(sq.ResponseTypes, rt)
		default:
			q.p.Invalid("response_types", "%q is not a response type; use employer or platform", v)
		}
	}
	if !ok {
		q.p.Missing("q")
	}
	if err := q.err(); err != nil {
		return response{}, err
	}
	results, err := s.directory.Search(r.Context(), sq)
	if err != nil {
		return response{}, err
	}
	return response{status: http.StatusOK, resource: resSearchResult, data: mapAll(results, newSearchResultJSON),
		list: true, meta: map[string]any{"count": len(results)}}, nil
}
