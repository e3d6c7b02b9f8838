package notify_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/notify"
	"payline/notify/twilio"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestMain(m *testing.M) { os.Exit(storagetest.Main(m)) }

func email(customer string, mode domain.Mode) domain.OutboundMessage {
	return domain.OutboundMessage{Channel: domain.ChannelEmail, To: "jordan@example.com", FromName: "Acme Lending",
		Subject: "Connect your payroll", Text: "Hello Jordan,\n\nOpen https://payline.example/l/AbC123 to start.",
		CustomerID: customer, Mode: mode, Ref: "lo_1"}
}

func text(customer string, mode domain.Mode) domain.OutboundMessage {
	return domain.OutboundMessage{Channel: domain.ChannelSMS, To: "+15558675310", FromName: "Acme Lending",
		Text: "Acme Lending: connect your payroll at https://payline.example/l/AbC123", CustomerID: customer, Mode: mode, Ref: "lo_1"}
}

func TestSandboxOutbox(t *testing.T) {
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		store := storage.NewMessageStore(db)
		at := time.Date(2026, 11, 28, 21, 0, 0, 0, time.UTC)
		send, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox, Outbox: store, OptOuts: store, Now: func() time.Time { return at }})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []domain.OutboundMessage{email("c-mine", domain.ModeSandbox), text("c-mine", domain.ModeSandbox), email("c-theirs", domain.ModeSandbox)} {
			sent, err := send.Send(ctx, m)
			if err != nil {
				t.Fatalf("%s: %v", m.Channel, err)
			}
			if !domain.ValidID(sent.ProviderID) || !sent.SentAt.Equal(at) {
				t.Errorf("sent = %+v, want the outbox row's id and the clock's time", sent)
			}
		}
		svc := domain.NewOutboxService(store)
		page, err := svc.Messages(ctx, domain.Scope{CustomerID: "c-mine", Mode: domain.ModeSandbox}, domain.PageRequest{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 2 {
			t.Fatalf("c-mine's outbox holds %d messages, want its own 2", len(page.Items))
		}
		byChannel := map[domain.MessageChannel]domain.OutboxMessage{}
		for _, m := range page.Items {
			byChannel[m.Channel] = m
		}
		e := byChannel[domain.ChannelEmail]
		if e.To != "jordan@example.com" || e.ToMasked != "j***@example.com" || e.Subject != "Connect your payroll" ||
			!strings.Contains(e.HTML, `<a href="https://payline.example/l/AbC123"`) || !strings.Contains(e.HTML, "Acme Lending") {
			t.Errorf("the e-mail as kept: %+v", e)
		}
		if s := byChannel[domain.ChannelSMS]; s.To != "+15558675310" || s.ToMasked != "***-***-5310" || s.Text != text("", "").Text || s.HTML != "" {
			t.Errorf("the text as kept: %+v", s)
		}
		// The sandbox refuses what a real channel would.
		tracked := email("c-mine", domain.ModeSandbox)
		tracked.HTML = `<p>Hi</p><img src="https://tracker.example/p.gif">`
		if _, err := send.Send(ctx, tracked); !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "img") {
			t.Errorf("HTML with an image: err = %v", err)
		}
		bad := text("c-mine", domain.ModeSandbox)
		bad.To = "555-0123"
		if _, err := send.Send(ctx, bad); !errors.Is(err, domain.ErrDeliveryRefused) {
			t.Errorf("a number not in E.164: err = %v", err)
		}
		if err := store.SetOptedOut(ctx, domain.ModeSandbox, "+15558675310", true, domain.OptOutReply, at); err != nil {
			t.Fatal(err)
		}
		if _, err := send.Send(ctx, text("c-mine", domain.ModeSandbox)); !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "replied STOP") {
			t.Errorf("an opted-out number in the sandbox: err = %v", err)
		}
		// Outside the sandbox the outbox shows nothing.
		if p, err := svc.Messages(ctx, domain.Scope{CustomerID: "c-mine", Mode: domain.ModeProduction}, domain.PageRequest{Limit: 10}); err != nil || len(p.Items) != 0 {
			t.Errorf("production outbox: %v, %v", p.Items, err)
		}
	})
}

func TestProductionWithoutChannelsRefuses(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	store := storage.NewMessageStore(db)
	send, err := notify.NewSender(notify.Config{Mode: domain.ModeProduction, Outbox: store, OptOuts: store})
	if err != nil {
		t.Fatal(err)
	}
	for m, want := range map[domain.OutboundMessage]string{
		email("c1", domain.ModeProduction): "no SMTP server is configured",
		text("c1", domain.ModeProduction):  "no SMS provider is configured",
	} {
		if _, err := send.Send(context.Background(), m); !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want a refusal saying %q", m.Channel, err, want)
		}
	}
	var n int
	if err := db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM outbox_messages`); err != nil || n != 0 {
		t.Errorf("production kept %d messages in an outbox (%v)", n, err)
	}
	if notify.NewInboundHook(notify.Config{Mode: domain.ModeProduction, OptOuts: store}) != nil {
		t.Error("an inbound hook without an SMS provider")
	}
}

func TestConfiguredProviderIsUsed(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	store := storage.NewMessageStore(db)
	calls := make(chan string, 1)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		calls <- r.PostForm.Get("To")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"sid": "SM0123456789abcdef0123456789abcdef", "status": "queued"}`))
	}))
	defer api.Close()
	at := time.Date(2026, 11, 28, 21, 30, 0, 0, time.UTC)
	cfg := notify.Config{Mode: domain.ModeSandbox, Outbox: store, OptOuts: store, Now: func() time.Time { return at },
		Twilio: twilio.Config{AccountSID: "AC0123456789abcdef0123456789abcdef", AuthToken: "t", From: "+15005550006", BaseURL: api.URL}}
	send, err := notify.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sent, err := send.Send(context.Background(), text("c1", domain.ModeSandbox))
	if err != nil || sent.ProviderID != "SM0123456789abcdef0123456789abcdef" || !sent.SentAt.Equal(at) {
		t.Fatalf("sent %+v, err %v", sent, err)
	}
	if to := <-calls; to != "+15558675310" {
		t.Errorf("Twilio was asked to text %q", to)
	}
	if notify.NewInboundHook(cfg) == nil {
		t.Error("no inbound hook with Twilio configured")
	}
	if _, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox, Outbox: store, OptOuts: store, SMTPURL: "smtp://mail.example"}); err == nil ||
		!strings.Contains(err.Error(), "--smtp-from") {
		t.Errorf("SMTP without a from address: err = %v", err)
	}
}
