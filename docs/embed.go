// Package docs holds Payline's documentation; its Go part embeds the
// documents the server itself serves, so what is served is what is here.
package docs

import _ "embed"

// OpenAPI is openapi.yaml, served at GET /v1/openapi.yaml.
//
//go:embed openapi.yaml
var OpenAPI []byte

// ConnectorProtocol is connector-protocol.yaml, served at GET
// /v1/connector-protocol.yaml.
//
//go:embed connector-protocol.yaml
var ConnectorProtocol []byte
