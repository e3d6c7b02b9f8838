// Package sdk holds what the client libraries need from Payline's own
// module: the generation of the Go client's client/api (oapi-codegen is a
// tool of this module, so the client's module needs none of it), and the
// tests that run every library (Go, TypeScript, Python, React) against a
// real sandbox server built from cmd/payline.
package sdk

//go:generate go tool oapi-codegen -config ../client/api/oapi-codegen.yaml ../docs/openapi.yaml
