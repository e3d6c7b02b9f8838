// Package domain is Payline's core: the entities of the interface
// specification (employers, platforms, API keys, and later link tokens,
// accounts and jobs), their validation rules, the one error type every
// transport maps, and the services that implement each use case.
//
// It declares the ports it needs (stores, clock) and imports no adapter:
// storage, rest, graph and reports depend on domain, never the reverse.
package domain
