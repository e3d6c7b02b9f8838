// Package rest is Payline's HTTP adapter: the /v1 API of the interface
// specification on net/http's ServeMux. Every /v1 request passes one
// pipeline (request id, panic recovery, body limit, API-secret auth,
// Service-Version, rate limit), then a thin handler that decodes, calls
// one domain service and encodes; responses for older versions pass the
// version-transform table on the way out. Errors of every kind leave
// through writeError and nowhere else.
package rest
