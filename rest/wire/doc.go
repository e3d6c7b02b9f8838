// Package wire is the JSON wire format the REST API (/v1) and the Link
// modal's API (/link/v1/api) share: one strict request decoder, one
// encoder, one error writer (its statuses and log line are
// internal/httperr's, which GraphQL shares), and the JSON shapes both
// serve (times, dollar amounts, platform switch limits). Keeping them
// here means the two APIs cannot drift apart on what input they accept or
// how they write.
package wire
