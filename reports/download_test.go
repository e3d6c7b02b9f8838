package reports_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/reports"
)

// noReads is a store that counts every use: a download whose link is bad
// must be refused before any.
type noReads struct {
	domain.Transactor
	uses atomic.Int32
}

func (n *noReads) Reports() domain.ReportStore { n.uses.Add(1); return nil }

func (n *noReads) InTx(context.Context, func(context.Context, domain.Tx) error) error {
	n.uses.Add(1)
	return errors.New("no transaction expected")
}

type fixedClock time.Time

func (c fixedClock) Now() time.Time { return time.Time(c) }

// TestBadLinkReadsNothing: a wrong, expired or foreign-key signature is
// refused with 403 DOWNLOAD_LINK_INVALID before anything is read, so the
// refusal takes the same path (and time) whether or not the document
// exists.
func TestBadLinkReadsNothing(t *testing.T) {
	clock := fixedClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	signer, err := reports.NewSigner(make([]byte, 32), "https://payline.example", 0, clock)
	if err != nil {
		t.Fatal(err)
	}
	store := &noReads{}
	svc := reports.NewService(store, nil, nil, signer, clock)
	id := domain.NewID()
	link, err := url.Parse(signer.Link(id).DownloadURL)
	if err != nil {
		t.Fatal(err)
	}
	expires, sig := link.Query().Get("expires"), link.Query().Get("signature")
	wrong := sig[:len(sig)-1] + map[bool]string{true: "1", false: "0"}[strings.HasSuffix(sig, "0")]
	for name, c := range map[string][3]string{
		"wrong signature":     {id, expires, wrong},
		"another document":    {domain.NewID(), expires, sig},
		"later expiry":        {id, "9999999999", sig},
		"unknown key":         {id, expires, "k9" + strings.TrimPrefix(sig, "k2")},
		"no signature":        {id, "", ""},
		"not a document id":   {"../etc/passwd", expires, sig},
		"signature not a mac": {id, expires, "k2.zz"},
	} {
		_, err := svc.Download(context.Background(), c[0], c[1], c[2])
		var e *domain.Error
		if !errors.As(err, &e) || e.Code != domain.CodeDownloadLinkInvalid {
			t.Errorf("%s: %v, want DOWNLOAD_LINK_INVALID", name, err)
		}
	}
	if n := store.uses.Load(); n != 0 {
		t.Errorf("bad links used the store %d times, want none", n)
	}
}
