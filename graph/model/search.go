// Package model holds the GraphQL types that are not domain types: the
// generated connection types, and SearchResult, the Go side of the union.
package model

// SearchResult is an *domain.Employer or a *domain.Platform; gqlgen
// resolves the union member by a type switch over those two.
type SearchResult any

// Node is any object with a global id: the domain types that implement the
// Node interface are bound as they are, so the interface asks nothing of
// them and gqlgen resolves the concrete type by a type switch.
type Node any
