// Command printschema writes the GraphQL schema as SDL to the file named
// by its argument; `go generate ./...` runs it to keep docs/schema.graphql
// equal to what GET /graphql/schema.graphql serves.
package main

import (
	"fmt"
	"os"

	"payline/graph"
	"payline/graph/generated"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: printschema FILE")
		os.Exit(2)
	}
	sdl := graph.SDL(generated.NewExecutableSchema(generated.Config{Resolvers: &graph.Resolver{}}))
	if err := os.WriteFile(os.Args[1], []byte(sdl), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
