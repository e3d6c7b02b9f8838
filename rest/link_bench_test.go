package rest

import (
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// BenchmarkLinkSession is a sandbox Link session end to end (a token, the
// login, and its four read jobs run to success with their data stored),
// with the sandbox connector in process and behind the connector protocol
// on loopback, alternating under -count (docs/benchmarks.md).
func BenchmarkLinkSession(b *testing.B) {
	p := switchPlatform(b)
	for _, via := range []string{"in-process", "protocol"} {
		b.Run(via, func(b *testing.B) {
			db := storagetest.Open(b, storage.SQLite, storagetest.Seeded)
			f := newFixture(b, db, func(s *fixtureSetup) {
				if via == "protocol" {
					s.wrapConnector = func(c domain.Connector) domain.Connector { return overProtocol(b, c) }
				}
			})
			for b.Loop() {
				tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "bench", "required_jobs": ["identity", "employment", "income", "paystubs"]}`)
				f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(b)
				f.waitJobs(tokenID, 4)
			}
		})
	}
}
