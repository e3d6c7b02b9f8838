package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"payline/domain"
	"payline/internal/secretbox"
	"payline/storage"
)

// TestRotateMasterWhileServing moves a database from master key A to B
// while an instance serves: the instance restarts with B and A as the
// previous key, `payline keys rotate-master` seals everything again in
// small batches while reads and writes go on (none fails), and afterwards
// nothing is sealed by A, the database records B, a start with B alone
// serves the same data, and a start with A alone is refused.
func TestRotateMasterWhileServing(t *testing.T) {
	keyA, keyB := testMasterKey, strings.Repeat("cd", 32)
	eachDatabase(t, func(t *testing.T, url string) {
		ctx := context.Background()
		var out bytes.Buffer
		m := startWithEnv(t, url, &out, env("PAYLINE_MASTER_KEY", keyA))
		match := secretLine.FindStringSubmatch(out.String())
		if match == nil {
			t.Fatalf("no secret printed: %s", out.String())
		}
		secret := match[1]
		accountID := linkThroughBinary(t, m.Addr(), secret, "identity", "paystubs", "employment", "income")
		before := readAll(t, m.Addr(), secret, accountID)
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}

		// Every instance restarts with B, keeping A to open what A sealed.
		rotating := env("PAYLINE_MASTER_KEY", keyB, "PAYLINE_PREVIOUS_MASTER_KEY", keyA)
		m = startWithEnv(t, url, io.Discard, rotating)
		var (
			stop           atomic.Bool
			during, failed atomic.Int64
			served         atomic.Int64
			rotatingNow    atomic.Bool
			wg             sync.WaitGroup
			firstFailure   atomic.Value
		)
		wg.Add(1)
		go func() { // reads the sealed data and writes more of it, throughout
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				path, body := "/v1/accounts/"+accountID+"/paystubs?limit=5", ""
				switch i % 3 {
				case 1:
					path = "/v1/accounts/" + accountID + "/identity"
				case 2:
					path, body = "/v1/link_tokens", `{"org_name": "Acme Bank", "end_user_id": "e2e", "required_jobs": ["direct_deposit_switch"],
						"allocation": {"targets": [{"type": "checking", "account_number": "55500`+fmt.Sprint(i)+`", "routing_number": "011000015"}]}}`
				}
				method := "GET"
				if body != "" {
					method = "POST"
				}
				status, got, _, err := apiDo(nil, method, "http://"+m.Addr()+path, secret, body, nil)
				if err != nil || status != 200 {
					failed.Add(1)
					firstFailure.CompareAndSwap(nil, fmt.Sprintf("%s %s: %d %v %v", method, path, status, got, err))
				}
				if rotatingNow.Load() {
					during.Add(1)
				}
				served.Add(1)
			}
		}()
		// The loop is serving before the rotation starts, and the rotation
		// goes one row per batch, so requests interleave with its batches
		// however fast the machine.
		for served.Load() == 0 {
			runtime.Gosched()
		}
		var rotated bytes.Buffer
		rotatingNow.Store(true)
		err := run(ctx, []string{"keys", "rotate-master", "--batch", "1", "--database-url", url}, &rotated, io.Discard, rotating)
		rotatingNow.Store(false)
		stop.Store(true)
		wg.Wait()
		if err != nil {
			t.Fatalf("rotate-master: %v\n%s", err, rotated.String())
		}
		t.Logf("rotate-master, with %d requests served meanwhile:\n%s", during.Load(), rotated.String())
		if failed.Load() > 0 {
			t.Errorf("%d requests failed during the rotation; the first: %v", failed.Load(), firstFailure.Load())
		}
		if during.Load() == 0 {
			t.Error("no request was served while rotate-master ran")
		}
		idB, _ := secretbox.Fingerprint(mustHex(t, keyB))
		if !strings.Contains(rotated.String(), "master key is now "+idB) || !strings.Contains(rotated.String(), "paystubs.body") {
			t.Errorf("rotate-master said:\n%s", rotated.String())
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}

		// Nothing is sealed by A any more.
		db, err := storage.Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		boxB, _ := secretbox.New(mustHex(t, keyB))
		db.SealWith(boxB)
		stale, err := db.StaleSealed(ctx)
		db.Close()
		if err != nil || len(stale) > 0 {
			t.Errorf("after the rotation, values not sealed by B: %v %v", stale, err)
		}

		// B alone serves the same data; A alone is refused.
		m = startWithEnv(t, url, io.Discard, env("PAYLINE_MASTER_KEY", keyB))
		if after := readAll(t, m.Addr(), secret, accountID); !reflect.DeepEqual(after, before) {
			t.Errorf("the data read differently after the rotation:\nbefore %v\nafter  %v", before, after)
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
		old := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox},
			Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", keyA)}
		if err := old.Start(ctx); err == nil || !strings.Contains(err.Error(), "is not the one that sealed") {
			t.Errorf("a start with the old key alone: %v", err)
			if err == nil {
				old.Close(ctx)
			}
		}
	})
}

func startWithEnv(t *testing.T, url string, stdout io.Writer, getenv func(string) string) *Main {
	t.Helper()
	m := &Main{
		// No rate limit: the test reads as fast as it can while rotating.
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox, PublicURL: "http://payline.test", RateLimit: -1},
		Stdout: stdout, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Getenv: getenv,
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	return m
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readAll reads an account's sealed data through the API.
func readAll(t *testing.T, addr, secret, accountID string) map[string]any {
	t.Helper()
	out := map[string]any{}
	for _, p := range []string{"", "/identity", "/paystubs?limit=100", "/employment", "/income", "/direct_deposit_allocations"} {
		status, body := apiGet(t, addr, secret, "/v1/accounts/"+accountID+p)
		if status != 200 {
			t.Fatalf("GET %s: %d %v", p, status, body)
		}
		delete(body, "meta") // holds a fresh download link or timestamps
		out[p] = body
	}
	return out
}
