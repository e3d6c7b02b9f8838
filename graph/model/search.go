// Package model holds the GraphQL types that are not domain types: the
// generated connection types, and SearchResult, the Go side of the union.
package model

// SearchResult is an *domain.Employer or a *domain.Platform; gqlgen
// resolves the union member by a type switch over those two.
type SearchResult any
